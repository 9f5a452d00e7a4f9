/**
 * DECISIONS D31: work that `git status` cannot see must keep a worktree. Each case builds a clean, MERGED worktree
 * (so today's rules would remove it), hides work in it, and runs the real execute-mode `reap`: the verdict names
 * the reason and the bytes are still on disk afterwards. The regenerable cases prove the rule is not "never remove".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realRunner } from "../../../src/lib/runner.ts";
import { reap } from "../../../src/workers/reap/worker-reap.ts";
import { DEFAULT_PRECIOUS_IGNORED, DEFAULT_REGENERABLE, preciousMatcher, worktreeSafety, type SafetyOptions } from "../../../src/workers/reap/worktree-safety.ts";
import { gitEnv, makeRepo, mergeBranch, sh, type Fixture } from "../../helpers/git.ts";
import { settledReapCtx } from "../../helpers/reap-oracle.ts";

let f: Fixture;
beforeAll(() => {
  f = makeRepo();
  writeFileSync(join(f.repo, ".gitignore"), "node_modules/\ndist/\nsecrets/\n.env\n*.pem\nvendor/\n*.log\nsub/.env.local\n");
  sh(f.repo, "add", ".gitignore");
  sh(f.repo, "commit", "-q", "-m", "ignore");
  sh(f.repo, "push", "-q", "origin", "main");
});
afterAll(() => rmSync(f.dir, { recursive: true, force: true }));

const reapCtx = () => settledReapCtx(gitEnv());

let n = 0;
/** A merged worktree with one tracked file `t.txt`, its directory name may carry spaces / non-ASCII. */
function mergedWorktree(name = `w${++n}`): string {
  const branch = `b${++n}`;
  const wt = join(f.dir, name);
  sh(f.repo, "worktree", "add", "-q", "-b", branch, wt, "main");
  writeFileSync(join(wt, "t.txt"), `${branch}\n`);
  sh(wt, "add", "t.txt");
  sh(wt, "commit", "-q", "-m", branch);
  mergeBranch(f, branch);
  return wt;
}

async function run(wt: string, opts: SafetyOptions & { execute?: boolean } = {}) {
  const v = await worktreeSafety({ runner: realRunner, env: gitEnv() }, wt, undefined, opts);
  const out = await reap(reapCtx(), { taskId: "task_000000000001", worktree: wt, execute: opts.execute ?? true, precious: opts.precious, regenerable: opts.regenerable, allowIgnored: opts.allowIgnored });
  return { v, action: out.record.actions_taken };
}

describe("hidden index flags (skip-worktree, assume-unchanged)", () => {
  for (const flag of ["--skip-worktree", "--assume-unchanged"]) {
    test(`${flag}: the hidden edit is left, in execute mode and in the dry run`, async () => {
      const wt = mergedWorktree();
      sh(wt, "update-index", flag, "t.txt");
      writeFileSync(join(wt, "t.txt"), "the only copy of this edit\n");
      expect(sh(wt, "status", "--porcelain")).toBe(""); // invisible to status: today's reaper removed it
      const dry = await run(wt, { execute: false });
      expect(dry.action).toBe(`worktree_left:${wt}:hidden_index_flags`);
      const r = await run(wt, { allowIgnored: true }); // --allow-ignored never lifts this one
      expect(r.v).toEqual({ safe: false, reason: "hidden_index_flags" });
      expect(r.action).toBe(`worktree_left:${wt}:hidden_index_flags`);
      expect(readFileSync(join(wt, "t.txt"), "utf8")).toBe("the only copy of this edit\n");
    });
  }
});

describe("precious ignored files", () => {
  const cases: [string, string][] = [
    [".env", ".env"],
    ["secrets/deep/prod.pem (inside an ignored directory)", "secrets/deep/prod.pem"],
    ["sub/.env.local (precious name in a subfolder)", "sub/.env.local"],
    ["a key whose name has a space, a newline and non-ASCII", "dist/clé\nde prod.key"],
  ];
  for (const [what, rel] of cases) {
    test(`${what}: left with precious_ignored:<path>; --allow-ignored removes`, async () => {
      const wt = mergedWorktree();
      mkdirSync(join(wt, rel, ".."), { recursive: true });
      writeFileSync(join(wt, rel), "SECRET=only-here\n");
      expect(sh(wt, "status", "--porcelain")).toBe("");
      const dry = await run(wt, { execute: false });
      expect(dry.action.startsWith(`worktree_left:${wt}:precious_ignored:`)).toBe(true);
      const r = await run(wt);
      expect(r.v).toEqual({ safe: false, reason: `precious_ignored:${rel}` });
      expect(readFileSync(join(wt, rel), "utf8")).toBe("SECRET=only-here\n");
      const lifted = await run(wt, { allowIgnored: true });
      expect(lifted.action).toBe(`worktree_removed:${wt}`);
      expect(existsSync(wt)).toBe(false);
    });
  }

  test("an ignored nested repository is precious (it can hold commits of its own)", async () => {
    const wt = mergedWorktree();
    mkdirSync(join(wt, "vendor", "lib"), { recursive: true });
    sh(join(wt, "vendor", "lib"), "init", "-q", "-b", "main");
    writeFileSync(join(wt, "vendor", "lib", "x"), "x\n");
    sh(join(wt, "vendor", "lib"), "add", "x");
    sh(join(wt, "vendor", "lib"), "commit", "-q", "-m", "unpushed");
    const r = await run(wt);
    expect(r.v).toEqual({ safe: false, reason: "precious_ignored:vendor/lib/" });
    expect(existsSync(join(wt, "vendor", "lib", ".git"))).toBe(true);
  });

  test("regenerable ignored files (node_modules/, dist/) go with the worktree, precious names under node_modules/ too", async () => {
    const wt = mergedWorktree("wt with spaces é");
    mkdirSync(join(wt, "node_modules", "aws-sdk", "lib"), { recursive: true });
    writeFileSync(join(wt, "node_modules", "aws-sdk", "lib", "credentials.js"), "module.exports = 1;\n");
    writeFileSync(join(wt, "node_modules", ".env"), "x\n");
    mkdirSync(join(wt, "dist"));
    writeFileSync(join(wt, "dist", "app.js"), "1\n");
    const r = await run(wt);
    expect(r.v).toMatchObject({ safe: true });
    expect(r.action).toBe(`worktree_removed:${wt}`);
    expect(existsSync(wt)).toBe(false);
  });

  test("D40: an ignored file outside the regenerable set is precious (a log is not provably regenerable)", async () => {
    const wt = mergedWorktree();
    writeFileSync(join(wt, "build.log"), "keep me\n");
    expect((await run(wt, { execute: false })).action).toBe(`worktree_left:${wt}:precious_ignored:build.log`);
    expect((await run(wt, { regenerable: ["*.log"] })).action).toBe(`worktree_removed:${wt}`);
  });

  test("the policy's sets replace the default ones (precious wins over regenerable)", async () => {
    const wt = mergedWorktree();
    writeFileSync(join(wt, "build.log"), "keep me\n");
    writeFileSync(join(wt, ".env"), "not precious under this policy\n");
    const opts = { precious: ["*.log"], regenerable: ["*.log", ".env"] };
    expect((await run(wt, { ...opts, execute: false })).action).toBe(`worktree_left:${wt}:precious_ignored:build.log`);
    rmSync(join(wt, "build.log"));
    expect((await run(wt, opts)).action).toBe(`worktree_removed:${wt}`);
  });
});

describe("paths git must be handed exactly", () => {
  test("D40: a path that is a symlink to a worktree is refused (identity_mismatch), the worktree stays", async () => {
    const wt = mergedWorktree();
    const link = join(f.dir, `link-${n}`);
    symlinkSync(wt, link);
    const r = await run(link);
    expect(r.action).toBe(`worktree_left:${link}:identity_mismatch:worktree directory is a symlink`);
    expect(existsSync(join(wt, "t.txt"))).toBe(true);
  });

  test("a populated submodule is left with the reason (git worktree remove refuses it)", async () => {
    const sub = makeRepo();
    try {
      const wt = mergedWorktree();
      sh(wt, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.repo, "sm");
      sh(wt, "commit", "-q", "-m", "sm");
      const branch = sh(wt, "branch", "--show-current");
      mergeBranch(f, branch);
      const r = await run(wt);
      expect(r.action).toBe(`worktree_left:${wt}:Worktree contains a populated submodule: sm`);
    } finally {
      rmSync(sub.dir, { recursive: true, force: true });
    }
  });
});

test("the precious matcher: gitignore-style globs, base name unless the pattern has a slash", () => {
  const m = preciousMatcher(DEFAULT_PRECIOUS_IGNORED);
  for (const p of [".env", "a/b/.env", ".env.production", "x/id_rsa.pub", "k.pem", "c/credentials.json", "cfg.local.json", ".npmrc"]) expect(m(p)).toBe(true);
  for (const p of ["env", ".environment", "x.pem.txt", "a/local.json", "dist/app.js", "src/key.ts"]) expect(m(p)).toBe(false);
  const anchored = preciousMatcher(["config/**/*.yaml", "/top.txt"]);
  expect(anchored("config/a/b.yaml")).toBe(true);
  expect(anchored("config/b.yaml")).toBe(true);
  expect(anchored("x/config/b.yaml")).toBe(false);
  expect(anchored("top.txt")).toBe(true);
  expect(anchored("a/top.txt")).toBe(false);
});

test("the example surface policy spells out exactly the built-in precious set (reap.precious_ignored)", () => {
  const example = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "..", "config", "worker-surface-policy.example.json"), "utf8"));
  expect(example.reap.precious_ignored).toEqual([...DEFAULT_PRECIOUS_IGNORED]);
  expect(example.reap.regenerable).toEqual([...DEFAULT_REGENERABLE]);
});
