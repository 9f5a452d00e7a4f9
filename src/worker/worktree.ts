/**
 * Removing a worker's worktree goes through the reaper's safety rules (src/reap/worktree-safety.ts): only a clean
 * worktree whose branch is already in origin/main is removed; anything else is left with the reason.
 */
import type { Ctx } from "../lib/context.ts";
import { git } from "../git.ts";
import { worktreeSafety } from "../reap/worktree-safety.ts";

/** Returns what happened, as one phrase: `removed` or `left: <reason>`. */
export async function cleanupWorktree(ctx: Ctx, path: string): Promise<string> {
  const v = await worktreeSafety(ctx, path);
  if (!v.safe) return `left: ${v.reason}`;
  const r = await git(ctx, v.owner, ["worktree", "remove", path]);
  return r.ok ? "removed" : `left: git worktree remove failed: ${r.why}`;
}
