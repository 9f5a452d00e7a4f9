/**
 * What the records say about a worktree: bound to an open job or dispatch, settled, or orphaned (no record at all).
 * Sources: the jobs ledger (`job_spawned` names the worktree, the pane and its host; a decision or an escalation
 * settles the job) and the dispatch ledger's lifecycle rows that carry a `worktree_path` (D7 statuses, D19 rows).
 * Any open record wins: a worktree with one open and one settled record is open.
 */
import { readRows, type ReadOptions } from "../../lib/ledger.ts";
import { isSettled } from "../../workers/reap/worker-reap.ts";
import { realOrSelf } from "./procs.ts";

interface Terminal {
  host: "herdr" | "orca";
  id: string;
}

export interface Binding {
  state: "open" | "settled";
  source: "job" | "dispatch";
  id: string;
  status: string;
  /** The pane or terminal recorded for it, when still recorded as open (not collected). */
  terminal: Terminal | null;
}

const JOB_SETTLED = new Set(["merged", "closed", "escalated"]);

async function fromJobs(path: string, out: Map<string, Binding[]>, opts: ReadOptions): Promise<void> {
  const jobs = new Map<string, { wt: string; b: Binding }>();
  for await (const { row } of readRows(path, opts)) {
    const id = typeof row.job_id === "string" ? row.job_id : null;
    if (!id) continue;
    if (row.event === "job_spawned" && typeof row.worktree === "string") {
      const host = row.host === "orca" ? "orca" : "herdr";
      const terminal = typeof row.pane_id === "string" && row.pane_id ? ({ host, id: row.pane_id } as Terminal) : null;
      jobs.set(id, { wt: row.worktree, b: { state: "open", source: "job", id, status: "running", terminal } });
      continue;
    }
    const j = jobs.get(id);
    if (!j) continue;
    if (row.event === "job_decision" && typeof row.state === "string") {
      j.b.status = row.state;
      j.b.state = JOB_SETTLED.has(row.state) ? "settled" : "open";
    } else if (row.event === "verdict" && row.outcome === "escalated") {
      j.b.status = "escalated";
      j.b.state = "settled";
    } else if (row.event === "job_collected") j.b.terminal = null;
  }
  for (const { wt, b } of jobs.values()) push(out, wt, b);
}

async function fromDispatches(path: string, out: Map<string, Binding[]>, opts: ReadOptions): Promise<void> {
  const ds = new Map<string, { wt: string | null; b: Binding }>();
  for await (const { row } of readRows(path, opts)) {
    if (row.event !== "dispatch_submitted" && row.event !== "dispatch_completed" && row.event !== "reap") continue;
    const id = typeof row.dispatch_id === "string" ? row.dispatch_id : null;
    if (!id) continue;
    const d = ds.get(id) ?? { wt: null, b: { state: "open", source: "dispatch", id, status: "dispatched", terminal: null } as Binding };
    const wt = typeof row.worktree_path === "string" ? row.worktree_path : typeof row.worktree === "string" ? row.worktree : null;
    if (wt) d.wt = wt;
    if (typeof row.terminal_id === "string" && row.terminal_id) d.b.terminal = { host: "orca", id: row.terminal_id };
    if (typeof row.status === "string" && row.status && row.event !== "reap") {
      d.b.status = row.status;
      d.b.state = isSettled(row.status) ? "settled" : "open";
    }
    ds.set(id, d);
  }
  for (const { wt, b } of ds.values()) if (wt) push(out, wt, b);
}

function push(out: Map<string, Binding[]>, wt: string, b: Binding): void {
  const k = realOrSelf(wt);
  out.set(k, [...(out.get(k) ?? []), b]);
}

/** Real worktree path -> every record that names it. Missing ledgers are empty. */
export async function loadBindings(jobsLedger: string, dispatchLedger: string, opts: ReadOptions = {}): Promise<Map<string, Binding[]>> {
  const out = new Map<string, Binding[]>();
  await fromJobs(jobsLedger, out, opts);
  await fromDispatches(dispatchLedger, out, opts);
  return out;
}

/** The binding that decides: an open one if any, else the last settled one, else orphaned (undefined). */
export function decisive(bs: readonly Binding[] | undefined): Binding | undefined {
  if (!bs?.length) return undefined;
  return bs.find((b) => b.state === "open") ?? bs[bs.length - 1];
}
