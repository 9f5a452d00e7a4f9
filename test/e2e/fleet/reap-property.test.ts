/**
 * `fleet reap --execute` FOR REAL over random small fleets, judged by the shared reap oracle
 * (test/helpers/reap-oracle.ts, which reads the repositories its own way): 0 removals of a worktree holding work
 * (D31 included: a worktree with skip-worktree/assume-unchanged bits, or a precious ignored file unless
 * --allow-ignored, is never removed even where no byte would be lost), 0 removals of a worktree bound to an open
 * job, 0 processes killed outside a removed worktree; and, so the test can fail both ways, every worktree the
 * oracle finds free of work, unbound and unvisited IS removed.
 *
 * A fleet: a copy of a small template repository (tracked .gitignore, origin/main), 2-4 linked worktrees, each
 * built from origin/main then: nothing more (merged by ancestry), a commit later made origin/main (merged), a
 * commit whose tree origin/main gets as a squash commit, or an unmerged commit; then, independently, a dirty
 * tracked edit, an untracked file, a staged-only file, a skip-worktree or assume-unchanged bit (with or without a
 * hidden edit), a precious ignored file (`.env`, `dist/prod.key`), regenerable ignored files (`dist/`,
 * `node_modules/` with precious-looking names, logs), a detached HEAD, a lock, a deleted directory, an open job in
 * the jobs ledger. Real `sleep` processes work in some worktrees, in the main worktree and outside; a `tail -f`
 * working outside holds a file of one worktree open (a visitor: its worktree must be left, the tail never signalled).
 *
 * Fleets are reaped ten at a time by one `fleet reap --repo ... --repo ...` run (each judged on its own).
 *
 * Seed: printed; MOGUI_FLEET_SEED replays it, MOGUI_FLEET_REAL_RUNS changes the number of fleets (default 50, to keep the suite under 5 minutes; the stub-host property test runs 300).
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realRunner } from "../../../src/lib/runner.ts";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { gitEnv, makeRepo, sh } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";
import { prng } from "../../helpers/prng.ts";
import { reapOracle, type OracleVerdict } from "../../helpers/reap-oracle.ts";

const SEED = Number(process.env.MOGUI_FLEET_SEED ?? Math.floor(Math.random() * 2 ** 31)) >>> 0;
const RUNS = Number(process.env.MOGUI_FLEET_REAL_RUNS ?? 50);
const BOUND = 3;
/** Fleets per `fleet reap` run. */
const BATCH = 10;

type Rng = ReturnType<typeof prng>;

/** Isolated git without `maintenance --auto` after each commit. */
const ENV: Record<string, string> = { ...gitEnv(), GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_0: "maintenance.auto", GIT_CONFIG_VALUE_0: "false", GIT_CONFIG_KEY_1: "gc.auto", GIT_CONFIG_VALUE_1: "0" };

async function G(cwd: string, ...args: string[]): Promise<string> {
  const r = await realRunner(["git", "-C", cwd, ...args], { env: ENV, timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} (in ${cwd}): ${r.stderr}`);
  return r.stdout.trim();
}

const root = tempDir("mogui-fleet-real-");
const spawned: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of spawned) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
});

/** The template: README, a tracked .gitignore, pushed (origin/main exists). Copied per fleet. */
function template(): string {
  const f = makeRepo(join(root, "template"));
  writeFileSync(join(f.repo, ".gitignore"), ".env\n*.key\ndist/\nnode_modules/\n*.log\n.git-credentials\nprod.env\n__pycache__/\n");
  sh(f.repo, "add", ".gitignore");
  sh(f.repo, "commit", "-q", "-m", "ignore");
  sh(f.repo, "push", "-q", "origin", "main");
  sh(f.repo, "fetch", "-q", "origin");
  // D40: the shared info/exclude ignores `notes/` in every worktree (not in the regenerable set: precious).
  appendFileSync(join(f.repo, ".git", "info", "exclude"), "notes/\n");
  // A side branch whose two commits cancel out: merging it with --no-commit stages nothing (only MERGE_HEAD says so).
  sh(f.repo, "checkout", "-q", "-b", "side");
  writeFileSync(join(f.repo, "side.txt"), "side\n");
  sh(f.repo, "add", "side.txt");
  sh(f.repo, "commit", "-q", "-m", "side");
  sh(f.repo, "revert", "--no-edit", "HEAD");
  sh(f.repo, "checkout", "-q", "main");
  return f.repo;
}

interface Wt {
  path: string;
  existed: boolean;
  open: boolean;
  visited: boolean;
  oracle: OracleVerdict | null;
}

interface Proc {
  p: Bun.Subprocess;
  cwd: string;
}

const totals = { fleets: 0, worktrees: 0, removed: 0, left: 0, holdsWork: 0, hiddenFlags: 0, precious: 0, allowedPrecious: 0, visited: 0, killed: 0, procs: 0, identity: 0, operation: 0, worktreeRef: 0, unsafe: 0 };

const keptBy: Record<string, number> = {};

function sleeper(cwd: string, procs: Proc[], argv = ["sleep", "600"]): void {
  const p = Bun.spawn(argv, { cwd, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
  spawned.push(p);
  procs.push({ p, cwd });
}

async function buildWorktree(r: Rng, repo: string, path: string, i: number, procs: Proc[]): Promise<void> {
  await G(repo, "worktree", "add", "-q", "-b", `b${i}`, path, "refs/remotes/origin/main");
  const kind = r.int(0, 3); // 0 nothing, 1 merged commit, 2 squash-merged commit, 3 unmerged commit
  if (kind > 0) {
    writeFileSync(join(path, `w${i}.txt`), `line ${i} of ${path}\n`);
    await G(path, "add", `w${i}.txt`);
    await G(path, "commit", "-q", "-m", `work ${i}`);
    const head = await G(path, "rev-parse", "HEAD");
    if (kind === 1) await G(repo, "update-ref", "refs/remotes/origin/main", head);
    if (kind === 2) {
      const squash = await G(repo, "commit-tree", `${head}^{tree}`, "-p", "refs/remotes/origin/main", "-m", `squash ${i}`);
      await G(repo, "update-ref", "refs/remotes/origin/main", squash);
    }
  }
  if (r.chance(0.08)) appendFileSync(join(path, "README.md"), "dirty\n");
  if (r.chance(0.08)) writeFileSync(join(path, "new.txt"), "untracked\n");
  if (r.chance(0.06)) {
    writeFileSync(join(path, "staged.txt"), "staged\n");
    await G(path, "add", "staged.txt");
  }
  if (r.chance(0.1)) {
    await G(path, "update-index", r.chance(0.5) ? "--skip-worktree" : "--assume-unchanged", "README.md");
    if (r.chance(0.5)) appendFileSync(join(path, "README.md"), "hidden edit\n");
  }
  if (r.chance(0.12)) writeFileSync(join(path, ".env"), "TOKEN=x\n");
  if (r.chance(0.06)) {
    mkdirSync(join(path, "dist"), { recursive: true });
    writeFileSync(join(path, "dist", "prod.key"), "k\n");
  }
  if (r.chance(0.25)) {
    mkdirSync(join(path, "dist"), { recursive: true });
    writeFileSync(join(path, "dist", "out.js"), "x\n");
    mkdirSync(join(path, "node_modules", "pkg"), { recursive: true });
    writeFileSync(join(path, "node_modules", "pkg", ".env"), "regenerable\n");
    writeFileSync(join(path, "app.log"), "log\n");
  }
  // D40: ignored files that are not provably regenerable, and work git keeps outside the branch.
  if (r.chance(0.05)) {
    mkdirSync(join(path, "gen"));
    writeFileSync(join(path, "gen", ".gitignore"), "*\n");
    writeFileSync(join(path, "gen", "parser.ts"), `only copy ${i}\n`);
  }
  if (r.chance(0.04)) {
    mkdirSync(join(path, "notes"));
    writeFileSync(join(path, "notes", "design.md"), `only copy ${i}\n`);
  }
  if (r.chance(0.04)) writeFileSync(join(path, r.chance(0.5) ? ".git-credentials" : "prod.env"), "https://u:t@example.invalid\n");
  if (r.chance(0.08)) {
    mkdirSync(join(path, "__pycache__"));
    writeFileSync(join(path, "__pycache__", "m.cpython-312.pyc"), "bytecode\n");
  }
  if (r.chance(0.04)) await realRunner(["git", "-C", path, "merge", "--no-commit", "--no-ff", "side"], { env: ENV, timeoutMs: 30_000 });
  if (r.chance(0.04)) {
    // A stopped `git am` (the patch does not apply): rebase-apply/ in the worktree's gitdir, status clean.
    const patch = join(path, "..", `p${i}.patch`);
    writeFileSync(
      patch,
      `From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: t <t@t.invalid>\nDate: Thu, 1 Jan 2026 00:00:00 +0000\nSubject: [PATCH] x\n\n---\n README.md | 1 +\n 1 file changed, 1 insertion(+)\n\ndiff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n-not the content\n+changed\n+more\n-- \n2.39.0\n\n`,
    );
    await realRunner(["git", "-C", path, "am", patch], { env: ENV, timeoutMs: 30_000 });
  }
  if (r.chance(0.05)) {
    // Commits only on a refs/worktree/* ref (or, half the time, only in the HEAD reflog: D40's counted limit).
    writeFileSync(join(path, `kept${i}.txt`), `kept ${i} of ${path}\n`);
    await G(path, "add", `kept${i}.txt`);
    await G(path, "commit", "-q", "-m", `kept ${i}`);
    if (r.chance(0.5)) await G(path, "update-ref", "refs/worktree/keep", "HEAD");
    await G(path, "reset", "-q", "--hard", "HEAD~1");
  }
  if (r.chance(0.05)) await G(path, "checkout", "-q", "--detach");
  if (r.chance(0.05)) await G(repo, "worktree", "lock", path);
  for (let k = r.int(0, 2); k > 0; k--) if (r.chance(0.5)) sleeper(path, procs);
}

/** Wait (up to 5 s) until the process holds `file` open (Linux /proc); false when that cannot be seen. */
async function holdsOpen(pid: number, file: string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkOr(`/proc/${pid}/fd/${fd}`) === file)) return true;
    } catch {
      return false;
    }
    await Bun.sleep(50);
  }
  return false;
}

function readlinkOr(p: string): string | null {
  try {
    return readlinkSync(p);
  } catch {
    return null;
  }
}

interface Fleet {
  n: number;
  dir: string;
  repo: string;
  wts: Wt[];
  procs: Proc[];
  jobs: string[];
  /** D40: the other repository's worktree a swapped directory points at. */
  foreign?: string;
}

/** One fleet: a repository with 2-4 worktrees in random states, its processes, its open jobs. */
async function buildFleet(tpl: string, n: number, r: Rng, allowIgnored: boolean): Promise<Fleet> {
  const dir = join(root, `f${n}`);
  const repo = join(dir, "repo");
  cpSync(tpl, repo, { recursive: true });
  const outside = join(dir, "outside");
  mkdirSync(outside);
  const f: Fleet = { n, dir, repo, wts: [], procs: [], jobs: [] };
  for (let i = 0, count = r.int(2, 4); i < count; i++) {
    const path = join(dir, `wt-${i}`);
    await buildWorktree(r, repo, path, i, f.procs);
    const open = r.chance(0.1);
    if (open) f.jobs.push(JSON.stringify({ event: "job_spawned", ts: 1, job_id: `job-${n}-${i}`, worktree: path, host: "herdr", pane_id: "" }));
    f.wts.push({ path, existed: true, open, visited: false, oracle: null });
  }
  if (r.chance(0.3)) sleeper(repo, f.procs);
  if (r.chance(0.3)) sleeper(outside, f.procs);
  const gone = f.wts.find(() => r.chance(0.04));
  if (gone) {
    rmSync(gone.path, { recursive: true, force: true });
    gone.existed = false;
  }
  // D40 identity: a worktree directory swapped for a symlink to ANOTHER repository's clean, merged worktree, in
  // which a process of that repository runs: nothing of the other repository may be touched.
  const victim = f.wts[r.int(0, f.wts.length - 1)]!;
  if (r.chance(0.12) && victim.existed) {
    const foreignRepo = join(dir, "foreign");
    cpSync(tpl, foreignRepo, { recursive: true });
    const theirs = join(dir, "foreign-wt");
    await G(foreignRepo, "worktree", "add", "-q", "-b", "theirs", theirs, "refs/remotes/origin/main");
    sleeper(theirs, f.procs);
    rmSync(victim.path, { recursive: true, force: true });
    symlinkSync(theirs, victim.path);
    f.foreign = theirs;
  }
  const w = f.wts[r.int(0, f.wts.length - 1)]!;
  if (r.chance(0.08) && w.existed && !f.foreign) {
    // A visitor: works outside, holds a file of the worktree open (seen by the scan only once it is open).
    const file = join(w.path, "README.md");
    sleeper(outside, f.procs, ["tail", "-f", file]);
    w.visited = await holdsOpen(f.procs[f.procs.length - 1]!.p.pid, file);
  }
  for (const w of f.wts) w.oracle = w.existed ? await reapOracle(w.path, { allowIgnored, env: ENV, repo }) : null;
  return f;
}

function judge(f: Fleet, where: string, allowIgnored: boolean): void {
  const removed = new Set(f.wts.filter((w) => w.existed && !existsSync(w.path)).map((w) => w.path));
  for (const w of f.wts) {
    const o = w.oracle;
    const isRemoved = removed.has(w.path);
    const view = { where: `${where} fleet ${f.n}`, path: w.path, removed: isRemoved, holdsWork: o?.holdsWork ?? true, why: o?.why ?? ["missing"], hiddenFlags: o?.hiddenFlags ?? false, open: w.open, visited: w.visited };
    // 1. Never a worktree holding work (the oracle, D31 hidden bits included), bound to an open job, or visited.
    if (isRemoved) expect(view).toEqual({ ...view, holdsWork: false, hiddenFlags: false, open: false, visited: false });
    // 2. Not vacuous: a worktree free of all of that is removed.
    else if (o && !o.holdsWork && !o.hiddenFlags && !w.open && !w.visited) expect(view).toEqual({ ...view, removed: true });
    totals.worktrees++;
    if (isRemoved) totals.removed++;
    else totals.left++;
    if (o?.holdsWork) totals.holdsWork++;
    if (o?.identityMismatch) totals.identity++;
    if (o?.operation) totals.operation++;
    if (o?.worktreeRef) totals.worktreeRef++;
    if (isRemoved && (o?.holdsWork ?? true)) totals.unsafe++;
    if (o?.hiddenFlags) totals.hiddenFlags++;
    if (w.visited) totals.visited++;
    if (o?.precious) totals[allowIgnored ? "allowedPrecious" : "precious"]++;
  }
  // 3. Every process outside a removed worktree is alive (never signalled); the ones inside were stopped.
  for (const { p, cwd } of f.procs) {
    const inRemoved = [...removed].some((w) => cwd === w || cwd.startsWith(`${w}/`));
    // Killed = ended by a signal (a process that exits by itself, e.g. a tail whose file is gone, is not).
    const killed = p.signalCode !== null;
    const dead = killed || p.exitCode !== null;
    if (!inRemoved) expect({ where: `${where} fleet ${f.n}`, pid: p.pid, cwd, killed }).toEqual({ where: `${where} fleet ${f.n}`, pid: p.pid, cwd, killed: false });
    else if (killed) totals.killed++;
    if (!dead) p.kill("SIGKILL");
    totals.procs++;
  }
  // D40 identity: the other repository's worktree is still there, still listed, its file byte for byte.
  if (f.foreign) {
    const where2 = `${where} fleet ${f.n} foreign`;
    expect({ where: where2, exists: existsSync(join(f.foreign, "README.md")), readme: existsSync(join(f.foreign, "README.md")) ? readFileSync(join(f.foreign, "README.md"), "utf8") : null }).toEqual({ where: where2, exists: true, readme: "hello\n" });
  }
  totals.fleets++;
  rmSync(f.dir, { recursive: true, force: true });
}

/**
 * A batch of fleets reaped by ONE `fleet reap --repo A --repo B ...` run (each fleet is its own repository and is
 * judged on its own; one process start and one process-table read serve the batch).
 */
async function oneBatch(tpl: string, b: number, size: number): Promise<void> {
  const r = prng((SEED ^ Math.imul(b + 1, 0x9e3779b1)) >>> 0);
  const allowIgnored = r.chance(0.15);
  const fleets: Fleet[] = [];
  for (let k = 0; k < size; k++) fleets.push(await buildFleet(tpl, b * BATCH + k, r, allowIgnored));
  const home = join(root, `home-${b}`);
  mkdirSync(home);
  const jobsLedger = join(home, "jobs-ledger.jsonl");
  writeFileSync(
    jobsLedger,
    fleets
      .flatMap((f) => f.jobs)
      .map((j) => `${j}\n`)
      .join(""),
  );
  await Bun.sleep(30); // every process has its cwd and open files before the scan
  const argv = ["fleet", "reap", ...fleets.flatMap((f) => ["--repo", f.repo]), "--execute", "--host", "none", "--grace-ms", "200", "--concurrency", "4", "--jobs-ledger", jobsLedger, "--ledger", join(home, "dispatch-ledger.jsonl"), "--json"];
  if (allowIgnored) argv.push("--allow-ignored");
  const res = await runBinary(argv, { env: e2eEnv({ MOGUI_HOME: home, HOME: home }) });
  await Bun.sleep(100); // let the signalled children be reaped
  const where = `MOGUI_FLEET_SEED=${SEED} batch ${b}`;
  expect({ where, code: res.code, stderr: res.code === 0 ? "" : res.stderr }).toEqual({ where, code: 0, stderr: "" });
  for (const w of JSON.parse(res.stdout).worktrees as { outcome: string; reason: string | null }[]) {
    if (w.outcome !== "left") continue;
    const k = (w.reason ?? "?").replace(/:.*$/, "").replace(/^(bound to open|live|process|Current branch|Worktree is locked|after stopping).*/, "$1");
    keptBy[k] = (keptBy[k] ?? 0) + 1;
  }
  for (const f of fleets) judge(f, where, allowIgnored);
  rmSync(home, { recursive: true, force: true });
}

test(`fleet reap --execute over ${RUNS} real fleets against the reap oracle (MOGUI_FLEET_SEED=${SEED})`, async () => {
  console.log(`fleet reap real property: MOGUI_FLEET_SEED=${SEED} MOGUI_FLEET_REAL_RUNS=${RUNS}`);
  const tpl = template();
  let next = 0;
  const batches = Math.ceil(RUNS / BATCH);
  await Promise.all(
    Array.from({ length: BOUND }, async () => {
      while (next < batches) {
        const b = next++;
        await oneBatch(tpl, b, Math.min(BATCH, RUNS - b * BATCH));
      }
    }),
  );
  console.log(`fleet reap real property: ${JSON.stringify(totals)} kept by reason: ${JSON.stringify(keptBy)}`);
  expect(totals.fleets).toBe(RUNS);
  expect(totals.unsafe).toBe(0);
  // The D31 checks and the signals were really exercised.
  if (RUNS >= 100) {
    expect(totals.removed).toBeGreaterThan(0);
    expect(totals.hiddenFlags).toBeGreaterThan(0);
    expect(totals.precious).toBeGreaterThan(0);
    expect(totals.killed).toBeGreaterThan(0);
    expect(totals.identity).toBeGreaterThan(0);
    expect(totals.operation).toBeGreaterThan(0);
  }
}, 600_000);
