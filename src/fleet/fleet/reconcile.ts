/**
 * DECISIONS D41: a worktree's binding is reconciled from every record, not only mogui's own lifecycle rows:
 *
 *   1. the jobs ledger (`job_spawned` names the worktree and the pane) and the dispatch ledger's lifecycle rows
 *      that name a worktree (records.ts);
 *   2. gate `register` rows with an orchestration task: Orca's `task-list` gives the task's status and its latest
 *      dispatch's assignee terminal (`dispatch-show --task` only for a task whose row lacks the assignee), and the
 *      terminal's `worktreePath` in `terminal list` places the dispatch in its worktree;
 *   3. Orca's task status settles a dispatch (completed, failed, cancelled; a circuit-broken task is failed) even
 *      when no mogui row says so, and a running task (pending, ready, dispatched, blocked) keeps it open;
 *   4. Orca's live terminals and herdr's panes by their cwd: a live one in a worktree no record knows binds it too
 *      (source `orca` / `herdr`, open).
 *
 * Where the records disagree the worktree carries `drift` (below), reported by `fleet scan` and never resolved toward
 * removal: a drift never settles a binding, and the worktree keeps every reason to be left it had.
 *
 * One query per host per scan: `terminal list` and `task-list` once for Orca (the second only when a record names a
 * task), `pane list` once for herdr, whatever the number of worktrees.
 */
import type { Ctx } from "../../lib/context.ts";
import { normalStatus, OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { pushBinding, type Binding, type Records } from "./records.ts";
import type { Pane, PaneView } from "./panes.ts";

/** What records disagree about (D41). */
export type Drift =
  /** Orca says the task is completed (or failed) but a process still works inside the worktree. */
  | "orca_settled_process_running"
  /** A ledger says the job or dispatch is open but no terminal of it (nor any pane) is live in the worktree. */
  | "ledger_open_no_terminal"
  /** A live terminal or pane works in a worktree no record knows. */
  | "unknown_terminal"
  /** A register row's orchestration task is not among Orca's tasks any more. */
  | "task_gone";

const TASK_SETTLED = new Set(["completed", "failed", "cancelled", "canceled", "circuit_broken"]);
const TASK_OPEN = new Set(["pending", "ready", "dispatched", "blocked", "running"]);

interface OrcaTask {
  status: string;
  dispatch_id: string | null;
  assignee: string | null;
}

/** Orca's tasks by id; `null` when Orca was not asked or could not answer (`why`). */
export interface TaskView {
  tasks: Map<string, OrcaTask> | null;
  why: string | null;
}

/** One `task-list` (plus `dispatch-show --task` for rows without an assignee); Orca absent = no tasks known. */
export async function orcaTasks(ctx: Ctx, wanted: boolean, timeoutMs: number, panes: PaneView): Promise<TaskView> {
  if (!wanted) return { tasks: null, why: "no record names a task" };
  if (panes.absent.includes("orca")) return { tasks: null, why: "orca is not running" };
  const orca = new OrcaClient(ctx, { timeoutMs });
  try {
    const out = new Map<string, OrcaTask>();
    for (const t of await orca.taskList()) {
      let assignee = t.assignee_handle ?? null;
      if (!assignee && t.dispatch_id) assignee = (await orca.dispatchShow(t.id))?.terminal ?? null;
      out.set(t.id, { status: normalStatus(t.status), dispatch_id: t.dispatch_id ?? null, assignee });
    }
    return { tasks: out, why: null };
  } catch (e) {
    if (!(e instanceof OrcaError)) throw e;
    if (e.failure === "missing" || e.orcaCode === "runtime_unavailable") return { tasks: null, why: "orca is not running" };
    return { tasks: null, why: `orca task-list: ${e.message}` };
  }
}

/** Apply Orca's task state to a dispatch binding with a task (D41 rule 3); returns whether the task is gone. */
function applyTask(b: Binding, tasks: Map<string, OrcaTask> | null): boolean {
  if (!b.task || !tasks) return false;
  const t = tasks.get(b.task);
  if (!t) return true;
  if (t.assignee) b.terminal = { host: "orca", id: t.assignee };
  if (TASK_SETTLED.has(t.status)) {
    b.state = "settled";
    b.status = t.status;
    b.status_from = "orca";
  } else if (TASK_OPEN.has(t.status)) {
    b.state = "open";
    b.status = t.status;
    b.status_from = "orca";
  }
  return false;
}

export interface Reconciled {
  /** Real worktree path -> every binding of it (ledger records, Orca-placed dispatches). */
  byPath: Map<string, Binding[]>;
  /** Bindings whose task Orca no longer has (by binding id). */
  gone: Set<string>;
  /** Gate-registered dispatches Orca could not place in a worktree (task gone, terminal no longer live). */
  unplaced: { binding: Binding; drift: Drift[] }[];
}

/** Rules 1-3 for the whole fleet: Orca's task status applied, gate-registered dispatches placed by their terminal. */
export function reconcileRecords(records: Records, tasks: TaskView, panes: PaneView): Reconciled {
  const gone = new Set<string>();
  const byPath = new Map<string, Binding[]>();
  for (const [k, bs] of records.byPath)
    byPath.set(
      k,
      bs.map((b) => ({ ...b })),
    );
  for (const bs of byPath.values()) for (const b of bs) if (applyTask(b, tasks.tasks)) gone.add(b.id);
  const orcaTerminals = new Map(panes.panes.filter((p) => p.host === "orca").map((p) => [p.id, p]));
  const unplaced: Reconciled["unplaced"] = [];
  for (const raw of records.unplaced) {
    const b = { ...raw };
    const isGone = applyTask(b, tasks.tasks);
    if (isGone) gone.add(b.id);
    // Placed through its assignee terminal's worktree (a live terminal: `terminal list` only lists live ones).
    const t = b.terminal ? orcaTerminals.get(b.terminal.id) : undefined;
    const wt = t?.dirs[0] ?? null;
    if (wt) pushBinding(byPath, wt, b);
    else unplaced.push({ binding: b, drift: isGone ? ["task_gone"] : [] });
  }
  return { byPath, gone, unplaced };
}

/** The binding that decides: an open one if any, else the last settled one, else orphaned (undefined). */
function decide(bs: readonly Binding[]): Binding | undefined {
  if (!bs.length) return undefined;
  return bs.find((b) => b.state === "open") ?? bs[bs.length - 1];
}

/**
 * Rule 4 and the drift of one worktree: its ledger/Orca bindings, the live panes inside it, whether processes work
 * inside it, and the pane view (drift about missing terminals only when every host answered).
 */
export function worktreeBinding(bindings: readonly Binding[], panesInside: readonly Pane[], processesInside: boolean, view: PaneView, gone: Set<string>): { bindings: Binding[]; binding: Binding | null; drift: Drift[] } {
  const all = [...bindings];
  const drift = new Set<Drift>();
  if (all.some((b) => gone.has(b.id))) drift.add("task_gone");
  if (all.length === 0 && panesInside.length > 0) {
    drift.add("unknown_terminal");
    for (const p of panesInside) all.push({ state: "open", source: p.host, id: p.id, status: "live", terminal: { host: p.host, id: p.id }, task: null, status_from: "ledger" });
  }
  const decisive = decide(all) ?? null;
  if (decisive && decisive.state === "open" && decisive.source !== "orca" && decisive.source !== "herdr" && view.failed.length === 0) {
    const rec = decisive.terminal;
    const live = rec ? panesInside.some((p) => p.host === rec.host && p.id === rec.id) : panesInside.length > 0;
    if (!live) drift.add("ledger_open_no_terminal");
  }
  if (decisive && decisive.state === "settled" && decisive.status_from === "orca" && processesInside) drift.add("orca_settled_process_running");
  return { bindings: all, binding: decisive, drift: [...drift].sort() };
}
