/** git through the Runner seam, always as `git -C <dir> ...` (DECISIONS D6): never dependent on the caller's CWD. */
import type { Ctx, Env } from "./context.ts";
import { DEFAULT_TIMEOUT_MS, describeFailure, ok, type RunResult } from "./runner.ts";

export interface GitResult extends RunResult {
  ok: boolean;
  /** One line saying what went wrong (empty when ok). */
  why: string;
}

/**
 * Variables that would point git at another repository than `-C <dir>` names (a caller inside a hook or another
 * git command may have them set): the checks must describe the worktree they were asked about.
 */
const REDIRECTING = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE"];

export function gitEnv(env: Env): Env {
  const out: Env = { ...env };
  for (const k of REDIRECTING) delete out[k];
  return out;
}

export async function git(ctx: Pick<Ctx, "runner" | "env">, dir: string, args: readonly string[], timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GitResult> {
  const r = await ctx.runner(["git", "-C", dir, ...args], { env: gitEnv(ctx.env), timeoutMs });
  const good = ok(r);
  return { ...r, ok: good, why: good ? "" : describeFailure(r, timeoutMs) };
}
