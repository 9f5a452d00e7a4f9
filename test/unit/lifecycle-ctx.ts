/** A Ctx for the lifecycle unit tests: captured streams, a stub runner, `orca` as the Orca executable. */
import type { Ctx } from "../../src/lib/context.ts";
import type { Runner } from "../../src/lib/runner.ts";

export function lcCtx(runner: Runner, env: Record<string, string> = {}): Ctx & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), stdoutIsTTY: false, stderrIsTTY: false },
    env: { ORCA_CLI_COMMAND: "orca", ...env },
    cwd: "/tmp",
    runner,
    now: () => 0,
    debug: false,
    self: [],
    out,
    err,
  };
}

export const LIST = ["orca", "terminal", "list", "--json"];
export const term = (handle: string, extra: Record<string, unknown> = {}) => ({ handle, worktreeId: "r::/w", connected: true, title: "t", ...extra });
export const listReply = (...terminals: unknown[]) => ({ stdout: { id: "x", ok: true, result: { terminals, totalCount: terminals.length, truncated: false }, _meta: {} } });
