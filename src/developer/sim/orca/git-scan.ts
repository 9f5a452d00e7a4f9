/**
 * `repo add` of a git repository registers its worktrees the way Orca discovers them: from
 * `git -C <path> worktree list --porcelain`. The caller's env is passed through, so a test's fake git on PATH
 * and its isolated git config apply here too.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../../lib/context.ts";

export interface GitWorktree {
  path: string;
  head: string;
  branch: string;
  isBare: boolean;
}

export function isGitRepo(path: string): boolean {
  return existsSync(join(path, ".git"));
}

function parsePorcelain(text: string): GitWorktree[] {
  const out: GitWorktree[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const wt = lines.find((l) => l.startsWith("worktree "));
    if (!wt) continue;
    const head = lines.find((l) => l.startsWith("HEAD "))?.slice(5) ?? "";
    const branch = lines.find((l) => l.startsWith("branch "))?.slice(7) ?? "";
    out.push({ path: wt.slice(9), head, branch, isBare: lines.includes("bare") });
  }
  return out;
}

/** null when git is missing, times out or fails: the repo is then registered with its own path only. */
export function scanWorktrees(path: string, env: Env): GitWorktree[] | null {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const git = Bun.which("git", { PATH: clean.PATH ?? "" });
  if (!git) return null;
  try {
    const p = Bun.spawnSync([git, "-C", path, "worktree", "list", "--porcelain"], {
      env: clean,
      stdout: "pipe",
      stderr: "pipe",
      timeout: 10_000,
    });
    if (p.exitCode !== 0) return null;
    return parsePorcelain(p.stdout.toString());
  } catch {
    return null;
  }
}
