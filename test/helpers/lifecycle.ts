/** A Ctx for the lifecycle unit tests: captured streams, a stub runner, `orca` as the Orca executable. */
import type { Runner } from "../../src/lib/runner.ts";
import { unitCtx, type UnitCtx } from "./unit-ctx.ts";

export function lcCtx(runner: Runner, env: Record<string, string> = {}): UnitCtx {
  return unitCtx({ runner, env: { ORCA_CLI_COMMAND: "orca", ...env } });
}

export const LIST = ["orca", "terminal", "list", "--json"];
export const term = (handle: string, extra: Record<string, unknown> = {}) => ({ handle, worktreeId: "r::/w", connected: true, title: "t", ...extra });
export const listReply = (...terminals: unknown[]) => ({ stdout: { id: "x", ok: true, result: { terminals, totalCount: terminals.length, truncated: false }, _meta: {} } });
