/**
 * Property test for worktreeSafety and the real `reap`: a wrong removal destroys work, a skipped one costs a
 * manual cleanup. 120 random worktree states by default (4 repos run concurrently, each one repo with a bare origin and
 * many linked worktrees), and an independent oracle (test/helpers/reap-oracle.ts) decides for each whether the
 * worktree holds work. Whenever it does, the real execute-mode `reap` (worktreeSafety inside it) must say "left" and
 * must leave the directory; D31's refusals (hidden index flags, precious ignored files) must hold even where no
 * byte would be lost; and the obviously safe states (clean, whole branch merged or copied, only regenerable
 * ignored files) must really be removed, so the test fails both ways.
 *
 * A state: 0-4 branch commits (new file / appended, removed or replaced line); then none, a prefix or all of
 * them brought to main by a merge commit, a squash, or cherry-picks of a random subset; then 0-2 main commits
 * (an unrelated file, an edit of a line the branch may also touch, an append to a file the branch made, or a
 * revert of the squash/merge/cherry-pick); pushed; then, independently, a dirty tracked edit, an untracked
 * file, a staged-only change, a detached HEAD (at HEAD or at origin/main), a skip-worktree or assume-unchanged
 * bit (with or without a hidden edit), a precious ignored file (`.env`, keys inside ignored directories, names
 * with spaces, newlines and non-ASCII, an ignored nested repository), regenerable ignored files (`node_modules/`
 * with precious-looking names, `dist/`, logs, a symlink to a directory OUTSIDE the worktree whose files must
 * survive), a lock, a deleted directory. At check time, independently: the reap goes through a symlink to the
 * worktree, origin/main is missing, or the run passes allowIgnored. Half the repos set
 * `status.showUntrackedFiles=no`; some worktree directories have spaces and non-ASCII in their names.
 *
 * Reproduce: `MOGUI_PROPERTY_SEED=<seed> bun test test/unit/workers/worktree-property.test.ts` (the seed is printed on
 * every run and in every failure; each state has its own PRNG derived from (seed, index), so a state does not
 * depend on timing). `MOGUI_PROPERTY_CASES` changes the count.
 *
 * Why the unique-content part of the oracle is sound against the implementation: if the branch added line L
 * (unique) and origin/main lacks L, a clean three-way merge applies the hunk that inserts L, so the merged tree
 * contains L and cannot equal origin/main's tree; an overlapping hunk is a conflict (merge-tree exit 1), which is
 * "not merged" too. The same holds for a removed line. The oracle may say "nothing unique" where the
 * implementation still leaves the worktree (e.g. main appended to a file right after squashing it): allowed
 * (conservative); the test counts and prints how often.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realRunner, type RunResult } from "../../../src/lib/runner.ts";
import { reap } from "../../../src/workers/reap/worker-reap.ts";
import type { SafetyVerdict } from "../../../src/workers/reap/worktree-safety.ts";
import { gitEnv, makeRepo, type Fixture } from "../../helpers/git.ts";
import { prng } from "../../helpers/prng.ts";
import { reapOracle, settledReapCtx, type OracleVerdict } from "../../helpers/reap-oracle.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

const SEED = Number(process.env.MOGUI_PROPERTY_SEED ?? 0x5eed_2026) >>> 0;
const CASES = Number(process.env.MOGUI_PROPERTY_CASES ?? 120); // the suite stays under 5 minutes; raise it to search harder
const REPOS = 4;

// ------------------------------------------------------------------------------------------------ PRNG

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
  /** A file outside the worktree that an ignored symlink inside it points at: it must survive any reap. */
  outside: string | null;
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
    await G(f.repo, "commit", "-q", "--allow-empty", "-m", `squash s${s.i}@${k}`); // commits that cancel out squash to nothing
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
  await hideAndIgnore(s);
  if (rng.chance(0.06)) {
    await G(f.repo, "worktree", "lock", "--reason", `busy ${s.i}`, s.wt);
    s.log.push("wt: locked");
  }
  if (rng.chance(0.05)) {
    rmSync(s.wt, { recursive: true, force: true });
    s.log.push("wt: directory deleted");
  }
  // Regenerable ignored files are not work: a state with only those is still obviously removable.
  s.mutated = s.log.some((l) => l.startsWith("wt:"));
}

/** Precious ignored files, all under the root .gitignore (IGNORE); `creds/` is NOT ignored (plain untracked). */
const PRECIOUS = (i: number) => [".env", `secrets/s${i}/prod.pem`, `sub dir ${i}/.env.local`, `deep/é${i}/id_rsa`, `cfg/app${i}.local.json`, `nl\nname${i}.pem`, `dist/keys/s${i}.key`, `build-${i}.log`];
const IGNORE = ["node_modules/", "dist/", "secrets/", ".env", ".env.*", "*.pem", "id_rsa*", "*.local.json", "vendor/", "*.log", "__pycache__/"];

function put(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** D31's hiding places: index bits (with or without an edit behind them) and ignored files, precious or not. */
async function hideAndIgnore(s: Scenario): Promise<void> {
  const { rng } = s;
  if (!existsSync(join(s.wt, `s${s.i}`, "base.txt"))) return; // detached at origin/main before its base merged
  if (rng.chance(0.12)) {
    const flag = rng.pick(["--skip-worktree", "--assume-unchanged"] as const);
    await G(s.wt, "update-index", flag, `s${s.i}/base.txt`);
    if (rng.chance(0.7)) {
      const base = join(s.wt, `s${s.i}`, "base.txt");
      writeLines(base, [...readLines(base), "hidden edit"]);
      s.log.push(`wt: ${flag} with a hidden edit`);
    } else s.log.push(`wt: ${flag}, no edit`);
  }
  if (rng.chance(0.15)) {
    const rel = rng.pick(PRECIOUS(s.i));
    put(s.wt, rel, "SECRET=only-copy\n");
    s.log.push(`wt: precious ignored ${JSON.stringify(rel)}`);
  }
  if (rng.chance(0.03)) {
    const repo = join(s.wt, "vendor", `lib${s.i}`);
    mkdirSync(repo, { recursive: true });
    await G(repo, "init", "-q", "-b", "main");
    writeFileSync(join(repo, "x"), "x\n");
    await G(repo, "add", "x");
    await G(repo, "commit", "-q", "-m", "unpushed");
    s.log.push("wt: ignored nested repository");
  }
  if (rng.chance(0.03)) {
    put(s.wt, `creds/credentials-${s.i}.txt`, "not ignored\n");
    s.log.push("wt: untracked precious-looking file (not ignored)");
  }
  if (rng.chance(0.3)) {
    // Regenerable: never work, never a reason to leave. Logged as `regen:` so the state stays "obviously safe".
    // D40: a log is not provably regenerable (it is in PRECIOUS); compiled Python is.
    const kind = rng.pick(["node_modules", "dist", "pycache", "outside-link"] as const);
    if (kind === "node_modules") {
      put(s.wt, "node_modules/aws-sdk/lib/credentials.js", "module.exports = 1;\n");
      put(s.wt, "node_modules/.env", "from a package\n");
    } else if (kind === "dist") put(s.wt, `dist/app ${s.i}.js`, "1\n");
    else if (kind === "pycache") put(s.wt, `__pycache__/m${s.i}.cpython-312.pyc`, "bytecode\n");
    else {
      const outside = join(s.f.dir, `outside-${s.i}`);
      put(outside, "keep.txt", "outside the worktree\n");
      mkdirSync(join(s.wt, "dist"), { recursive: true });
      symlinkSync(outside, join(s.wt, "dist", "out"));
      s.outside = join(outside, "keep.txt");
    }
    s.log.push(`regen: ${kind}`);
  }
}

/** One random worktree state in repo `f`, with origin/main pushed to its final value for this state. */
async function generate(f: Fixture, root: string, i: number): Promise<Scenario> {
  const s: Scenario = {
    i,
    rng: prng((SEED ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0),
    f,
    // Some directory names carry spaces and non-ASCII: git's paths must survive every quoting rule.
    wt: join(f.dir, i % 7 === 3 ? `w ${i} é` : `w${i}`),
    branch: `p${i}`,
    log: [],
    commits: 0,
    wholeMerged: false,
    wholeCopiedNothingAfter: false,
    mutated: false,
    lineNo: 0,
    outside: null,
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
  // What a push of main would leave behind locally (the reaper reads only refs/remotes/origin/main), minus the
  // pack-objects / receive-pack round trip per state.
  await G(f.repo, "update-ref", "refs/remotes/origin/main", "refs/heads/main");
  await mutate(s);
  return s;
}

// ------------------------------------------------------------------------------------------------ the test

const reapCtx = () => settledReapCtx(IMPL_ENV);

interface Outcome {
  s: Scenario;
  o: OracleVerdict;
  v: SafetyVerdict;
  action: string;
  existsAfter: boolean;
  outsideSurvived: boolean;
  via: string;
  allowIgnored: boolean;
  /** The path the reap was given (the worktree, or a symlink to it). */
  path: string;
}

/** At check time: through a symlink, without origin/main, with allowIgnored; each independently. */
async function runOne(s: Scenario): Promise<Outcome> {
  const { rng, f } = s;
  let path = s.wt;
  const via: string[] = [];
  if (rng.chance(0.1) && existsSync(s.wt)) {
    path = join(f.dir, `link-${s.i}`);
    symlinkSync(s.wt, path);
    via.push("symlink");
  }
  const noOrigin = rng.chance(0.04);
  const origin = noOrigin ? await G(f.repo, "rev-parse", "refs/remotes/origin/main") : "";
  if (noOrigin) {
    await G(f.repo, "update-ref", "-d", "refs/remotes/origin/main");
    via.push("no origin/main");
  }
  const allowIgnored = rng.chance(0.15);
  if (allowIgnored) via.push("allowIgnored");
  try {
    const o = await reapOracle(path, { allowIgnored, env: ENV, repo: f.repo });
    // The verdict is read off the real reap (one safety check per state, not two): its action names the reason,
    // and the git calls it made say whether the squash check (merge-tree) proved it.
    const calls: string[][] = [];
    const base = reapCtx();
    const ctx = { ...base, runner: (argv: readonly string[], opts: Parameters<typeof base.runner>[1]) => (calls.push([...argv]), base.runner(argv, opts)) };
    let action: string;
    try {
      action = (await reap(ctx, { taskId: "task_000000000001", worktree: path, execute: true, allowIgnored })).record.actions_taken;
    } catch (e) {
      action = `reap threw: ${errorMessage(e)}`; // reported with the seed below, not as a bare crash
    }
    const left = `worktree_left:${path}:`;
    const v: SafetyVerdict =
      action === `worktree_removed:${path}`
        ? { safe: true, owner: f.repo, real: path, reason: calls.some((c) => c.includes("merge-tree")) ? "branch changes are already included in origin/main" : "branch is merged into origin/main" }
        : { safe: false, reason: action.startsWith(left) ? action.slice(left.length) : action };
    return { s, o, v, action, existsAfter: existsSync(s.wt), outsideSurvived: s.outside === null || existsSync(s.outside), via: via.join(", "), allowIgnored, path };
  } finally {
    if (noOrigin) await G(f.repo, "update-ref", "refs/remotes/origin/main", origin);
  }
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
  writeFileSync(join(f.repo, ".gitignore"), IGNORE.map((l) => `${l}\n`).join(""));
  await G(f.repo, "add", ".gitignore");
  await G(f.repo, "commit", "-q", "-m", "ignore rules");
  await G(f.repo, "push", "-q", "origin", "main");
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
    failures.push(
      `[seed ${SEED}] scenario ${r.s.i} (${JSON.stringify(r.path)}${r.via ? `; ${r.via}` : ""}): ${msg}\n    steps: ${r.s.log.join(" | ") || "(none)"}\n` +
        `    oracle: ${r.o.why.join(", ") || "no work"}\n    verdict: ${JSON.stringify(r.v)}\n    action: ${JSON.stringify(r.action)}`,
    );
  let mustLeave = 0;
  let unsafeRemovals = 0;
  let removed = 0;
  let conservative = 0;
  let obvious = 0;
  let contentOnly = 0;
  let safeByAncestry = 0;
  let safeByTree = 0;
  let hiddenEdits = 0;
  let preciousLeft = 0;
  let preciousAllowed = 0;
  let regenRemoved = 0;
  const conservativeReasons = new Map<string, number>();
  const UNCOMMITTED = "Worktree has uncommitted changes";

  for (const r of results) {
    const { o, v } = r;
    const existedBefore = !o.missing;
    const preciousBlocks = o.precious !== null && !r.allowIgnored;
    // The reap and the verdict agree, and the directory on disk matches the action.
    if (v.safe) {
      if (r.action !== `worktree_removed:${r.path}`) fail(r, "safe verdict, but the reap did not remove");
      if (r.existsAfter) fail(r, "the reap said removed, but the directory is still there");
      removed++;
      if (r.s.log.some((l) => l.startsWith("regen:"))) regenRemoved++;
      if (o.precious !== null && r.allowIgnored) preciousAllowed++;
    } else {
      if (!r.action.startsWith(`worktree_left:${r.path}:`)) fail(r, "not-safe verdict, but the reap did not leave");
      if (r.existsAfter !== existedBefore) fail(r, "left, yet the directory changed on disk");
    }
    if (!r.outsideSurvived) fail(r, "a file OUTSIDE the worktree (behind an ignored symlink) was deleted");
    if (v.safe && v.reason === "branch is merged into origin/main") safeByAncestry++;
    if (v.safe && v.reason === "branch changes are already included in origin/main") safeByTree++;
    if (o.holdsWork) {
      mustLeave++;
      if (o.why.length === 1 && o.uniqueContent) contentOnly++;
      if (o.hiddenFlags && o.trackedEdits) hiddenEdits++;
      if (v.safe) fail(r, "ORACLE SAYS IT HOLDS WORK, but the reap judged it safe");
      if (existedBefore && !r.existsAfter) {
        unsafeRemovals++;
        fail(r, "ORACLE SAYS IT HOLDS WORK, but the reap removed the directory");
      }
    } else if (!v.safe) {
      conservative++;
      const key = v.reason.replace(/p\d+/, "<b>").replace(/precious_ignored:.*/, "precious_ignored:<path>");
      conservativeReasons.set(key, (conservativeReasons.get(key) ?? 0) + 1);
    }
    // D31 holds even where no byte would be lost, and each refusal names itself (checked in the product's order).
    // D40 identity: a path that is a symlink to the worktree is refused (stricter than the oracle: conservative).
    if (r.via.includes("symlink") && existedBefore && (v.safe || !v.reason.startsWith("identity_mismatch:"))) fail(r, "a symlink to a worktree was not refused as identity_mismatch");
    if (existedBefore && !r.via.includes("symlink")) {
      const reason = v.safe ? "(safe)" : v.reason;
      if (o.missing && reason !== "Worktree path does not exist") fail(r, "missing path not reported as such");
      if (o.hiddenFlags && reason !== UNCOMMITTED && reason !== "hidden_index_flags") fail(r, "hidden index flags not reported");
      if (preciousBlocks && !o.hiddenFlags && reason !== UNCOMMITTED && !reason.startsWith("precious_ignored:")) fail(r, "precious ignored file not reported");
      if (preciousBlocks && reason.startsWith("precious_ignored:")) preciousLeft++;
      const earlier = o.trackedEdits || o.untracked || o.hiddenFlags || preciousBlocks || o.detached;
      if (o.locked && !earlier && !reason.startsWith("Worktree is locked: ")) fail(r, "lock not reported");
    }
    // The obvious cases must be removed, or the reaper is useless.
    const plainSafe = !r.s.mutated && !r.via.includes("no origin") && !r.via.includes("symlink") && (r.s.commits === 0 || r.s.wholeMerged || r.s.wholeCopiedNothingAfter);
    if (plainSafe) {
      obvious++;
      if (!v.safe) fail(r, "an obviously safe worktree (whole branch merged/squashed/picked, clean) was left");
      if (o.holdsWork) fail(r, "oracle disagrees with the generator about an obviously safe worktree");
    }
  }

  // Clean up here rather than in afterAll: thousands of files take longer than a hook may.
  for (const f of fixtures.splice(0)) rmSync(f.dir, { recursive: true, force: true });

  const summary = [
    `worktree property: seed ${SEED}, ${results.length} states in ${REPOS} repos, ${Date.now() - t0} ms`,
    `  holding work (oracle): ${mustLeave}, of which removed: ${unsafeRemovals} (${contentOnly} only for unique content, ${hiddenEdits} with an edit hidden by an index bit)`,
    `  removed: ${removed} (${safeByAncestry} by ancestry, ${safeByTree} by squash tree equality; ${regenRemoved} with regenerable ignored files, ${preciousAllowed} precious under allowIgnored); obvious-safe asserted removed: ${obvious}`,
    `  left for a precious ignored file: ${preciousLeft}; conservative (oracle: no work, still left): ${conservative}`,
    ...[...conservativeReasons].map(([k, n]) => `    ${n} x ${k}`),
  ].join("\n");
  console.log(summary);
  if (failures.length) console.log(`REPRODUCE: MOGUI_PROPERTY_SEED=${SEED} MOGUI_PROPERTY_CASES=${CASES}\n${failures.join("\n")}`);
  expect(failures, `seed ${SEED}`).toEqual([]);
  expect(unsafeRemovals).toBe(0);
  expect(results.length).toBeGreaterThanOrEqual(Math.min(CASES, 500));
  // The generator must actually produce every kind, or the property says nothing. The bounds scale with the budget
  // (at 500 states: 40, 20, 10, 20, 5, 5), halved again below 500 states so a small budget is not a coin toss.
  const at = (n500: number) => Math.floor((n500 * CASES) / 500 / (CASES < 500 ? 2 : 1));
  expect(mustLeave).toBeGreaterThan(at(40));
  expect(removed).toBeGreaterThan(at(20));
  expect(obvious).toBeGreaterThan(at(10));
  expect(contentOnly).toBeGreaterThan(at(20));
  expect(safeByAncestry).toBeGreaterThan(at(5));
  expect(safeByTree).toBeGreaterThan(at(5));
  if (CASES >= 500) {
    expect(hiddenEdits).toBeGreaterThan(10);
    expect(preciousLeft).toBeGreaterThan(10);
    expect(regenRemoved).toBeGreaterThan(10);
  }
}, 180_000);
