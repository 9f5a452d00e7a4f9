/**
 * worktreeSafety against REAL temp git repos (a bare origin, linked worktrees), and the full `reap` on the same
 * states: the verdict must be right AND the directory must still exist (left) or be gone (removed) on disk.
 * Git faults come from fixtures/bin/git (FAKE_GIT_FAIL / FAKE_GIT_HANG) first on PATH.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Ctx } from "../../../src/lib/context.ts";
import { realRunner, type Runner } from "../../../src/lib/runner.ts";
import { reap } from "../../../src/workers/reap/worker-reap.ts";
import { worktreeSafety, type SafetyVerdict } from "../../../src/workers/reap/worktree-safety.ts";
import { addWorktree, gitEnv, makeRepo, mergeBranch, sh, squashMerge, type Fixture } from "../../helpers/git.ts";
import { FIXTURES_BIN, tempDir } from "../../helpers/paths.ts";

const NOT_MERGED = (b: string) => `Current branch ${b} is not merged to origin/main (branch changes are not included in origin/main)`;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ...gitEnv(), ...extra };
}

/** fixtures/bin first on PATH: the pass-through git that injects failures. */
function faultEnv(extra: Record<string, string>): Record<string, string> {
  const e = gitEnv();
  return { ...e, PATH: `${FIXTURES_BIN}:${e.PATH ?? "/usr/bin:/bin"}`, ...extra };
}

function gitCtx(e = env()): Pick<Ctx, "runner" | "env"> {
  return { runner: realRunner, env: e };
}

/**
 * A full Ctx whose `orca` answers one settled legacy dispatch without a terminal, and whose git is real: a
 * `reap` with `worktree` set then exercises exactly safety + removal. Every runner call is recorded.
 */
function reapCtx(e = env()): { ctx: Ctx; calls: string[][] } {
  const calls: string[][] = [];
  const runner: Runner = async (argv, opts) => {
    calls.push([...argv]);
    if (argv[0] === "orca") {
      const stdout = JSON.stringify({ dispatch_id: "ctx_000000000001", task_id: "task_000000000001", terminal_id: null, status: "COMPLETED" });
      return { argv: [...argv], code: 0, signal: null, stdout, stderr: "", timedOut: false, missing: false };
    }
    return realRunner(argv, opts);
  };
  const ctx: Ctx = {
    io: { stdout: () => {}, stderr: () => {}, stdoutIsTTY: false, stderrIsTTY: false },
    env: { ...e, ORCA_CLI_COMMAND: "orca" },
    cwd: f.dir, // not the repo: removal must not depend on the caller's CWD
    runner,
    now: () => 1_722_787_200_000,
    debug: false,
    self: [],
  };
  return { ctx, calls };
}

async function fullReap(path: string, e = env(), gitTimeoutMs?: number) {
  const { ctx, calls } = reapCtx(e);
  const out = await reap(ctx, { taskId: "task_000000000001", worktree: path, execute: true, gitTimeoutMs });
  return { record: out.record, calls };
}

function left(v: SafetyVerdict): string {
  expect(v.safe).toBe(false);
  return v.reason;
}

let f: Fixture;
const dirs: string[] = [];

beforeAll(() => {
  f = makeRepo();
  dirs.push(f.dir);
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("removable worktrees", () => {
  test("clean and merged (merge commit): safe, then removed from the owning repo", async () => {
    const wt = addWorktree(f, "merged");
    mergeBranch(f, "merged");
    const v = await worktreeSafety(gitCtx(), wt);
    expect(v).toEqual({ safe: true, reason: "branch is merged into origin/main", owner: f.repo, real: wt });
    const { record, calls } = await fullReap(wt);
    expect(record.actions_taken).toBe(`worktree_removed:${wt}`);
    expect(existsSync(wt)).toBe(false);
    // Removal runs from the owning repository's main worktree, never from the caller's CWD.
    expect(calls.filter((c) => c.includes("remove"))).toEqual([["git", "-C", f.repo, "worktree", "remove", wt]]);
    expect(sh(f.repo, "worktree", "list", "--porcelain")).not.toContain(wt);
  });

  test("clean and squash-merged: safe through tree equality, then removed", async () => {
    const wt = addWorktree(f, "squashed");
    squashMerge(f, "squashed");
    // Not an ancestor of origin/main: only the squash detection can prove it.
    expect(sh(wt, "branch", "-a", "--merged", "origin/main")).not.toContain("squashed");
    const v = await worktreeSafety(gitCtx(), wt);
    expect(v).toEqual({ safe: true, reason: "branch changes are already included in origin/main", owner: f.repo, real: wt });
    const { record } = await fullReap(wt);
    expect(record.actions_taken).toBe(`worktree_removed:${wt}`);
    expect(existsSync(wt)).toBe(false);
  });

  test("a branch with no commits of its own (fork point on main) is merged", async () => {
    const wt = join(f.dir, "wt-empty");
    sh(f.repo, "worktree", "add", "-q", "-b", "empty", wt, "origin/main");
    expect(await worktreeSafety(gitCtx(), wt)).toMatchObject({ safe: true });
  });

  test("a dry run plans the removal but leaves the directory", async () => {
    const wt = addWorktree(f, "dry");
    mergeBranch(f, "dry");
    const { ctx } = reapCtx();
    const out = await reap(ctx, { taskId: "task_000000000001", worktree: wt, execute: false });
    expect(out.record.actions_taken).toBe(`worktree_removed:${wt}`);
    expect(existsSync(wt)).toBe(true);
  });
});

describe("worktrees that hold work are left", () => {
  async function expectLeft(wt: string, reason: string, e = env(), timeoutMs?: number) {
    expect(left(await worktreeSafety(gitCtx(e), wt, timeoutMs))).toBe(reason);
    const { record, calls } = await fullReap(wt, e, timeoutMs);
    expect(record.actions_taken.startsWith(`worktree_left:${wt}:`)).toBe(true);
    expect(calls.some((c) => c.includes("remove"))).toBe(false);
    return record.actions_taken;
  }

  test("dirty: a modified tracked file (even on a merged branch)", async () => {
    const wt = addWorktree(f, "dirty");
    mergeBranch(f, "dirty");
    writeFileSync(join(wt, "dirty.txt"), "changed\n");
    await expectLeft(wt, "Worktree has uncommitted changes");
    expect(existsSync(join(wt, "dirty.txt"))).toBe(true);
  });

  test("a caller's GIT_DIR/GIT_WORK_TREE cannot redirect the checks to another (clean, merged) repository", async () => {
    const wt = addWorktree(f, "redirected");
    writeFileSync(join(wt, "wip.txt"), "unsaved\n");
    const other = addWorktree(f, "decoy");
    mergeBranch(f, "decoy");
    const e = env({ GIT_DIR: join(f.repo, ".git", "worktrees", "wt-decoy"), GIT_WORK_TREE: other });
    await expectLeft(wt, "Worktree has uncommitted changes", e);
    expect(existsSync(join(wt, "wip.txt"))).toBe(true);
  });

  test("an untracked file counts as uncommitted", async () => {
    const wt = addWorktree(f, "untracked");
    mergeBranch(f, "untracked");
    writeFileSync(join(wt, "notes.md"), "only here\n");
    await expectLeft(wt, "Worktree has uncommitted changes");
    expect(existsSync(join(wt, "notes.md"))).toBe(true);
  });

  test("untracked files are seen even when the repo sets status.showUntrackedFiles=no", async () => {
    // With that setting plain `git status --porcelain` prints nothing, and `git worktree remove` deletes the file.
    const g = makeRepo();
    dirs.push(g.dir);
    sh(g.repo, "config", "status.showUntrackedFiles", "no");
    const wt = addWorktree(g, "hidden");
    mergeBranch(g, "hidden");
    writeFileSync(join(wt, "only-copy.md"), "the only copy\n");
    expect(sh(wt, "status", "--porcelain")).toBe("");
    await expectLeft(wt, "Worktree has uncommitted changes");
    expect(existsSync(join(wt, "only-copy.md"))).toBe(true);
  });

  test("a staged-only change counts as uncommitted", async () => {
    const wt = addWorktree(f, "staged");
    mergeBranch(f, "staged");
    writeFileSync(join(wt, "staged.txt"), "in the index only\n");
    sh(wt, "add", "staged.txt");
    await expectLeft(wt, "Worktree has uncommitted changes");
  });

  test("an unmerged commit", async () => {
    const wt = addWorktree(f, "unmerged");
    await expectLeft(wt, NOT_MERGED("unmerged"));
    expect(existsSync(join(wt, "unmerged.txt"))).toBe(true);
  });

  test("squash-merged, then one more commit on the branch", async () => {
    const wt = addWorktree(f, "squashplus");
    squashMerge(f, "squashplus");
    writeFileSync(join(wt, "more.txt"), "after the squash\n");
    sh(wt, "add", ".");
    sh(wt, "commit", "-q", "-m", "more");
    await expectLeft(wt, NOT_MERGED("squashplus"));
  });

  test("squash-merged, then reverted on main: the change is no longer in origin/main", async () => {
    const wt = addWorktree(f, "reverted");
    squashMerge(f, "reverted");
    sh(f.repo, "revert", "--no-edit", "HEAD");
    sh(f.repo, "push", "-q", "origin", "main");
    await expectLeft(wt, NOT_MERGED("reverted"));
  });

  test("a merge-tree conflict (main changed the same line differently) is not merged", async () => {
    const wt = addWorktree(f, "conflict", "README.md");
    writeFileSync(join(f.repo, "README.md"), "main's own line\n");
    sh(f.repo, "commit", "-q", "-am", "main edits README");
    sh(f.repo, "push", "-q", "origin", "main");
    await expectLeft(wt, NOT_MERGED("conflict"));
    sh(f.repo, "reset", "-q", "--hard", "HEAD~1");
    sh(f.repo, "push", "-q", "-f", "origin", "main");
  });

  test("detached HEAD (even at a merged commit)", async () => {
    const wt = addWorktree(f, "detached");
    mergeBranch(f, "detached");
    sh(wt, "checkout", "-q", "--detach");
    await expectLeft(wt, "Could not get current branch: detached HEAD");
  });

  test("missing path", async () => {
    const gone = join(f.dir, "never-existed");
    await expectLeft(gone, "Worktree path does not exist");
  });

  test("a worktree deleted from disk (prunable) is reported missing", async () => {
    const wt = addWorktree(f, "deleted");
    mergeBranch(f, "deleted");
    rmSync(wt, { recursive: true, force: true });
    await expectLeft(wt, "Worktree path does not exist");
  });

  test("locked worktree: left with the lock reason", async () => {
    const wt = addWorktree(f, "locked");
    mergeBranch(f, "locked");
    sh(f.repo, "worktree", "lock", "--reason", "agent still attached", wt);
    await expectLeft(wt, "Worktree is locked: agent still attached");
    expect(existsSync(wt)).toBe(true);
  });

  test("locked without a reason", async () => {
    const wt = addWorktree(f, "lockednr");
    mergeBranch(f, "lockednr");
    sh(f.repo, "worktree", "lock", wt);
    await expectLeft(wt, "Worktree is locked: no reason given");
  });

  test("the main worktree is never removed", async () => {
    await expectLeft(f.repo, "Path is the main worktree of its repository");
    expect(existsSync(join(f.repo, ".git"))).toBe(true);
  });

  test("a subdirectory of a worktree is not a worktree", async () => {
    const wt = addWorktree(f, "subdir");
    mergeBranch(f, "subdir");
    const sub = join(wt, "inner");
    mkdirSync(sub);
    await expectLeft(sub, "Path is not a worktree of its repository");
  });

  test("a directory that is not a git repository", async () => {
    const plain = tempDir("mogui-plain-");
    dirs.push(plain);
    const e = env({ GIT_CEILING_DIRECTORIES: dirname(plain) }); // even if the temp dir sits inside some repo
    const reason = left(await worktreeSafety(gitCtx(e), plain));
    expect(reason).toMatch(/^Could not list worktrees: git: exit 128: fatal: not a git repository/);
    await expectLeft(plain, reason, e);
    expect(existsSync(plain)).toBe(true);
  });

  test("a repository without origin/main is left", async () => {
    const root = tempDir("mogui-noorigin-");
    dirs.push(root);
    const repo = join(root, "repo");
    mkdirSync(repo);
    sh(repo, "init", "-q", "-b", "main");
    writeFileSync(join(repo, "a"), "a\n");
    sh(repo, "add", ".");
    sh(repo, "commit", "-q", "-m", "a");
    const wt = join(root, "wt");
    sh(repo, "worktree", "add", "-q", "-b", "x", wt);
    const reason = left(await worktreeSafety(gitCtx(), wt));
    expect(reason.startsWith("Could not compare with origin/main: ")).toBe(true);
    await fullReap(wt);
    expect(existsSync(wt)).toBe(true);
  });
});

describe("git failing mid-check (fixtures/bin/git)", () => {
  test("FAKE_GIT_FAIL=merge-tree on a squash-merged worktree: left, never removed", async () => {
    const wt = addWorktree(f, "failmt");
    squashMerge(f, "failmt");
    const e = faultEnv({ FAKE_GIT_FAIL: "merge-tree" });
    const reason = left(await worktreeSafety(gitCtx(e), wt));
    expect(reason).toBe("Could not merge-tree: git: exit 128: fatal: injected failure (merge-tree)");
    const { record } = await fullReap(wt, e);
    expect(record.actions_taken).toBe(`worktree_left:${wt}:${reason}`);
    expect(existsSync(wt)).toBe(true);
    // Without the fault the same worktree is safe: the fault alone made the difference.
    expect(await worktreeSafety(gitCtx(), wt)).toMatchObject({ safe: true });
  });

  test("merge-tree failing with exit 1 is read as a conflict: not merged", async () => {
    const wt = addWorktree(f, "failmt1");
    squashMerge(f, "failmt1");
    const e = faultEnv({ FAKE_GIT_FAIL: "merge-tree", FAKE_GIT_FAIL_CODE: "1" });
    expect(left(await worktreeSafety(gitCtx(e), wt))).toBe(NOT_MERGED("failmt1"));
    await fullReap(wt, e);
    expect(existsSync(wt)).toBe(true);
  });

  test("FAKE_GIT_FAIL=status", async () => {
    const wt = addWorktree(f, "failst");
    mergeBranch(f, "failst");
    const e = faultEnv({ FAKE_GIT_FAIL: "status" });
    const reason = left(await worktreeSafety(gitCtx(e), wt));
    expect(reason).toBe("Not a git repo or git error: git: exit 128: fatal: injected failure (status)");
    await fullReap(wt, e);
    expect(existsSync(wt)).toBe(true);
  });

  test("FAKE_GIT_FAIL=branch", async () => {
    const wt = addWorktree(f, "failbr");
    mergeBranch(f, "failbr");
    const e = faultEnv({ FAKE_GIT_FAIL: "branch" });
    const reason = left(await worktreeSafety(gitCtx(e), wt));
    expect(reason).toBe("Could not get current branch: git: exit 128: fatal: injected failure (branch)");
    await fullReap(wt, e);
    expect(existsSync(wt)).toBe(true);
  });

  test("FAKE_GIT_FAIL=rev-parse (origin/main tree unreadable)", async () => {
    const wt = addWorktree(f, "failrp");
    squashMerge(f, "failrp");
    const e = faultEnv({ FAKE_GIT_FAIL: "rev-parse" });
    expect(left(await worktreeSafety(gitCtx(e), wt))).toStartWith("Could not read origin/main tree: ");
    await fullReap(wt, e);
    expect(existsSync(wt)).toBe(true);
  });

  test("FAKE_GIT_FAIL=worktree: the owner cannot be listed, so nothing is removed", async () => {
    const wt = addWorktree(f, "failwl");
    mergeBranch(f, "failwl");
    const e = faultEnv({ FAKE_GIT_FAIL: "worktree" });
    expect(left(await worktreeSafety(gitCtx(e), wt))).toStartWith("Could not list worktrees: ");
    await fullReap(wt, e);
    expect(existsSync(wt)).toBe(true);
  });

  test("FAKE_GIT_HANG=merge-tree with a short timeout: left, reason says timed out", async () => {
    const wt = addWorktree(f, "hangmt");
    squashMerge(f, "hangmt");
    const e = faultEnv({ FAKE_GIT_HANG: "merge-tree" });
    const t0 = Date.now();
    const reason = left(await worktreeSafety(gitCtx(e), wt, 400));
    expect(reason).toBe("Could not merge-tree: git: timed out after 400 ms");
    expect(Date.now() - t0).toBeLessThan(10_000);
    const { record } = await fullReap(wt, e, 400);
    expect(record.actions_taken).toContain("timed out");
    expect(existsSync(wt)).toBe(true);
  });

  test("git missing from PATH entirely: left, never a crash", async () => {
    const wt = addWorktree(f, "nogit");
    mergeBranch(f, "nogit");
    const e = { ...gitEnv(), PATH: "/nonexistent" };
    expect(left(await worktreeSafety(gitCtx(e), wt))).toBe("Could not list worktrees: git: executable not found");
    expect(existsSync(wt)).toBe(true);
  });

  test("a runner that throws is absorbed as 'Check failed'", async () => {
    const wt = addWorktree(f, "throws");
    const boom: Runner = async () => {
      throw new Error("spawn exploded");
    };
    expect(await worktreeSafety({ runner: boom, env: env() }, wt)).toEqual({ safe: false, reason: "Check failed: spawn exploded" });
  });
});
