/** Finding the terminal a command is about: `--terminal <handle>`, else the caller's own ORCA_TERMINAL_HANDLE. */
import { optString } from "./argv.ts";
import type { Call } from "./call.ts";
import { SimError, terminalNotFound } from "./errors.ts";
import type { SimState, SimTerminal } from "./types.ts";

export function terminalArg(call: Call): string {
  const h = optString(call.flags, "terminal") ?? call.ctx.env.ORCA_TERMINAL_HANDLE;
  if (h) return h;
  throw new SimError("no_active_terminal", "No active terminal in the current worktree. Pass --terminal <handle>.", {
    nextSteps: ["Run 'orca terminal list --json' and pass --terminal <handle>."],
  });
}

export function findTerminal(s: SimState, handle: string): SimTerminal {
  const t = s.terminals.find((x) => x.handle === handle);
  if (t) return t;
  if (s.staleHandles.includes(handle)) {
    throw new SimError("terminal_handle_stale", `Terminal handle ${handle} is stale: the terminal was reminted.`, {
      handle,
      nextSteps: ["Run 'orca terminal list --json' to see live terminal handles."],
    });
  }
  throw terminalNotFound(handle);
}

/** What killing the pane's pty does to the processes on it (a scenario's `pids`); already-gone pids are fine. */
export function killPtyProcesses(t: SimTerminal): void {
  for (const pid of t.pids ?? []) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already (or never ours): the pty kill has nothing left to do.
    }
  }
}

const AGENTS = ["claude", "codex", "opencode", "gemini", "droid", "grok", "cursor-agent"];

/** The sim's stand-in for agent detection: the first word of `--command`. */
export function detectAgent(command: string | undefined): string | null {
  const word = command?.trim().split(/\s+/)[0]?.split("/").at(-1);
  return word && AGENTS.includes(word) ? word : null;
}
