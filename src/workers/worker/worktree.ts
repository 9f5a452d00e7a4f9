/**
 * Removing a worker's worktree goes through the reaper's safety rules (src/reap/worktree-safety.ts): only a clean
 * worktree whose branch is already in origin/main is removed; anything else is left with the reason.
 */
import type { Ctx } from "../../lib/context.ts";
import { git } from "../../lib/git.ts";
import { real, worktreeSafety } from "../reap/worktree-safety.ts";

/** Returns what happened, as one phrase: `removed` or `left: <reason>`. */
export async function cleanupWorktree(ctx: Ctx, path: string): Promise<string> {
  const v = await worktreeSafety(ctx, path);
  if (!v.safe) return `left: ${v.reason}`;
  const r = await git(ctx, v.owner, ["worktree", "remove", real(path)]);
  return r.ok ? "removed" : `left: git worktree remove failed: ${r.why}`;
}

/**
 * After a failed spawn: the job's branch was created at `baseSha` and holds no work yet, so it goes with the
 * worktree (a retry within the same minute makes the same job id and the same branch). A branch that moved is kept.
 */
export async function dropUnusedBranch(ctx: Ctx, repo: string, branch: string, baseSha: string): Promise<boolean> {
  const at = await git(ctx, repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
  if (!at.ok || at.stdout.trim() !== baseSha) return false;
  return (await git(ctx, repo, ["branch", "-D", branch])).ok;
}
