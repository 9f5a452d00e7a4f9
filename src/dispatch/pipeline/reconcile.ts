/**
 * The Orca steps of `mogui dispatch` that may act, with D38's reconciliation: Orca can act and answer after the
 * caller's timeout, so a timeout is never read as "nothing happened". After one, Orca is asked what is there
 * (`task-list`, `terminal list`, `dispatch-show --task`): what exists is used (the pipeline goes on with it), what
 * does not is said, and what nobody could check is named with the command to look and to clean up.
 */
import { type OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { listWorktreeSelector } from "../../succession/master/sessions.ts";
import { dispatchInject, flagValue, taskCreate, terminalCreate } from "./orca-steps.ts";
import { DISPATCH_EXIT, type DispatchReport, type DispatchStep } from "./report.ts";
import { Stop, type DispatchRequest, type Say } from "./types.ts";

/** The stderr form of an error: one line (newlines escaped), at most 400 characters; the report keeps it whole. */
export function oneLine(text: string, max = 400): string {
  const flat = text.replace(/\r?\n/g, "\\n").replace(/[\u0000-\u001f\u007f]/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function why(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

const isTimeout = (e: unknown) => e instanceof OrcaError && e.failure === "timeout";

/** The run_required refusal (and a missing Run found up front) in one line that says how to bind one. */
const BIND_A_RUN = "bind one first: orca orchestration run-create --objective '<text>' (or run-use --id <run_id>), or pass --run-create";

/** Outside an Orca terminal Orca cannot tell who dispatches: every step would fail the same way (issue 26 §3). */
const NO_SENDER = "no sender terminal: ORCA_TERMINAL_HANDLE is not set · run mogui dispatch from the master's Orca terminal (Orca names the dispatching terminal from it)";

/** An Orca step that failed outright (no timeout): exit 3 with Orca's words on one line. */
function orcaFailed(step: DispatchStep, label: string, e: OrcaError, extra: string[] = []): Stop {
  const hint = e.orcaCode === "run_required" ? ` · no Orca Run is bound: ${BIND_A_RUN}` : e.orcaCode === "no_active_sender_terminal" || e.orcaCode === "stable_pane_required" ? " · run mogui dispatch from the master's Orca terminal" : "";
  return new Stop(step, DISPATCH_EXIT.ORCA, [`✗ ${label} failed · ${oneLine(e.message)}${hint}`, ...extra], { error: e.message });
}

async function step<T>(s: DispatchStep, label: string, fn: () => Promise<T>, extra: () => string[] = () => []): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof OrcaError) throw orcaFailed(s, label, e, extra());
    throw e;
  }
}

/** D38 precondition: a bound Run (`run-current`); none -> one line on how to bind one, or --run-create makes one.
 * Before it, the sender: without ORCA_TERMINAL_HANDLE no Run can be bound or read, so the hint names the terminal. */
export async function ensureRun(orca: OrcaClient, req: DispatchRequest, objective: string, say: Say, r: DispatchReport, sender: string | undefined): Promise<void> {
  if (!sender?.trim()) throw new Stop("run", DISPATCH_EXIT.REFUSED, [`✗ ${NO_SENDER}`]);
  let current: Record<string, unknown>;
  try {
    current = await orca.result(["orchestration", "run-current"]);
  } catch (e) {
    if (e instanceof OrcaError && e.orcaCode === "invalid_argument") {
      say(`WARNING: orca has no 'orchestration run-current' (${oneLine(e.message, 120)}): the bound Run is unchecked`);
      return;
    }
    if (e instanceof OrcaError) throw orcaFailed("run", "orchestration run-current", e);
    throw e;
  }
  const run = current.run as { id?: unknown } | null | undefined;
  if (run && typeof run.id === "string") {
    r.run_id = run.id;
    return;
  }
  if (!req.runCreate) throw new Stop("run", DISPATCH_EXIT.REFUSED, [`✗ no Orca Run is bound to this terminal · ${BIND_A_RUN}`]);
  const made = await step("run", "orchestration run-create", () => orca.result(["orchestration", "run-create", flagValue("objective", objective)]));
  const id = (made.run as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string") throw new Stop("run", DISPATCH_EXIT.ORCA, ["✗ orchestration run-create printed no run id"]);
  Object.assign(r, { run_id: id, run_created: true });
  say(`run ✓ created and bound ${id} · ${objective}`);
}

function reconciled(r: DispatchReport, say: Say, line: string): void {
  r.reconciled.push(line);
  say(`⚠ ${line}`);
}

/** task-create; after a timeout, the task Orca lists under our title (or a clear "nothing was created"). */
export async function createTask(orca: OrcaClient, spec: string, title: string, say: Say, r: DispatchReport): Promise<string> {
  try {
    return await taskCreate(orca, spec, title);
  } catch (e) {
    if (!(e instanceof OrcaError)) throw e;
    if (!isTimeout(e)) throw orcaFailed("task-create", "task-create", e);
    let tasks;
    try {
      tasks = await orca.taskList();
    } catch (e2) {
      const look = `a task titled '${title}' may exist; look with: orca orchestration task-list --json`;
      throw new Stop("task-create", DISPATCH_EXIT.ORCA, [`✗ task-create timed out · task-list failed too (${oneLine(why(e2), 200)}): ${look}`], { error: e.message });
    }
    const found = tasks.filter((t) => t.task_title === title).at(-1);
    if (!found) {
      r.reconciled.push(`task-create timed out; task-list shows no task titled '${title}'`);
      throw new Stop("task-create", DISPATCH_EXIT.ORCA, [`✗ task-create timed out · Orca's task-list shows no task titled '${title}': nothing was created`], { error: e.message });
    }
    reconciled(r, say, `task-create answered late; Orca lists ${found.id} titled '${title}': continuing with it`);
    return found.id;
  }
}

/** terminal create; after a timeout, the terminal Orca lists under our title in the worktree. */
export async function createTerminal(orca: OrcaClient, req: DispatchRequest, command: string, title: string, say: Say, r: DispatchReport): Promise<string> {
  const left = () => [`  left behind: task ${r.task_id} stays in Orca with no dispatch`];
  try {
    return await terminalCreate(orca, req.worktree, command, title);
  } catch (e) {
    if (!(e instanceof OrcaError)) throw e;
    if (!isTimeout(e)) throw orcaFailed("terminal", "terminal create", e, left());
    let terms;
    try {
      terms = await orca.terminalList(req.worktree ? listWorktreeSelector(req.worktree) : undefined);
    } catch (e2) {
      const look = `a terminal titled '${title}' may be running an agent; look with: orca terminal list --json`;
      throw new Stop("terminal", DISPATCH_EXIT.ORCA, [`✗ terminal create timed out · terminal list failed too (${oneLine(why(e2), 200)}): ${look}`, ...left()], { error: e.message });
    }
    const found = terms.filter((t) => t.title === title).at(-1);
    if (!found) {
      r.reconciled.push(`terminal create timed out; terminal list shows no terminal titled '${title}'`);
      throw new Stop("terminal", DISPATCH_EXIT.ORCA, [`✗ terminal create timed out · Orca's terminal list shows no terminal titled '${title}': none was created`, ...left()], { error: e.message });
    }
    reconciled(r, say, `terminal create answered late; Orca lists ${found.handle} titled '${title}': continuing with it`);
    return found.handle;
  }
}

/** What a dispatch that never happened leaves: the task, and the terminal when this run created it. */
function leftBehind(r: DispatchReport, handle: string): string[] {
  const lines = [`  left behind: task ${r.task_id} stays in Orca with no dispatch`];
  if (!r.terminal_reused) lines.push(`  left behind: terminal ${handle} (its agent got no task); close it with: orca terminal close --terminal ${handle}`);
  return lines;
}

/** dispatch --inject; after a timeout, the dispatch `dispatch-show --task` reports (the worker IS running). */
export async function injectDispatch(orca: OrcaClient, task: string, handle: string, say: Say, r: DispatchReport): Promise<string> {
  try {
    return await dispatchInject(orca, task, handle);
  } catch (e) {
    if (!(e instanceof OrcaError)) throw e;
    if (!isTimeout(e)) throw orcaFailed("dispatch", "dispatch", e, leftBehind(r, handle));
    let d;
    try {
      d = await orca.dispatchShow(task);
    } catch (e2) {
      throw new Stop(
        "dispatch",
        DISPATCH_EXIT.ORCA,
        [
          `✗ dispatch timed out · dispatch-show failed too (${oneLine(why(e2), 200)}): a worker may be running on ${handle} for ${task}, unregistered`,
          `  look: orca orchestration dispatch-show --task ${task} --json · once it settles, clean up: mogui worker-reap --task-id ${task}`,
        ],
        { error: e.message, workerMayRun: true },
      );
    }
    if (!d) {
      r.reconciled.push(`dispatch timed out; dispatch-show --task ${task} shows no dispatch`);
      throw new Stop("dispatch", DISPATCH_EXIT.ORCA, [`✗ dispatch timed out · Orca's dispatch-show shows no dispatch for ${task}: nothing was injected`, ...leftBehind(r, handle)], { error: e.message });
    }
    reconciled(r, say, `dispatch answered late; Orca shows ${d.id} [${d.status}] on ${d.terminal ?? handle}: the worker IS running, registering it`);
    return d.id;
  }
}
