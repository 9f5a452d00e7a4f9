/**
 * May this worktree be removed? Only when it is clean AND everything on its branch is already in origin/main
 * (by ancestry, or by tree equality after a squash merge). Every failure, ambiguity or exception answers
 * "leave, because ..."; a wrong removal destroys work, a skipped one costs a manual cleanup.
 */
import { existsSync, realpathSync } from "node:fs";
import type { Ctx } from "../lib/context.ts";
import { errorMessage } from "../lib/errors.ts";
import { git } from "../git.ts";

export type SafetyVerdict =
  | { safe: true; reason: string; owner: string }
  | { safe: false; reason: string };

type GitCtx = Pick<Ctx, "runner" | "env">;

interface WorktreeEntry {
  path: string;
  bare: boolean;
  locked: string | null;
}

function parseWorktreeList(text: string): WorktreeEntry[] {
  const out: WorktreeEntry[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split("\n").filter(Boolean);
    const head = lines.find((l) => l.startsWith("worktree "));
    if (!head) continue;
    const lockLine = lines.find((l) => l === "locked" || l.startsWith("locked "));
    out.push({
      path: head.slice("worktree ".length),
      bare: lines.includes("bare"),
      locked: lockLine === undefined ? null : lockLine.slice("locked".length).trim() || "no reason given",
    });
  }
  return out;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The seed's check order: path, status (incl. untracked), branch, --merged, squash tree equality. */
async function check(ctx: GitCtx, path: string, timeoutMs: number): Promise<SafetyVerdict> {
  if (!existsSync(path)) return { safe: false, reason: "Worktree path does not exist" };
  // Explicit -u: a repository's `status.showUntrackedFiles=no` would otherwise hide untracked files, and
  // `git worktree remove` then deletes them without a word.
  const st = await git(ctx, path, ["status", "--porcelain", "--untracked-files=normal"], timeoutMs);
  if (!st.ok) return { safe: false, reason: `Not a git repo or git error: ${st.why}` };
  if (st.stdout.trim() !== "") return { safe: false, reason: "Worktree has uncommitted changes" };
  const br = await git(ctx, path, ["branch", "--show-current"], timeoutMs);
  if (!br.ok) return { safe: false, reason: `Could not get current branch: ${br.why}` };
  const branch = br.stdout.trim();
  if (!branch) return { safe: false, reason: "Could not get current branch: detached HEAD" };

  // Which repository owns this worktree, and is this path a linked worktree of it (never its main one)?
  const wl = await git(ctx, path, ["worktree", "list", "--porcelain"], timeoutMs);
  if (!wl.ok) return { safe: false, reason: `Could not list worktrees: ${wl.why}` };
  const entries = parseWorktreeList(wl.stdout);
  const owner = entries[0];
  const me = entries.find((e) => real(e.path) === real(path));
  if (!owner || !me) return { safe: false, reason: "Path is not a worktree of its repository" };
  if (me === owner) return { safe: false, reason: "Path is the main worktree of its repository" };
  if (me.locked) return { safe: false, reason: `Worktree is locked: ${me.locked}` };

  const merged = await git(ctx, path, ["branch", "-a", "--merged", "origin/main"], timeoutMs);
  if (!merged.ok) return { safe: false, reason: `Could not compare with origin/main: ${merged.why}` };
  const names = merged.stdout.split("\n").map((l) => l.trim().replace(/^[*+] /, ""));
  if (names.includes(branch)) return { safe: true, reason: "branch is merged into origin/main", owner: owner.path };

  const mainTree = await git(ctx, path, ["rev-parse", "origin/main^{tree}"], timeoutMs);
  if (!mainTree.ok) return { safe: false, reason: `Could not read origin/main tree: ${mainTree.why}` };
  const mergedTree = await git(ctx, path, ["merge-tree", "--write-tree", "origin/main", "HEAD"], timeoutMs);
  const notIncluded = `Current branch ${branch} is not merged to origin/main (branch changes are not included in origin/main)`;
  // merge-tree exits 1 on conflicts: the branch then certainly holds changes origin/main lacks.
  if (!mergedTree.ok) return { safe: false, reason: mergedTree.code === 1 ? notIncluded : `Could not merge-tree: ${mergedTree.why}` };
  const a = mainTree.stdout.trim();
  const b = (mergedTree.stdout.split("\n")[0] ?? "").trim();
  if (a && a === b) return { safe: true, reason: "branch changes are already included in origin/main", owner: owner.path };
  return { safe: false, reason: notIncluded };
}

export async function worktreeSafety(ctx: GitCtx, path: string, timeoutMs?: number): Promise<SafetyVerdict> {
  try {
    return await check(ctx, path, timeoutMs ?? 30_000);
  } catch (e) {
    return { safe: false, reason: `Check failed: ${errorMessage(e)}` };
  }
}
