/** Real temp git repos for tests: isolated from the user's config, local identity, `-b main`, a bare origin. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./paths.ts";

export const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "mogui test",
  GIT_AUTHOR_EMAIL: "test@mogui.invalid",
  GIT_COMMITTER_NAME: "mogui test",
  GIT_COMMITTER_EMAIL: "test@mogui.invalid",
  GIT_TERMINAL_PROMPT: "0",
};

export function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("GIT_")) env[k] = v;
  return { ...env, ...GIT_ENV };
}

export function sh(cwd: string, ...argv: string[]): string {
  const p = Bun.spawnSync(["git", ...argv], { cwd, env: gitEnv(), stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`git ${argv.join(" ")} (in ${cwd}) failed: ${p.stderr.toString()}`);
  return p.stdout.toString().trim();
}

export interface Fixture {
  dir: string;
  origin: string;
  repo: string;
}

/** A repo with one commit on main, pushed to a bare `origin`. */
export function makeRepo(root = tempDir("mogui-git-")): Fixture {
  const origin = join(root, "origin.git");
  const repo = join(root, "repo");
  mkdirSync(repo, { recursive: true });
  sh(root, "init", "-q", "--bare", "-b", "main", origin);
  sh(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "hello\n");
  sh(repo, "add", ".");
  sh(repo, "commit", "-q", "-m", "init");
  sh(repo, "remote", "add", "origin", origin);
  sh(repo, "push", "-q", "origin", "main");
  return { dir: root, origin, repo };
}

/** A linked worktree on a new branch with one commit of its own. */
export function addWorktree(f: Fixture, name: string, file = `${name}.txt`): string {
  const wt = join(f.dir, `wt-${name}`);
  sh(f.repo, "worktree", "add", "-q", "-b", name, wt, "main");
  writeFileSync(join(wt, file), `${name}\n`);
  sh(wt, "add", ".");
  sh(wt, "commit", "-q", "-m", `work on ${name}`);
  return wt;
}

/** Squash-merge a branch into main and push: origin/main gets the changes, not the commits. */
export function squashMerge(f: Fixture, branch: string): void {
  sh(f.repo, "merge", "-q", "--squash", branch);
  sh(f.repo, "commit", "-q", "-m", `squash ${branch}`);
  sh(f.repo, "push", "-q", "origin", "main");
  sh(f.repo, "fetch", "-q", "origin");
}

/** A regular merge commit into main, pushed. */
export function mergeBranch(f: Fixture, branch: string): void {
  sh(f.repo, "merge", "-q", "--no-ff", "-m", `merge ${branch}`, branch);
  sh(f.repo, "push", "-q", "origin", "main");
  sh(f.repo, "fetch", "-q", "origin");
}
