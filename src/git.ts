/** git through the Runner seam, always as `git -C <dir> ...` (DECISIONS D6): never dependent on the caller's CWD. */
import type { Ctx } from "./lib/context.ts";
import { DEFAULT_TIMEOUT_MS, describeFailure, ok, type RunResult } from "./lib/runner.ts";

export interface GitResult extends RunResult {
  ok: boolean;
  /** One line saying what went wrong (empty when ok). */
  why: string;
}

export async function git(ctx: Pick<Ctx, "runner" | "env">, dir: string, args: readonly string[], timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GitResult> {
  const r = await ctx.runner(["git", "-C", dir, ...args], { env: ctx.env, timeoutMs });
  const good = ok(r);
  return { ...r, ok: good, why: good ? "" : describeFailure(r, timeoutMs) };
}
