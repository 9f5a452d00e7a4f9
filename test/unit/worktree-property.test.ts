/**
 * Property test for worktreeSafety and the real `reap`: a wrong removal destroys work, a skipped one costs a
 * manual cleanup. 240 random worktree states (4 repos run concurrently, each one repo with a bare origin and
 * many linked worktrees), and an independent oracle decides for each whether the worktree MUST be left. Whenever
 * it says so, worktreeSafety must answer "not safe" and a real execute-mode `reap` must leave the directory.
 *
 * A state: 0-4 branch commits (new file / appended, removed or replaced line); then none, a prefix or all of
 * them brought to main by a merge commit, a squash, or cherry-picks of a random subset; then 0-2 main commits
 * (an unrelated file, an edit of a line the branch may also touch, an append to a file the branch made, or a
 * revert of the squash/merge/cherry-pick); pushed; then, independently, a dirty tracked edit, an untracked
 * file, a staged-only change, a detached HEAD (at HEAD or at origin/main), a lock, a deleted directory. Half
 * the repos set `status.showUntrackedFiles=no`.
 *
 * Reproduce: `MOGUI_PROPERTY_SEED=<seed> bun test test/unit/worktree-property.test.ts` (the seed is printed on
 * every run and in every failure; each state has its own PRNG derived from (seed, index), so a state does not
 * depend on timing). `MOGUI_PROPERTY_CASES` changes the count.
 *
 * THE ORACLE ("must leave") is computed from git plumbing and TypeScript, sharing nothing with the
 * implementation (which uses `status --porcelain`, `branch --show-current`, `worktree list`, `branch --merged`
 * and `merge-tree` tree equality):
 *   - missing:     the directory is gone (node fs).
 *   - locked:      `<gitdir>/locked` exists, where gitdir is read from the worktree's `.git` file (node fs).
 *   - uncommitted: after `update-index --refresh`, `diff-files --quiet` or `diff-index --cached --quiet HEAD`
 *                  fails, or `ls-files --others --exclude-standard` lists anything (modified, staged-only and
 *                  untracked work all count).
 *   - detached:    `symbolic-ref -q HEAD` fails (work on a detached HEAD has no branch to find it by).
 *   - unique content (the part that must be squash-aware): let B = `merge-base origin/main HEAD`. Every file
 *     the generator writes is a list of globally UNIQUE lines, so "a change the branch made" is exactly a line
 *     added or removed relative to B, per path. The branch's work is in origin/main iff, for every path whose
 *     blob differs between B and HEAD (blobs read with `ls-tree -r` + `cat-file --batch`), every line HEAD added
 *     is present in origin/main's version of that path, every line HEAD removed is absent from it, and a path
 *     HEAD deleted is absent from origin/main. Otherwise the branch holds unique work. When HEAD is an ancestor
 *     of origin/main (B == HEAD) nothing is unique: its commits are in origin/main's history even if main later
 *     reverted them (and `worktree remove` never deletes the branch).
 *     This is a set inclusion, not a merge: it proves inclusion after a merge commit, a squash or cherry-picks
 *     alike, and it sees a squash that main later reverted (the lines are gone again), while
 *     `git diff origin/main...HEAD` would call every squash-merged branch unmerged and a tip-to-tip diff would
 *     call every branch whose main moved on unmerged.
 *     Why it is sound against the implementation: if the branch added line L (unique) and origin/main lacks L,
 *     a clean three-way merge applies the hunk that inserts L, so the merged tree contains L and cannot equal
 *     origin/main's tree; an overlapping hunk is a conflict (merge-tree exit 1), which is "not merged" too.
 *     The same holds for a removed line. (Files are never renamed and the branch never deletes one, so rename
 *     detection cannot carry a line to another path.) So "oracle says unique" can never meet "safe".
 * The oracle may say "nothing unique" where the implementation still leaves the worktree (e.g. main appended
 * to a file right after squashing it: an add/add conflict for merge-tree). That is allowed (conservative); the
 * test counts and prints how often, and asserts that the obvious cases (a plain merge of the whole branch, a
 * squash or cherry-pick of the whole branch with nothing after it, a branch with no commits) ARE removed.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../src/lib/context.ts";
import { realRunner, type RunResult, type Runner } from "../../src/lib/runner.ts";
import { reap } from "../../src/reap/worker-reap.ts";
import { worktreeSafety, type SafetyVerdict } from "../../src/reap/worktree-safety.ts";
import { gitEnv, makeRepo, type Fixture } from "../helpers/git.ts";

const SEED = Number(process.env.MOGUI_PROPERTY_SEED ?? 0x5eed_2026) >>> 0;
const CASES = Number(process.env.MOGUI_PROPERTY_CASES ?? 240);
const REPOS = 4;

// ------------------------------------------------------------------------------------------------ PRNG

/** mulberry32: tiny, seedable, good enough to pick test cases. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}
type Rng = ReturnType<typeof prng>;

// ------------------------------------------------------------------------------------------------ git helpers

/** Isolated git, and no `maintenance --auto` child after every commit (it doubles the cost of a commit). */
const ENV: Record<string, string> = { ...gitEnv(), GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_0: "maintenance.auto", GIT_CONFIG_VALUE_0: "false", GIT_CONFIG_KEY_1: "gc.auto", GIT_CONFIG_VALUE_1: "0" };

/** The implementation runs with plain isolated git (no config tweaks). */
const IMPL_ENV = gitEnv();

async function gitRun(cwd: string, args: string[], stdin?: string): Promise<RunResult> {
  return realRunner(["git", "-C", cwd, ...args], { env: ENV, timeoutMs: 30_000, stdin });
}

/** git that must succeed; its trimmed stdout. */
async function G(cwd: string, ...args: string[]): Promise<string> {
  const r = await gitRun(cwd, args);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} (in ${cwd}) failed: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

async function tryG(cwd: string, ...args: string[]): Promise<boolean> {
  return (await gitRun(cwd, args)).code === 0;
}

function readLines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").filter(Boolean);
}
function writeLines(path: string, lines: readonly string[]): void {
  writeFileSync(path, lines.map((l) => `${l}\n`).join(""));
}

// ------------------------------------------------------------------------------------------------ generator

interface Scenario {
  i: number;
  rng: Rng;
  f: Fixture;
  wt: string;
  branch: string;
  /** Human-readable list of what was done, for failure reports. */
  log: string[];
  commits: number;
  /** The whole branch reached main by a true merge (its tip is an ancestor of origin/main). */
  wholeMerged: boolean;
  /** The whole branch reached main by squash or cherry-pick, and main did nothing to this scenario after. */
  wholeCopiedNothingAfter: boolean;
  mutated: boolean;
  lineNo: number;
}

/** Every generated line is unique across the whole run: `s<scenario>-L<n>`. */
const nextLine = (s: Scenario) => `s${s.i}-L${++s.lineNo}`;

/** One branch commit: a new file, an appended line, a removed line or a replaced line. */
async function branchCommit(s: Scenario, files: string[]): Promise<void> {
  const { rng } = s;
  const kind = rng.pick(["new", "append", "remove", "replace"] as const);
  const target = rng.pick(files);
  if (kind === "new") {
    const name = `s${s.i}/f${files.length}.txt`;
    writeLines(join(s.wt, name), [nextLine(s), nextLine(s)]);
    files.push(name);
    s.log.push(`branch: new ${name}`);
  } else {
    const p = join(s.wt, target);
    const lines = readLines(p);
    if (kind === "append" || lines.length < 2) lines.push(nextLine(s));
    else if (kind === "remove") lines.splice(rng.int(0, lines.length - 1), 1);
    else lines[rng.int(0, lines.length - 1)] = nextLine(s);
    writeLines(p, lines);
    s.log.push(`branch: ${kind} in ${target}`);
  }
  await G(s.wt, "add", "-A");
  await G(s.wt, "commit", "-q", "-m", `s${s.i} commit`);
}

type Inclusion = { sha: string; isMerge: boolean } | null;

/** Bring some, all or none of the branch to main; returns the commit that did it (for a later revert). */
async function include(s: Scenario, shas: string[]): Promise<Inclusion> {
  const { rng, f } = s;
  if (shas.length === 0) return null;
  const mode = rng.pick(["none", "merge", "squash", "cherry-pick"] as const);
  const k = rng.chance(0.6) ? shas.length : rng.int(1, shas.length);
  const upTo = shas[k - 1]!;
  const whole = k === shas.length;
  if (mode === "none") {
    s.log.push("main: nothing included");
    return null;
  }
  if (mode === "merge") {
    await G(f.repo, "merge", "-q", "--no-ff", "-m", `merge s${s.i}@${k}`, upTo);
    s.log.push(`main: merge first ${k}/${shas.length} commits`);
    s.wholeMerged = whole;
    return { sha: await G(f.repo, "rev-parse", "HEAD"), isMerge: true };
  }
  if (mode === "squash") {
    await G(f.repo, "merge", "-q", "--squash", upTo);
    await G(f.repo, "commit", "-q", "-m", `squash s${s.i}@${k}`);
    s.log.push(`main: squash first ${k}/${shas.length} commits`);
    s.wholeCopiedNothingAfter = whole;
    return { sha: await G(f.repo, "rev-parse", "HEAD"), isMerge: false };
  }
  // cherry-pick a random subset in order; a pick that conflicts or comes out empty is aborted and skipped
  let picked = 0;
  for (const sha of shas) {
    if (!rng.chance(0.7)) continue;
    if (await tryG(f.repo, "cherry-pick", sha)) picked++;
    else await tryG(f.repo, "cherry-pick", "--abort");
  }
  s.log.push(`main: cherry-picked ${picked}/${shas.length} commits`);
  s.wholeCopiedNothingAfter = picked === shas.length;
  return picked ? { sha: await G(f.repo, "rev-parse", "HEAD"), isMerge: false } : null;
}

/** Later commits on main: unrelated files, edits to the scenario's files, or a revert of the inclusion. */
async function mainAfter(s: Scenario, inclusion: Inclusion): Promise<void> {
  const { rng, f } = s;
  const n = rng.pick([0, 0, 1, 1, 2]);
  for (let j = 0; j < n; j++) {
    const kind = rng.pick(["unrelated", "edit-base", "append-file", "revert", "revert"] as const);
    if (kind === "revert" && inclusion) {
      const args = inclusion.isMerge ? ["revert", "--no-edit", "-m", "1", inclusion.sha] : ["revert", "--no-edit", inclusion.sha];
      if (await tryG(f.repo, ...args)) {
        s.log.push("main: revert the inclusion");
        s.wholeCopiedNothingAfter = false;
        inclusion = null;
      } else {
        await tryG(f.repo, "revert", "--abort");
      }
      continue;
    }
    if (kind === "unrelated" || kind === "revert") {
      // A file of its own keeps "squash with nothing after" obviously safe.
      const name = `s${s.i}/main-${j}.txt`;
      writeLines(join(f.repo, name), [nextLine(s)]);
      s.log.push(`main: unrelated ${name}`);
    } else {
      const files = (await G(f.repo, "ls-files", `s${s.i}`)).split("\n").filter((x) => x && !x.includes("main-"));
      const target = kind === "edit-base" || files.length === 0 ? `s${s.i}/base.txt` : rng.pick(files);
      const lines = readLines(join(f.repo, target));
      if (kind === "edit-base") lines[rng.int(0, lines.length - 1)] = nextLine(s);
      else lines.push(nextLine(s));
      writeLines(join(f.repo, target), lines);
      s.log.push(`main: ${kind} ${target}`);
      s.wholeCopiedNothingAfter = false;
    }
    await G(f.repo, "add", "-A");
    await G(f.repo, "commit", "-q", "-m", `main after s${s.i}`);
  }
}

/** Uncommitted work, detached HEAD, a lock, a deleted directory: each independently. */
async function mutate(s: Scenario): Promise<void> {
  const { rng, f } = s;
  const base = join(s.wt, `s${s.i}`, "base.txt");
  if (rng.chance(0.1)) {
    writeLines(base, [...readLines(base), "dirty edit"]);
    s.log.push("wt: dirty tracked edit");
  }
  if (rng.chance(0.1)) {
    writeFileSync(join(s.wt, `untracked-${s.i}.txt`), "untracked\n");
    s.log.push("wt: untracked file");
  }
  if (rng.chance(0.1)) {
    if (rng.chance(0.5)) {
      writeFileSync(join(s.wt, `staged-${s.i}.txt`), "staged\n");
      await G(s.wt, "add", `staged-${s.i}.txt`);
    } else {
      writeLines(base, [...readLines(base), "staged edit"]);
      await G(s.wt, "add", base);
    }
    s.log.push("wt: staged-only change");
  }
  if (rng.chance(0.08)) {
    const at = rng.chance(0.5) ? "HEAD" : "origin/main";
    // Uncommitted changes may block a checkout to origin/main: then it stays attached.
    if (await tryG(s.wt, "checkout", "-q", "--detach", at)) s.log.push(`wt: detached HEAD at ${at}`);
  }
  if (rng.chance(0.06)) {
    await G(f.repo, "worktree", "lock", "--reason", `busy ${s.i}`, s.wt);
    s.log.push("wt: locked");
  }
  if (rng.chance(0.05)) {
    rmSync(s.wt, { recursive: true, force: true });
    s.log.push("wt: directory deleted");
  }
  s.mutated = s.log.some((l) => l.startsWith("wt:"));
}

/** One random worktree state in repo `f`, with origin/main pushed to its final value for this state. */
async function generate(f: Fixture, root: string, i: number): Promise<Scenario> {
  const s: Scenario = {
    i,
    rng: prng((SEED ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0),
    f,
    wt: join(f.dir, `w${i}`),
    branch: `p${i}`,
    log: [],
    commits: 0,
    wholeMerged: false,
    wholeCopiedNothingAfter: false,
    mutated: false,
    lineNo: 0,
  };
  // The scenario's base file is committed on the branch and merged into main at once: that commit is the merge
  // base, and each worktree checks out only its own files (not every other scenario's).
  await G(f.repo, "worktree", "add", "-q", "-b", s.branch, s.wt, root);
  mkdirSync(join(s.wt, `s${i}`));
  writeLines(join(s.wt, `s${i}`, "base.txt"), [nextLine(s), nextLine(s), nextLine(s), nextLine(s)]);
  await G(s.wt, "add", "-A");
  await G(s.wt, "commit", "-q", "-m", `s${i} base`);
  const fork = await G(s.wt, "rev-parse", "HEAD");
  await G(f.repo, "merge", "-q", "--no-ff", "-m", `s${i} base`, fork);
  const files = [`s${i}/base.txt`];
  s.commits = s.rng.pick([0, 1, 1, 2, 2, 3, 4]);
  for (let c = 0; c < s.commits; c++) await branchCommit(s, files);
  const shas = s.commits ? (await G(s.wt, "rev-list", "--reverse", `${fork}..HEAD`)).split("\n") : [];
  await mainAfter(s, await include(s, shas));
  await G(f.repo, "push", "-q", "origin", "main");
  await mutate(s);
  return s;
}

// ------------------------------------------------------------------------------------------------ oracle

interface Oracle {
  missing: boolean;
  locked: boolean;
  uncommitted: boolean;
  detached: boolean;
  uniqueContent: boolean;
  why: string[];
}

async function lsTree(cwd: string, rev: string): Promise<Map<string, string>> {
  const r = await gitRun(cwd, ["ls-tree", "-r", "-z", rev]);
  if (r.code !== 0) throw new Error(`oracle: ls-tree ${rev}: ${r.stderr}`);
  const m = new Map<string, string>();
  for (const rec of r.stdout.split("\0").filter(Boolean)) {
    const [meta, path] = rec.split("\t") as [string, string];
    m.set(path, meta.split(" ")[2]!);
  }
  return m;
}

/** Read many blobs with one `cat-file --batch`. */
async function blobs(cwd: string, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return out;
  const r = await gitRun(cwd, ["cat-file", "--batch"], uniq.map((x) => `${x}\n`).join(""));
  if (r.code !== 0) throw new Error(`oracle: cat-file: ${r.stderr}`);
  let text = r.stdout;
  for (const id of uniq) {
    const nl = text.indexOf("\n");
    const size = Number(text.slice(0, nl).split(" ")[2]);
    // Generated content is ASCII, so characters == bytes.
    out.set(id, text.slice(nl + 1, nl + 1 + size).split("\n").filter(Boolean));
    text = text.slice(nl + 1 + size + 1);
  }
  return out;
}

async function uniqueContent(wt: string): Promise<string | null> {
  const [ours, head] = (await G(wt, "rev-parse", "origin/main", "HEAD")).split("\n") as [string, string];
  const mb = await gitRun(wt, ["merge-base", ours, head]);
  if (mb.code !== 0) return "no merge base";
  const base = mb.stdout.trim();
  if (base === head) return null; // HEAD is in origin/main's history: nothing of its own
  const [tb, th, to] = await Promise.all([lsTree(wt, base), lsTree(wt, head), lsTree(wt, ours)]);
  const changed = [...new Set([...tb.keys(), ...th.keys()])].filter((p) => tb.get(p) !== th.get(p));
  const ids = changed.flatMap((p) => [tb.get(p), th.get(p), to.get(p)]).filter((x): x is string => Boolean(x));
  const text = await blobs(wt, ids);
  const lines = (id: string | undefined) => (id ? text.get(id)! : []);
  for (const p of changed) {
    if (!th.has(p)) {
      if (to.has(p)) return `${p}: deleted on the branch, present in origin/main`;
      continue;
    }
    const b = new Set(lines(tb.get(p)));
    const h = new Set(lines(th.get(p)));
    const o = new Set(lines(to.get(p)));
    if (!to.has(p)) return `${p}: on the branch, not in origin/main`;
    for (const l of h) if (!b.has(l) && !o.has(l)) return `${p}: line '${l}' added on the branch, missing in origin/main`;
    for (const l of b) if (!h.has(l) && o.has(l)) return `${p}: line '${l}' removed on the branch, still in origin/main`;
  }
  return null;
}

async function oracle(wt: string): Promise<Oracle> {
  const o: Oracle = { missing: false, locked: false, uncommitted: false, detached: false, uniqueContent: false, why: [] };
  if (!existsSync(wt)) {
    o.missing = true;
    o.why.push("missing");
    return o;
  }
  const gitdir = readFileSync(join(wt, ".git"), "utf8").replace(/^gitdir: /, "").trim();
  if (existsSync(join(gitdir, "locked"))) {
    o.locked = true;
    o.why.push("locked");
  }
  await gitRun(wt, ["update-index", "-q", "--refresh"]);
  const [files, index, others, sym] = await Promise.all([
    gitRun(wt, ["diff-files", "--quiet"]),
    gitRun(wt, ["diff-index", "--cached", "--quiet", "HEAD"]),
    gitRun(wt, ["ls-files", "--others", "--exclude-standard"]),
    gitRun(wt, ["symbolic-ref", "-q", "HEAD"]),
  ]);
  if (files.code !== 0 || index.code !== 0 || others.stdout.trim() !== "") {
    o.uncommitted = true;
    o.why.push("uncommitted");
  }
  if (sym.code !== 0) {
    o.detached = true;
    o.why.push("detached");
  }
  // Already a must-leave: the content question cannot change the verdict the test demands.
  if (o.why.length) return o;
  const u = await uniqueContent(wt);
  if (u) {
    o.uniqueContent = true;
    o.why.push(`unique: ${u}`);
  }
  return o;
}

// ------------------------------------------------------------------------------------------------ the test

/** orca answers one settled legacy dispatch without a terminal; git is real. */
function reapCtx(): Ctx {
  const runner: Runner = async (argv, opts) => {
    if (argv[0] === "orca") {
      const stdout = JSON.stringify({ dispatch_id: "ctx_000000000001", task_id: "task_000000000001", status: "COMPLETED" });
      return { argv: [...argv], code: 0, signal: null, stdout, stderr: "", timedOut: false, missing: false };
    }
    return realRunner(argv, opts);
  };
  return {
    io: { stdout: () => {}, stderr: () => {}, stdoutIsTTY: false, stderrIsTTY: false },
    env: { ...IMPL_ENV, ORCA_CLI_COMMAND: "orca" },
    cwd: "/",
    runner,
    now: () => 1_722_787_200_000,
    debug: false,
    self: [],
  };
}

interface Outcome {
  s: Scenario;
  o: Oracle;
  v: SafetyVerdict;
  action: string;
  existsAfter: boolean;
}

async function runOne(s: Scenario): Promise<Outcome> {
  const o = await oracle(s.wt);
  const v = await worktreeSafety({ runner: realRunner, env: IMPL_ENV }, s.wt);
  let action: string;
  try {
    action = (await reap(reapCtx(), { taskId: "task_000000000001", worktree: s.wt, execute: true })).record.actions_taken;
  } catch (e) {
    action = `reap threw: ${(e as Error).message}`; // reported with the seed below, not as a bare crash
  }
  return { s, o, v, action, existsAfter: existsSync(s.wt) };
}

const fixtures: Fixture[] = [];
afterAll(() => {
  for (const f of fixtures.splice(0)) rmSync(f.dir, { recursive: true, force: true });
});

/**
 * REPOS independent repos, each a pipeline: generate a state, check it, generate the next. Within a repo the
 * steps are sequential (a check must see a stable origin/main); the repos run concurrently.
 */
async function pipeline(r: number): Promise<Outcome[]> {
  const f = makeRepo();
  fixtures.push(f);
  // Half the repos hide untracked files from plain `git status` (a real setting in big repos): the oracle's
  // `ls-files --others` does not care, so the implementation must not either.
  if (r % 2 === 1) await G(f.repo, "config", "status.showUntrackedFiles", "no");
  const root = await G(f.repo, "rev-parse", "HEAD");
  const out: Outcome[] = [];
  for (let i = r; i < CASES; i += REPOS) out.push(await runOne(await generate(f, root, i)));
  return out;
}

test(`worktree safety never removes work (seed ${SEED}, ${CASES} states)`, async () => {
  const t0 = Date.now();
  const results = (await Promise.all(Array.from({ length: REPOS }, (_, r) => pipeline(r)))).flat().sort((a, b) => a.s.i - b.s.i);

  const failures: string[] = [];
  const fail = (r: Outcome, msg: string) =>
    failures.push(`[seed ${SEED}] scenario ${r.s.i} (${r.s.wt}): ${msg}\n    steps: ${r.s.log.join(" | ") || "(none)"}\n    oracle: ${r.o.why.join(", ") || "nothing unique"}\n    verdict: ${JSON.stringify(r.v)}\n    action: ${r.action}`);
  let mustLeave = 0;
  let removed = 0;
  let conservative = 0;
  let obvious = 0;
  let contentOnly = 0;
  let safeByAncestry = 0;
  let safeByTree = 0;
  const conservativeReasons = new Map<string, number>();

  for (const r of results) {
    const { o, v } = r;
    const leave = o.missing || o.locked || o.uncommitted || o.detached || o.uniqueContent;
    const existedBefore = !o.missing;
    // The reap and the verdict agree, and the directory on disk matches the action.
    if (v.safe) {
      if (r.action !== `worktree_removed:${r.s.wt}`) fail(r, "safe verdict, but the reap did not remove");
      if (r.existsAfter) fail(r, "the reap said removed, but the directory is still there");
      removed++;
    } else {
      if (!r.action.startsWith(`worktree_left:${r.s.wt}:`)) fail(r, "not-safe verdict, but the reap did not leave");
      if (r.existsAfter !== existedBefore) fail(r, "left, yet the directory changed on disk");
    }
    if (v.safe && v.reason === "branch is merged into origin/main") safeByAncestry++;
    if (v.safe && v.reason === "branch changes are already included in origin/main") safeByTree++;
    if (leave) {
      mustLeave++;
      if (o.why.length === 1 && o.uniqueContent) contentOnly++;
      if (v.safe) fail(r, "ORACLE SAYS MUST LEAVE, but worktreeSafety said safe");
      if (existedBefore && !r.existsAfter) fail(r, "ORACLE SAYS MUST LEAVE, but the reap removed the directory");
      if (o.missing && !(v.safe === false && v.reason === "Worktree path does not exist")) fail(r, "missing path not reported as such");
      if (o.locked && !o.missing && !o.uncommitted && !o.detached && !(v.safe === false && v.reason.startsWith("Worktree is locked: "))) fail(r, "lock not reported");
      if (o.uncommitted && !o.missing && !(v.safe === false && v.reason === "Worktree has uncommitted changes")) fail(r, "uncommitted not reported first");
    } else if (!v.safe) {
      conservative++;
      const key = v.reason.replace(/p\d+/, "<b>");
      conservativeReasons.set(key, (conservativeReasons.get(key) ?? 0) + 1);
    }
    // The obvious cases must be removed, or the reaper is useless.
    const plainSafe = !r.s.mutated && (r.s.commits === 0 || r.s.wholeMerged || r.s.wholeCopiedNothingAfter);
    if (plainSafe) {
      obvious++;
      if (!v.safe) fail(r, "an obviously safe worktree (whole branch merged/squashed/picked, clean) was left");
      if (leave) fail(r, "oracle disagrees with the generator about an obviously safe worktree");
    }
  }

  // Clean up here rather than in afterAll: thousands of files take longer than a hook may.
  for (const f of fixtures.splice(0)) rmSync(f.dir, { recursive: true, force: true });

  const summary = [
    `worktree property: seed ${SEED}, ${results.length} states in ${REPOS} repos, ${Date.now() - t0} ms`,
    `  must leave (oracle): ${mustLeave} (${contentOnly} only for unique content); removed: ${removed} (${safeByAncestry} by ancestry, ${safeByTree} by squash tree equality); obvious-safe asserted removed: ${obvious}`,
    `  conservative (oracle: nothing unique, still left): ${conservative}`,
    ...[...conservativeReasons].map(([k, n]) => `    ${n} x ${k}`),
  ].join("\n");
  console.log(summary);
  if (failures.length) console.log(`REPRODUCE: MOGUI_PROPERTY_SEED=${SEED} MOGUI_PROPERTY_CASES=${CASES}\n${failures.join("\n")}`);
  expect(failures, `seed ${SEED}`).toEqual([]);
  expect(results.length).toBeGreaterThanOrEqual(200);
  // The generator must actually produce both kinds, or the property says nothing.
  expect(mustLeave).toBeGreaterThan(40);
  expect(removed).toBeGreaterThan(20);
  expect(obvious).toBeGreaterThan(10);
  expect(contentOnly).toBeGreaterThan(20);
  expect(safeByAncestry).toBeGreaterThan(5);
  expect(safeByTree).toBeGreaterThan(5);
}, 120_000);
