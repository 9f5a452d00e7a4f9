/**
 * fleet scan / fleet reap exit codes through main(argv), on a real temp repository (git through the real runner,
 * except where a wrapper injects a failure of `git worktree remove` only).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realRunner, type Runner } from "../../../src/lib/runner.ts";
import { captureCtx, runMain } from "../../helpers/ctx.ts";
import { main } from "../../../commands/main.ts";
import { addWorktree, gitEnv, makeRepo, mergeBranch, sh } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";

function world() {
  const f = makeRepo();
  const wt = addWorktree(f, "done");
  mergeBranch(f, "done");
  const home = tempDir("mogui-fleet-cmd-");
  const env = { ...gitEnv(), MOGUI_HOME: home, HOME: home };
  const run = (argv: string[], runner?: Runner) => runMain(argv, { env, cwd: f.dir, runner });
  return { f, wt, home, run };
}

describe("fleet exit codes", () => {
  test("usage errors are exit 2 with one line", async () => {
    const w = world();
    for (const argv of [
      ["fleet", "scan"],
      ["fleet", "scan", "--repo", w.f.repo, "--host", "tmux"],
      ["fleet", "scan", "--repo", w.f.repo, "--concurrency", "0"],
      ["fleet", "reap", "--repo", w.f.repo, "--grace-ms", "soon"],
      ["fleet", "reap", "--repo", w.f.repo, "--bogus"],
    ]) {
      const r = await w.run(argv);
      expect({ argv, code: r.code, stdout: r.stdout }).toEqual({ argv, code: 2, stdout: "" });
    }
  });

  test("a failed git worktree remove leaves the worktree and is exit 1; nothing else failed is exit 0", async () => {
    const w = world();
    const failing: Runner = async (argv, opts) => {
      if (argv[0] === "git" && argv.includes("worktree") && argv.includes("remove")) return { argv: [...argv], code: 1, signal: null, stdout: "", stderr: "fatal: injected", timedOut: false, missing: false };
      return realRunner(argv, opts);
    };
    const r = await w.run(["fleet", "reap", "--repo", w.f.repo, "--host", "none", "--execute", "--json"], failing);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).worktrees[0]).toMatchObject({ outcome: "left", failed: true, reason: "git worktree remove failed: git: exit 1: fatal: injected" });
    expect(existsSync(w.wt)).toBe(true);
    const ok = await w.run(["fleet", "reap", "--repo", w.f.repo, "--host", "none", "--execute"]);
    expect(ok.code).toBe(0);
    expect(existsSync(w.wt)).toBe(false);
  });

  test("an unwritable dispatch ledger stops --execute before anything changes (exit 2)", async () => {
    const w = world();
    const dir = join(w.home, "a-directory"); // unwritable as a file even for root
    mkdirSync(dir);
    const r = await w.run(["fleet", "reap", "--repo", w.f.repo, "--host", "none", "--execute", "--ledger", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("LEDGER_UNAVAILABLE");
    expect(existsSync(w.wt)).toBe(true);
  });

  test("the surface policy's reap.precious_ignored is the precious set (--policy), and --allow-ignored lifts it", async () => {
    // Two worktrees, each merged and clean but for one ignored file: `.env` (default precious) and `notes.keep`.
    const w = world();
    const other = addWorktree(w.f, "kept");
    mergeBranch(w.f, "kept");
    for (const wt of [w.wt, other]) writeFileSync(join(wt, ".gitignore"), ".env\n*.keep\n.gitignore\n");
    writeFileSync(join(w.wt, ".env"), "A=1\n");
    writeFileSync(join(other, "notes.keep"), "mine\n");
    const reasons = async (argv: string[]) => {
      const r = await w.run(["fleet", "reap", "--repo", w.f.repo, "--host", "none", "--json", ...argv]);
      expect(r.code).toBe(0);
      return Object.fromEntries(JSON.parse(r.stdout).worktrees.map((x: { path: string; outcome: string; reason: string | null }) => [x.path === w.wt ? "env" : "keep", x.reason ?? x.outcome]));
    };
    // Default sets: .env is precious (D31), and under D40 so is every ignored file outside the regenerable set (the
    // self-ignoring .gitignore comes first).
    expect(await reasons([])).toEqual({ env: "precious_ignored:.env", keep: "precious_ignored:.gitignore" });
    // A policy naming *.keep precious and .gitignore, .env regenerable: notes.keep is precious, .env no longer.
    const policy = join(w.home, "policy.json");
    const sets = { precious_ignored: ["*.keep"], regenerable: [".gitignore", ".env", "*.keep"] };
    writeFileSync(policy, JSON.stringify({ reap: sets }));
    expect(await reasons(["--policy", policy])).toEqual({ env: "would_remove", keep: "precious_ignored:notes.keep" });
    // --allow-ignored lifts the rule for this run; a policy that is not JSON is exit 2, nothing done.
    expect(await reasons(["--policy", policy, "--allow-ignored"])).toEqual({ env: "would_remove", keep: "would_remove" });
    writeFileSync(policy, "{not json");
    const bad = await w.run(["fleet", "reap", "--repo", w.f.repo, "--host", "none", "--execute", "--policy", policy]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("surface policy is not JSON");
    expect(existsSync(w.wt)).toBe(true);
    // Executed with the policy: notes.keep's worktree stays, the other one goes.
    writeFileSync(policy, JSON.stringify({ reap: sets }));
    const done = await w.run(["fleet", "reap", "--repo", w.f.repo, "--host", "none", "--execute", "--policy", policy]);
    expect(done.code).toBe(0);
    expect([existsSync(w.wt), existsSync(other)]).toEqual([false, true]);
  });

  test("on a terminal, a scan over many worktrees shows one updating progress line on stderr; off a terminal none", async () => {
    const w = world();
    for (let i = 0; i < 20; i++) sh(w.f.repo, "worktree", "add", "-q", "-b", `p${i}`, join(w.f.dir, `wt-p${i}`), "main");
    const argv = ["fleet", "scan", "--repo", w.f.repo, "--host", "none", "--json"];
    const { ctx, out } = captureCtx({ env: { ...gitEnv(), MOGUI_HOME: w.home, HOME: w.home, NO_COLOR: "1" }, cwd: w.f.dir });
    ctx.io = { ...ctx.io!, stderrIsTTY: true };
    expect(await main(argv, ctx)).toBe(0);
    const { stdout, stderr } = out();
    expect(JSON.parse(stdout).worktrees).toHaveLength(22);
    expect(stderr).toContain("\r\x1b[2Kfleet scan: 22/22 ");
    expect(stderr.endsWith("\r\x1b[2Kfleet scan: 22 worktrees checked\n")).toBe(true);
    const plain = await w.run(argv);
    expect(plain.stderr).toBe("");
  });
});
