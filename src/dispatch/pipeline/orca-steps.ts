/**
 * The Orca calls of `mogui dispatch` (reference §4.4 steps 5-7 and 12), each reply checked with valibot. Failures
 * are OrcaError (from the client) or a parse OrcaError here; the pipeline maps them to exit 3.
 */
import * as v from "valibot";
import { type OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { deliveryResult, paneClassifyText, type DeliveryClass, type PaneClass } from "./pane.ts";

const TaskCreated = v.looseObject({ task: v.looseObject({ id: v.pipe(v.string(), v.minLength(1)) }) });
const TerminalCreated = v.looseObject({ terminal: v.looseObject({ handle: v.pipe(v.string(), v.minLength(1)) }) });
const Dispatched = v.looseObject({ dispatch: v.looseObject({ id: v.pipe(v.string(), v.minLength(1)) }) });
const TerminalRead = v.looseObject({ terminal: v.looseObject({ tail: v.array(v.string()) }) });

const TUI_IDLE_TIMEOUT_MS = 60_000;
const READ_LIMIT = 40;
const DELIVERY_POLLS = 6;
const DELIVERY_INTERVAL_MS = 5_000;

function pick<T extends v.GenericSchema>(schema: T, value: unknown, what: string): v.InferOutput<T> {
  const r = v.safeParse(schema, value);
  if (!r.success) throw new OrcaError("parse", `orca ${what}: unexpected JSON: ${v.summarize(r.issues).replace(/\n/g, "; ")}`);
  return r.output;
}

/**
 * D38: real Orca reads any `--token` as a flag, so a value that could start with `-` (a spec with front matter, a
 * title, a selector) goes as ONE `--flag=value` argument; `--flag=value` is the only way Orca takes such a value.
 */
export function flagValue(name: string, value: string): string {
  return `--${name}=${value}`;
}

/** The title makes the task findable in `task-list` when task-create answers too late (reconcile.ts). */
export async function taskCreate(orca: OrcaClient, spec: string, title: string): Promise<string> {
  const args = ["orchestration", "task-create", flagValue("spec", spec), flagValue("task-title", title)];
  return pick(TaskCreated, await orca.result(args), "orchestration task-create").task.id;
}

/** The title makes the terminal findable in `terminal list` when terminal create answers too late. */
export async function terminalCreate(orca: OrcaClient, worktree: string | undefined, command: string, title: string): Promise<string> {
  const args = ["terminal", "create", ...(worktree ? [flagValue("worktree", worktree)] : []), flagValue("title", title), flagValue("command", command)];
  return pick(TerminalCreated, await orca.result(args), "terminal create").terminal.handle;
}

/**
 * Wait for the new agent's TUI to settle. Not fatal: a blocked or slow pane shows up in the delivery class. The
 * client's terminalWait reads Orca's `satisfied:false` envelope (exit 1) as a result, so a blocked pane is named.
 */
export async function waitTuiIdle(orca: OrcaClient, handle: string): Promise<string | null> {
  try {
    const w = await orca.terminalWait(handle, "tui-idle", TUI_IDLE_TIMEOUT_MS);
    return w.satisfied ? null : `not idle${w.blockedReason ? ` (${w.blockedReason})` : ""}`;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export async function dispatchInject(orca: OrcaClient, task: string, handle: string): Promise<string> {
  const args = ["orchestration", "dispatch", flagValue("task", task), flagValue("to", handle), "--inject"];
  return pick(Dispatched, await orca.result(args), "orchestration dispatch").dispatch.id;
}

/** The pane's class from its last lines; a read that fails is `unknown` (never proof of delivery). */
export async function paneClass(orca: OrcaClient, handle: string): Promise<PaneClass> {
  try {
    const tail = pick(TerminalRead, await orca.result(["terminal", "read", "--terminal", handle, "--limit", String(READ_LIMIT)]), "terminal read").terminal.tail;
    return paneClassifyText(tail.join("\n"));
  } catch {
    return "unknown";
  }
}

export interface Delivery {
  pre: PaneClass;
  post: PaneClass;
  result: DeliveryClass;
  polls: number;
}

/**
 * Up to `polls` reads, `intervalMs` apart (each read after a pause, so the agent has time to react to the
 * inject), stopping as soon as the pane is no longer a bare prompt.
 */
export async function classifyDelivery(orca: OrcaClient, handle: string, pre: PaneClass, opts: { polls?: number; intervalMs?: number; sleep?: (ms: number) => Promise<void> } = {}): Promise<Delivery> {
  const polls = opts.polls ?? DELIVERY_POLLS;
  const interval = opts.intervalMs ?? DELIVERY_INTERVAL_MS;
  const sleep = opts.sleep ?? ((ms: number) => Bun.sleep(ms));
  let post: PaneClass = "unknown";
  let n = 0;
  while (n < polls) {
    await sleep(interval);
    post = await paneClass(orca, handle);
    n++;
    if (post !== "prepared-prompt") break;
  }
  return { pre, post, result: deliveryResult(pre, post), polls: n };
}
