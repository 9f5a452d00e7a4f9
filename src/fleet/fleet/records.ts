/**
 * What the records say about a worktree: bound to an open job or dispatch, settled, or orphaned (no record at all).
 * Sources: the jobs ledger (`job_spawned` names the worktree, the pane and its host; a decision or an escalation
 * settles the job) and the dispatch ledger's lifecycle rows that carry a `worktree_path` (D7 statuses, D19 rows).
 * Any open record wins: a worktree with one open and one settled record is open.
 */
import { readRows, type ReadOptions } from "../../lib/ledger.ts";
import { isSettled } from "../../workers/reap/worker-reap.ts";
import { listedReal } from "../../workers/reap/keep-rules.ts";

interface Terminal {
  host: "herdr" | "orca";
  id: string;
}

export interface Binding {
  state: "open" | "settled";
  /**
   * Which record binds it (D41): `job` (jobs ledger), `dispatch` (dispatch ledger lifecycle rows naming the worktree),
   * `register` (a gate register row with an orchestration task, placed through Orca: task -> assignee terminal ->
   * its worktree), `orca` / `herdr` (a live terminal or pane in the worktree that no record knows).
   */
  source: "job" | "dispatch" | "register" | "orca" | "herdr";
  id: string;
  status: string;
  /** The pane or terminal recorded for it, when still recorded as open (not collected). */
  terminal: Terminal | null;
  /** The Orca orchestration task of a dispatch (register rows, lifecycle rows' task_id). */
  task?: string | null;
  /** Who said the status: the mogui ledger, or Orca's task status (D41: Orca's task status settles a dispatch). */
  status_from?: "ledger" | "orca";
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

async function fromDispatches(path: string, out: Map<string, Binding[]>, unplaced: Binding[], opts: ReadOptions): Promise<void> {
  const ds = new Map<string, { wt: string | null; b: Binding }>();
  for await (const { row } of readRows(path, opts)) {
    // A gate register row (ALLOW with the job id and an orchestration task): the dispatch as the gate knows it.
    const register = row.decision === "ALLOW" && typeof row.job_id === "string" && typeof row.orchestration_task === "string" && row.orchestration_task !== "";
    if (!register && row.event !== "dispatch_submitted" && row.event !== "dispatch_completed" && row.event !== "reap") continue;
    const id = register ? (row.job_id as string) : typeof row.dispatch_id === "string" ? row.dispatch_id : null;
    if (!id) continue;
    const d = ds.get(id) ?? { wt: null, b: { state: "open", source: "dispatch", id, status: "dispatched", terminal: null, task: null, status_from: "ledger" } as Binding };
    const task = register ? (row.orchestration_task as string) : typeof row.task_id === "string" && row.task_id ? row.task_id : null;
    if (task) d.b.task = task;
    const wt = typeof row.worktree_path === "string" ? row.worktree_path : typeof row.worktree === "string" ? row.worktree : null;
    if (wt) d.wt = wt;
    if (typeof row.terminal_id === "string" && row.terminal_id) d.b.terminal = { host: "orca", id: row.terminal_id };
    if (!register && typeof row.status === "string" && row.status && row.event !== "reap") {
      d.b.status = row.status;
      d.b.state = isSettled(row.status) ? "settled" : "open";
    }
    ds.set(id, d);
  }
  for (const { wt, b } of ds.values()) {
    if (wt) push(out, wt, b);
    else if (b.task) unplaced.push({ ...b, source: "register" });
  }
}

function push(out: Map<string, Binding[]>, wt: string, b: Binding): void {
  const k = listedReal(wt);
  out.set(k, [...(out.get(k) ?? []), b]);
}

export interface Records {
  /** Real worktree path -> every record that names it. */
  byPath: Map<string, Binding[]>;
  /** Dispatches with an orchestration task but no worktree in any mogui row (gate-registered): Orca places them. */
  unplaced: Binding[];
}

/** Every mogui record of the fleet. Missing ledgers are empty. */
export async function loadRecords(jobsLedger: string, dispatchLedger: string, opts: ReadOptions = {}): Promise<Records> {
  const byPath = new Map<string, Binding[]>();
  const unplaced: Binding[] = [];
  await fromJobs(jobsLedger, byPath, opts);
  await fromDispatches(dispatchLedger, byPath, unplaced, opts);
  return { byPath, unplaced };
}

export function pushBinding(out: Map<string, Binding[]>, wt: string, b: Binding): void {
  push(out, wt, b);
}
