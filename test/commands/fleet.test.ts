/**
 * fleet scan / fleet reap exit codes through main(argv), on a real temp repository (git through the real runner,
 * except where a wrapper injects a failure of `git worktree remove` only).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { realRunner, type Runner } from "../../src/lib/runner.ts";
import { runMain } from "../helpers/ctx.ts";
import { addWorktree, gitEnv, makeRepo, mergeBranch } from "../helpers/git.ts";
import { tempDir } from "../helpers/paths.ts";

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
});
