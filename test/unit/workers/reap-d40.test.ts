/**
 * DECISIONS D40, each measured loss of issue 24 rebuilt with REAL git, on a clean worktree whose branch is merged
 * (so D31's rules would remove it): worker-reap's `reap` and fleet's scan + reap (one shared rule set) must leave
 * it, and the bytes must still be on disk. Plus the identity attack: a worktree directory swapped for a symlink to
 * another repository's clean worktree, where a process of that other repository runs; fleet reap must refuse
 * (`identity_mismatch`), touch nothing of the other repository, and kill nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realRunner } from "../../../src/lib/runner.ts";
import { systemProcTable } from "../../../src/fleet/fleet/procs.ts";
import { reapFleet } from "../../../src/fleet/fleet/reap.ts";
import { scanFleet } from "../../../src/fleet/fleet/scan.ts";
import { reap } from "../../../src/workers/reap/worker-reap.ts";
import { regenerableMatcher } from "../../../src/workers/reap/keep-rules.ts";
import { wireSpendBrake } from "../../../src/workers/worker/brake-wiring.ts";
import { DEFAULT_REGENERABLE, worktreeSafety } from "../../../src/workers/reap/worktree-safety.ts";
import { gitEnv, makeRepo, mergeBranch, sh, type Fixture } from "../../helpers/git.ts";
import { reapOracle, settledReapCtx } from "../../helpers/reap-oracle.ts";
import { unitCtx } from "../../helpers/unit-ctx.ts";

let f: Fixture;
const kids: Bun.Subprocess[] = [];
beforeAll(() => {
  f = makeRepo();
  writeFileSync(join(f.repo, ".gitignore"), ".git-credentials\n*.env\ndist/\n");
  sh(f.repo, "add", ".gitignore");
  sh(f.repo, "commit", "-q", "-m", "ignore");
  sh(f.repo, "push", "-q", "origin", "main");
  sh(f.repo, "fetch", "-q", "origin");
});
afterAll(() => {
  for (const k of kids) if (k.exitCode === null) k.kill("SIGKILL");
  rmSync(f.dir, { recursive: true, force: true });
});

let n = 0;
function mergedWorktree(fx: Fixture = f): string {
  const branch = `d${++n}`;
  const wt = join(fx.dir, `wt-${branch}`);
  sh(fx.repo, "worktree", "add", "-q", "-b", branch, wt, "main");
  writeFileSync(join(wt, `${branch}.txt`), `${branch}\n`);
  sh(wt, "add", ".");
  sh(wt, "commit", "-q", "-m", branch);
  mergeBranch(fx, branch);
  return wt;
}

const gctx = () => ({ runner: realRunner, env: gitEnv() });

async function workerReap(wt: string, execute = true): Promise<string> {
  return (await reap(settledReapCtx(gitEnv()), { taskId: "task_000000000001", worktree: wt, execute })).record.actions_taken;
}

async function fleetReap(repo: string, execute = true) {
  const ctx = unitCtx({ runner: realRunner, env: gitEnv(), now: () => 1_800_000_000_000 });
  const home = join(f.dir, `home-${++n}`);
  mkdirSync(home);
  const req = { repos: [repo], jobsLedger: join(home, "jobs.jsonl"), dispatchLedger: join(home, "d.jsonl"), hosts: [] as ("orca" | "herdr")[], concurrency: 2, timeoutMs: 30_000, safety: {} };
  const table = systemProcTable(ctx);
  const scan = await scanFleet(ctx, req, table);
  return { scan, results: await reapFleet(ctx, scan, table, { execute, graceMs: 200, timeoutMs: 30_000, ledger: req.dispatchLedger, safety: {} }) };
}

/** Both reapers leave it with a reason starting `prefix`; the file keeps its bytes; the oracle agrees it holds work. */
async function bothLeave(wt: string, file: string, prefix: string): Promise<void> {
  const before = readFileSync(join(wt, file));
  const o = await reapOracle(wt, { env: gitEnv(), repo: f.repo });
  expect({ holdsWork: o.holdsWork, why: o.why }).toMatchObject({ holdsWork: true });
  const v = await worktreeSafety(gctx(), wt);
  expect(v.safe ? "(safe)" : v.reason).toStartWith(prefix);
  expect(await workerReap(wt)).toStartWith(`worktree_left:${wt}:${prefix}`);
  const { results } = await fleetReap(f.repo);
  const mine = results.find((r) => r.path === wt)!;
  expect({ outcome: mine.outcome, reason: mine.reason?.slice(0, prefix.length) }).toEqual({ outcome: "left", reason: prefix });
  expect(readFileSync(join(wt, file))).toEqual(before);
}

describe("D40: ignored files are precious unless regenerable", () => {
  test("the spend brake's own worker settings are regenerable; a settings file with anything more is precious", async () => {
    // A separate repository: the brake adds its file to the shared info/exclude.
    const fx = makeRepo();
    const wt = mergedWorktree(fx);
    wireSpendBrake(wt, ["/usr/local/bin/mogui"], "job-1", 5000);
    expect(sh(wt, "status", "--porcelain")).toBe(""); // kept out of the worker's commits
    expect(await worktreeSafety(gctx(), wt)).toMatchObject({ safe: true });
    const file = join(wt, ".claude", "settings.local.json");
    const mine = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...mine, permissions: { allow: ["Bash(make)"] } }));
    const v = await worktreeSafety(gctx(), wt);
    expect(v.safe ? "(safe)" : v.reason).toBe("precious_ignored:.claude/settings.local.json");
    rmSync(fx.dir, { recursive: true, force: true });
  });

  test("new code under a self-ignoring dir/.gitignore", async () => {
    const wt = mergedWorktree();
    mkdirSync(join(wt, "gen"));
    writeFileSync(join(wt, "gen", ".gitignore"), "*\n");
    writeFileSync(join(wt, "gen", "parser.ts"), "export const only = 'copy';\n");
    expect(sh(wt, "status", "--porcelain")).toBe("");
    await bothLeave(wt, "gen/parser.ts", "precious_ignored:gen/");
  });

  test("a file matched by the shared info/exclude", async () => {
    const wt = mergedWorktree();
    appendFileSync(join(f.repo, ".git", "info", "exclude"), "notes/\n");
    mkdirSync(join(wt, "notes"));
    writeFileSync(join(wt, "notes", "design.md"), "the only copy\n");
    expect(sh(wt, "status", "--porcelain")).toBe("");
    await bothLeave(wt, "notes/design.md", "precious_ignored:notes/design.md");
  });

  for (const name of [".git-credentials", "prod.env"]) {
    test(`${name} (ignored, not in D31's precious set)`, async () => {
      const wt = mergedWorktree();
      writeFileSync(join(wt, name), "https://user:token@example.invalid\n");
      await bothLeave(wt, name, `precious_ignored:${name}`);
    });
  }

  test("regenerable output (dist/) still goes with the worktree", async () => {
    const wt = mergedWorktree();
    mkdirSync(join(wt, "dist"));
    writeFileSync(join(wt, "dist", "app.js"), "1\n");
    expect(await workerReap(wt)).toBe(`worktree_removed:${wt}`);
    expect(existsSync(wt)).toBe(false);
  });

  test("the regenerable matcher: directory components at any depth, base names, anchored patterns", () => {
    const m = regenerableMatcher(DEFAULT_REGENERABLE);
    expect(["dist/a.js", "pkg/node_modules/x/y.js", "a/__pycache__/m.pyc", "m.pyc", "deep/.DS_Store", "x/target/debug/b"].every(m)).toBe(true);
    expect(["dist", "distx/a.js", "prod.env", ".git-credentials", "notes/design.md", "vendor/lib/"].some(m)).toBe(false);
    const a = regenerableMatcher(["gen/out/", "/cache.bin"]);
    expect([a("gen/out/x"), a("cache.bin"), a("x/gen/out/y"), a("x/cache.bin")]).toEqual([true, true, false, false]);
  });
});

describe("D40: work git keeps outside the branch", () => {
  test("a stopped `git am`", async () => {
    const wt = mergedWorktree();
    // A patch that does not apply: am stops with rebase-apply/ in the worktree's gitdir.
    const patch = join(f.dir, `p${++n}.patch`);
    writeFileSync(
      patch,
      `From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: t <t@t.invalid>\nDate: Thu, 1 Jan 2026 00:00:00 +0000\nSubject: [PATCH] x\n\n---\n README.md | 1 +\n 1 file changed, 1 insertion(+)\n\ndiff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n-not the content\n+changed\n+more\n-- \n2.39.0\n\n`,
    );
    const am = Bun.spawnSync(["git", "-C", wt, "am", patch], { env: gitEnv(), stdout: "pipe", stderr: "pipe" });
    expect(am.exitCode).not.toBe(0);
    expect(sh(wt, "status", "--porcelain")).toBe("");
    await bothLeave(wt, "README.md", "operation_in_progress:am");
  });

  test("a `git merge --no-commit` in progress", async () => {
    const wt = mergedWorktree();
    const mine = sh(wt, "branch", "--show-current");
    // A side branch whose commits cancel out: the merge stages nothing, status is clean, only MERGE_HEAD says so.
    const side = `side${++n}`;
    const other = join(f.dir, `wt-${side}`);
    sh(f.repo, "worktree", "add", "-q", "-b", side, other, "main");
    writeFileSync(join(other, "side.txt"), "side\n");
    sh(other, "add", ".");
    sh(other, "commit", "-q", "-m", "side");
    sh(other, "revert", "--no-edit", "HEAD");
    sh(f.repo, "worktree", "remove", other);
    sh(wt, "merge", "--no-commit", "--no-ff", side);
    expect(sh(wt, "status", "--porcelain")).toBe("");
    await bothLeave(wt, `${mine}.txt`, "operation_in_progress:merge");
  });

  test("commits only on a refs/worktree/* ref", async () => {
    const wt = mergedWorktree();
    const branch = sh(wt, "branch", "--show-current");
    writeFileSync(join(wt, "kept.txt"), "only on refs/worktree/keep\n");
    sh(wt, "add", ".");
    sh(wt, "commit", "-q", "-m", "keep");
    sh(wt, "update-ref", "refs/worktree/keep", "HEAD");
    sh(wt, "reset", "-q", "--hard", "HEAD~1");
    expect(sh(wt, "branch", "--show-current")).toBe(branch);
    await bothLeave(wt, `${branch}.txt`, "worktree_ref_unique:refs/worktree/keep");
  });

  test("commits only the HEAD reflog reaches: counted in the dry run (the documented limit)", async () => {
    const wt = mergedWorktree();
    writeFileSync(join(wt, "lost.txt"), "reflog only\n");
    sh(wt, "add", ".");
    sh(wt, "commit", "-q", "-m", "lost");
    sh(wt, "reset", "-q", "--hard", "HEAD~1");
    const o = await reapOracle(wt, { env: gitEnv(), repo: f.repo, countReflog: true });
    expect(o.reflogOnly).toBe(1);
    expect(await workerReap(wt, false)).toBe(`worktree_removed:${wt};reflog_only_commits:1`);
    const { scan, results } = await fleetReap(f.repo, false);
    const w = scan.worktrees.find((x) => x.path === wt)!;
    expect(w.safety).toMatchObject({ safe: true, reflog_only_commits: 1 });
    expect(results.find((x) => x.path === wt)).toMatchObject({ outcome: "would_remove", reflog_only_commits: 1 });
  });
});

describe("D40 identity", () => {
  test("a worktree directory swapped for a symlink to another repository's clean worktree: refused, nothing of the other touched", async () => {
    const other = makeRepo();
    try {
      const theirs = mergedWorktree(other);
      const sleeper = Bun.spawn(["sleep", "600"], { cwd: theirs, stdout: "ignore", stderr: "ignore" });
      kids.push(sleeper);
      const ours = mergedWorktree();
      rmSync(ours, { recursive: true, force: true });
      symlinkSync(theirs, ours);
      await Bun.sleep(50);
      const o = await reapOracle(ours, { env: gitEnv(), repo: f.repo });
      expect(o.identityMismatch).toBe(true);
      const before = readFileSync(join(theirs, `${sh(theirs, "branch", "--show-current")}.txt`));
      for (const execute of [false, true]) {
        const { results } = await fleetReap(f.repo, execute);
        const mine = results.find((r) => r.path === ours)!;
        expect({ outcome: mine.outcome, reason: mine.reason, killed: mine.killed, would_kill: mine.would_kill }).toEqual({ outcome: "left", reason: "identity_mismatch:worktree directory is a symlink", killed: [], would_kill: [] });
      }
      expect(await workerReap(ours)).toBe(`worktree_left:${ours}:identity_mismatch:worktree directory is a symlink`);
      expect(sleeper.exitCode).toBe(null);
      expect(sleeper.signalCode).toBe(null);
      expect(sh(other.repo, "worktree", "list", "--porcelain")).toContain(theirs);
      expect(readFileSync(join(theirs, `${sh(theirs, "branch", "--show-current")}.txt`))).toEqual(before);
    } finally {
      rmSync(other.dir, { recursive: true, force: true });
    }
  });

  test("a worktree directory replaced by a copy of another repository's worktree (.git points elsewhere): refused", async () => {
    const other = makeRepo();
    try {
      const theirs = mergedWorktree(other);
      const ours = mergedWorktree();
      rmSync(ours, { recursive: true, force: true });
      cpSync(theirs, ours, { recursive: true });
      const { results } = await fleetReap(f.repo);
      expect(results.find((r) => r.path === ours)!.reason).toStartWith("identity_mismatch:");
      expect(existsSync(join(ours, ".git"))).toBe(true);
      expect(existsSync(theirs)).toBe(true);
    } finally {
      rmSync(other.dir, { recursive: true, force: true });
    }
  });
});
