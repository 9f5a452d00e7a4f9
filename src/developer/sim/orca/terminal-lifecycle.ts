/**
 * `terminal wait` and `terminal close` (docs/orca-cli.md §5), including the `survive_close` and `close_noop` faults.
 * `--for tui-idle` reads the terminal's simulated agent status: `idle` is satisfied at once, a blockedReason is
 * `satisfied:false` (exit 1), `working` waits for idle until the deadline, then the RPC error `timeout`.
 */
import { optBool, optInt, optString } from "./argv.ts";
import type { Call, CommandTable } from "./call.ts";
import { invalidArgument, SimError } from "./errors.ts";
import type { Outcome } from "./output.ts";
import { terminalStatus } from "./rows.ts";
import { resolveWorktree } from "./selectors.ts";
import { findTerminal, killPtyProcesses, terminalArg } from "./terminal-common.ts";
import type { AgentStatus, SimTerminal } from "./types.ts";

/** The real client's default RPC deadline without --timeout-ms is 5 minutes. */
const DEFAULT_WAIT_MS = 5 * 60_000;
const POLL_MS = 50;

function waitOutcome(handle: string, condition: string, t: SimTerminal | undefined, reading: AgentStatus | undefined): Outcome | undefined {
  const exited = !t?.alive;
  if (!exited && condition === "exit") return undefined;
  const agent = reading ?? t?.agentStatus ?? "idle";
  if (!exited && agent === "working") return undefined;
  const blockedReason = !exited && agent !== "idle" ? { blockedReason: agent } : {};
  const satisfied = condition === "exit" ? exited : !exited && agent === "idle";
  const wait = { handle, condition, satisfied, status: t ? terminalStatus(t) : "exited", exitCode: t?.exitCode ?? null, ...blockedReason };
  const text = Object.entries(wait)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  return { result: { wait }, text, exit: satisfied ? 0 : 1 };
}

/** A flapping agent: this wait's reading is the next step of the terminal's cycle (undefined = no cycle). */
function takeReading(call: Call, handle: string): AgentStatus | undefined {
  if (!call.store.read().terminals.find((t) => t.handle === handle)?.agentStatusCycle) return undefined;
  return call.store.tx((s) => {
    const t = findTerminal(s, handle);
    const cycle = t.agentStatusCycle;
    if (!cycle?.length) return undefined;
    const i = (t.agentStatusStep ?? 0) % cycle.length;
    t.agentStatusStep = (i + 1) % cycle.length;
    return cycle[i];
  });
}

async function wait(call: Call): Promise<Outcome> {
  const condition = optString(call.flags, "for");
  if (condition !== "exit" && condition !== "tui-idle") throw invalidArgument("--for must be one of: exit, tui-idle");
  const handle = terminalArg(call);
  findTerminal(call.store.read(), handle);
  const reading = condition === "tui-idle" ? takeReading(call, handle) : undefined;
  // Wall-clock deadline on purpose: ctx.now may be a frozen test clock.
  const deadline = Date.now() + (optInt(call.flags, "timeout-ms") ?? DEFAULT_WAIT_MS);
  for (;;) {
    // A terminal closed while we wait has exited.
    const done = waitOutcome(
      handle,
      condition,
      call.store.read().terminals.find((t) => t.handle === handle),
      reading,
    );
    if (done) return done;
    if (Date.now() >= deadline) throw new SimError("timeout", "timeout");
    await Bun.sleep(POLL_MS);
  }
}

function closeAll(call: Call, sel: string): Outcome {
  const gone = call.store.tx((s) => {
    const ws = resolveWorktree(s, sel, call.cwd);
    const mine = s.terminals.filter((t) => t.worktreeId === ws.id);
    s.terminals = s.terminals.filter((t) => t.worktreeId !== ws.id);
    return mine;
  });
  for (const t of gone) killPtyProcesses(t);
  const n = gone.length;
  return { result: { closed: n, stopped: n }, text: `Closed ${n} terminal(s).` };
}

function close(call: Call): Outcome {
  const sel = optString(call.flags, "worktree");
  const all = optBool(call.flags, "all");
  if (sel !== undefined && !all) throw invalidArgument("--worktree requires --all (close every terminal of a worktree).");
  if (all && sel === undefined) throw invalidArgument("--all requires --worktree <selector>.");
  if (sel !== undefined) return closeAll(call, sel);
  const handle = terminalArg(call);
  const tab = optBool(call.flags, "tab") ? { closeMode: "tab" } : {};
  const mode = call.fault?.mode;
  const kept = mode === "survive_close" || mode === "close_noop";
  const t = call.store.tx((s) => {
    const term = findTerminal(s, handle);
    if (!kept) s.terminals = s.terminals.filter((x) => x !== term);
    return term;
  });
  if (mode === "survive_close") {
    const data = { close: { handle, tabId: t.tabId, ...tab, ptyKilled: false, ptyStopVerdict: "live", ptyStopReason: "process still running after SIGKILL" } };
    throw new SimError("terminal_stop_live", `Terminal ${handle} was closed but its process is still running.`, data);
  }
  // close_noop: the reply claims success, but the pane and its processes stay (what a caller must not trust blindly).
  if (!kept) killPtyProcesses(t);
  return { result: { close: { handle, tabId: t.tabId, ...tab, ptyKilled: true } }, text: `Closed terminal ${handle}. PTY killed.` };
}

export const TERMINAL_LIFECYCLE_COMMANDS: CommandTable = {
  "terminal wait": { flags: ["terminal", "for", "timeout-ms"], usage: "orca terminal wait [--terminal <handle>] --for exit|tui-idle [--timeout-ms <ms>] [--json]", run: wait },
  "terminal close": {
    flags: ["terminal", "tab", "worktree", "all", "host"],
    usage: "orca terminal close ([--terminal <handle>] [--tab] | --worktree <selector> --all) [--json]",
    run: close,
  },
};
