/**
 * An independent judgement of "does this worktree hold work that a removal would destroy?", for property tests of
 * worker-reap (and of anything else that removes worktrees, e.g. a fleet cleanup). It shares nothing with
 * src/workers/reap/worktree-safety.ts, which asks `git status`, `ls-files -v`, `ls-files --others --ignored`,
 * `branch --merged` and `merge-tree`. The oracle instead:
 *
 *   - missing / locked:  node fs (`<gitdir>/locked`, gitdir read from the worktree's `.git` file).
 *   - hidden flags:      parses the worktree's binary index file itself (v2/v3 entries: assume-valid 0x8000 in
 *                        the flags, skip-worktree 0x4000 in the extended flags).
 *   - tracked edits:     compares the BYTES on disk of every path in HEAD's tree with its blob, and the index's
 *                        blob ids with HEAD's (staged work): a hidden edit is caught whatever the index bits say.
 *   - untracked/ignored: walks the directory with node fs (no symlink is followed; a directory holding `.git` is
 *                        a nested repository, one entry), and asks GIT which of those paths are ignored
 *                        (`git status --porcelain -z --ignored=traditional --untracked-files=all`: every source of
 *                        ignore rules git reads, nested `.gitignore` files that ignore themselves and the shared
 *                        `info/exclude` included). Untracked and not ignored = work; a path git does not report at
 *                        all = work. D40: an ignored file is work unless it is regenerable by the oracle's own
 *                        reading of D40's set (a directory component such as `dist`, `node_modules`, `.venv`; a
 *                        base name `*.pyc`, `*.o`, `*.class`, `.DS_Store`) and not of D31's precious set (nothing
 *                        under node_modules/ is precious); a nested repository is work; allowIgnored lifts both.
 *   - D40 operations:    the worktree's gitdir state files that git writes for an operation in progress
 *                        (MERGE_HEAD, CHERRY_PICK_HEAD, REVERT_HEAD, rebase-merge/, rebase-apply/, BISECT_LOG,
 *                        sequencer/), the gitdir named by `git rev-parse --git-dir`.
 *   - D40 refs:          `git for-each-ref refs/worktree/` and `git rev-list <ref> --not --branches --remotes`.
 *   - D40 reflog:        `git rev-list --walk-reflogs HEAD` minus everything `--all` reaches (counted, not work).
 *   - D40 identity:      with the named repository (`repo`), the worktree's real path must be a path
 *                        `git -C <repo> worktree list --porcelain` prints, and `git rev-parse --git-common-dir` of
 *                        the worktree must be the repository's; otherwise it is not the repository's worktree and
 *                        must not be touched (counted as work).
 *   - detached:          `symbolic-ref -q HEAD`.
 *   - unique content:    every generated line is globally unique, so the branch's work is in origin/main iff every
 *                        line HEAD added (vs the merge base) is in origin/main's version of the path and every line
 *                        it removed is not (set inclusion: sees merges, squashes, cherry-picks and later reverts).
 *                        No origin/main = the work cannot be proven safe = work.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../src/lib/context.ts";
import { realRunner, type RunResult, type Runner } from "../../src/lib/runner.ts";
import { gitEnv } from "./git.ts";

export interface OracleOptions {
  allowIgnored?: boolean;
  /** The named repository (D40 identity); without it identity is not judged. */
  repo?: string;
  /** Count D40's reflog-only commits (costly: only when a test reports them). */
  countReflog?: boolean;
  env?: Record<string, string>;
}

export interface OracleVerdict {
  /** The worktree holds something a removal would destroy (or its safety cannot be proven). */
  holdsWork: boolean;
  missing: boolean;
  locked: boolean;
  /** An index entry carries skip-worktree or assume-unchanged (D31 leaves such a worktree even without edits). */
  hiddenFlags: boolean;
  /** Tracked bytes on disk or in the index differ from HEAD (includes hidden edits). */
  trackedEdits: boolean;
  untracked: boolean;
  /** First precious ignored path (or nested repository `dir/`), null if none. Counted as work unless allowIgnored. */
  precious: string | null;
  detached: boolean;
  /** D40: not the named repository's worktree (git's own worktree list and common dir disagree with the path). */
  identityMismatch: boolean;
  /** D40: a git operation in progress (the gitdir's state file that says so), or null. */
  operation: string | null;
  /** D40: a refs/worktree/* ref holding commits no branch or remote has, or null. */
  worktreeRef: string | null;
  /** D40's documented limit: commits only the HEAD reflog reaches (counted, never work). */
  reflogOnly: number;
  /** Only computed when nothing else already holds work. */
  uniqueContent: boolean;
  why: string[];
}

async function gitRun(cwd: string, args: string[], env: Record<string, string>, stdin?: string): Promise<RunResult> {
  return realRunner(["git", "-C", cwd, ...args], { env, timeoutMs: 30_000, stdin });
}

async function G(cwd: string, env: Record<string, string>, ...args: string[]): Promise<string> {
  const r = await gitRun(cwd, args, env);
  if (r.code !== 0) throw new Error(`oracle: git ${args.join(" ")} (in ${cwd}) failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

// ------------------------------------------------------------------------------------------------ the index file

interface IndexEntry {
  path: string;
  blob: string;
  mode: number;
  hidden: boolean;
}

/** Parse a v2/v3 index (what git writes unless told otherwise); v4 is refused so a surprise is loud. */
function parseIndex(buf: Buffer): IndexEntry[] {
  if (buf.toString("latin1", 0, 4) !== "DIRC") throw new Error("oracle: not an index file");
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw new Error(`oracle: index version ${version} not supported`);
  const count = buf.readUInt32BE(8);
  const out: IndexEntry[] = [];
  let off = 12;
  for (let i = 0; i < count; i++) {
    const start = off;
    const mode = buf.readUInt32BE(off + 24);
    const blob = buf.toString("hex", off + 40, off + 60);
    const flags = buf.readUInt16BE(off + 60);
    off += 62;
    let extended = 0;
    if (flags & 0x4000) {
      extended = buf.readUInt16BE(off);
      off += 2;
    }
    const end = buf.indexOf(0, off);
    const path = buf.toString("utf8", off, end);
    // Entries are padded with 1-8 NULs to a multiple of 8 bytes from their start.
    off = start + Math.ceil((end + 1 - start) / 8) * 8;
    out.push({ path, blob, mode, hidden: Boolean(flags & 0x8000) || Boolean(extended & 0x4000) });
  }
  return out;
}

function gitdirOf(wt: string): string {
  return readFileSync(join(wt, ".git"), "utf8")
    .replace(/^gitdir: /, "")
    .trim();
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

// ------------------------------------------------------------------------------------------------ file walk

/** Every non-directory path under wt (relative), not following symlinks; a nested repository is one `dir/` entry. */
function walk(wt: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(wt, rel))) {
    if (rel === "" && name === ".git") continue;
    const r = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(wt, r));
    if (st.isDirectory()) {
      if (existsSync(join(wt, r, ".git"))) out.push(`${r}/`);
      else out.push(...walk(wt, r));
    } else out.push(r);
  }
  return out;
}

/**
 * What git itself says about the paths outside the index: `!!` ignored, `??` untracked (each file, `-uall`; a
 * nested repository as `dir/`). Returns a classifier; a path git does not mention is "unknown".
 */
async function gitIgnored(wt: string, env: Record<string, string>): Promise<(rel: string) => "ignored" | "untracked" | "unknown"> {
  const out = await G(wt, env, "-c", "status.showUntrackedFiles=all", "status", "--porcelain", "-z", "--ignored=traditional", "--untracked-files=all");
  const ignored = new Set<string>();
  const untracked = new Set<string>();
  for (const rec of out.split("\0")) {
    if (rec.startsWith("!! ")) ignored.add(rec.slice(3));
    else if (rec.startsWith("?? ")) untracked.add(rec.slice(3));
  }
  const under = (set: Set<string>, rel: string) => {
    if (set.has(rel)) return true;
    const parts = rel.split("/");
    for (let k = 1; k < parts.length; k++) if (set.has(`${parts.slice(0, k).join("/")}/`)) return true;
    return false;
  };
  return (rel) => (under(ignored, rel) ? "ignored" : under(untracked, rel) ? "untracked" : "unknown");
}

/** D40's default regenerable set, read the oracle's own way: directory components and base-name tests. */
const REGEN_DIRS = new Set(["node_modules", "dist", "build", "out", "target", ".venv", "venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".next", ".nuxt", ".turbo", ".cache", "coverage", ".gradle"]);
function oracleRegenerable(rel: string): boolean {
  if (rel.endsWith("/")) return false; // a nested repository
  const parts = rel.split("/");
  const name = parts[parts.length - 1]!;
  if (parts.slice(0, -1).some((d) => REGEN_DIRS.has(d))) return true;
  return name === ".DS_Store" || [".pyc", ".o", ".class"].some((x) => name.endsWith(x) && name.length > x.length);
}

/** The gitdir state files git leaves while an operation is in progress (git's own names, not mogui's). */
const OPERATION_FILES: [string, string][] = [
  ["MERGE_HEAD", "merge"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"],
  ["rebase-merge", "rebase"],
  ["rebase-apply", "rebase or am"],
  ["BISECT_LOG", "bisect"],
  ["sequencer", "sequencer"],
];

/** The D31 default precious set, read the oracle's own way (string tests on the base name). */
function oraclePrecious(rel: string): boolean {
  if (rel.split("/").includes("node_modules")) return false;
  const n = rel.slice(rel.lastIndexOf("/") + 1);
  const exact = [".env", ".envrc", ".npmrc", ".pypirc"];
  const prefixes = [".env.", "id_rsa", "id_ed25519", "credentials"];
  const suffixes = [".pem", ".key", ".p12", ".pfx", ".secret", ".local.json"];
  return exact.includes(n) || prefixes.some((p) => n.startsWith(p)) || suffixes.some((s) => n.endsWith(s) && n.length >= s.length);
}

// ------------------------------------------------------------------------------------------------ content

async function lsTree(cwd: string, rev: string, env: Record<string, string>): Promise<Map<string, string>> {
  const m = new Map<string, string>();
  for (const rec of (await G(cwd, env, "ls-tree", "-r", "-z", rev)).split("\0").filter(Boolean)) {
    const tab = rec.indexOf("\t");
    m.set(rec.slice(tab + 1), rec.slice(0, tab).split(" ")[2]!);
  }
  return m;
}

/** Blob contents by id (one `cat-file --batch`); generated tracked content is ASCII. */
async function blobs(cwd: string, ids: string[], env: Record<string, string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return out;
  const r = await gitRun(cwd, ["cat-file", "--batch"], env, uniq.map((x) => `${x}\n`).join(""));
  if (r.code !== 0) throw new Error(`oracle: cat-file: ${r.stderr}`);
  let text = r.stdout;
  for (const id of uniq) {
    const nl = text.indexOf("\n");
    const size = Number(text.slice(0, nl).split(" ")[2]);
    out.set(id, text.slice(nl + 1, nl + 1 + size));
    text = text.slice(nl + 1 + size + 1);
  }
  return out;
}

const linesOf = (s: string | undefined) => new Set((s ?? "").split("\n").filter(Boolean));

async function uniqueContent(wt: string, env: Record<string, string>): Promise<string | null> {
  const ours = await gitRun(wt, ["rev-parse", "--verify", "-q", "refs/remotes/origin/main"], env);
  if (ours.code !== 0) return "no origin/main to prove anything against";
  const o = ours.stdout.trim();
  const head = (await G(wt, env, "rev-parse", "HEAD")).trim();
  const mb = await gitRun(wt, ["merge-base", o, head], env);
  if (mb.code !== 0) return "no merge base";
  const base = mb.stdout.trim();
  if (base === head) return null; // HEAD is in origin/main's history
  const [tb, th, to] = await Promise.all([lsTree(wt, base, env), lsTree(wt, head, env), lsTree(wt, o, env)]);
  const changed = [...new Set([...tb.keys(), ...th.keys()])].filter((p) => tb.get(p) !== th.get(p));
  const text = await blobs(
    wt,
    changed.flatMap((p) => [tb.get(p), th.get(p), to.get(p)]).filter((x): x is string => Boolean(x)),
    env,
  );
  const get = (id: string | undefined) => (id ? text.get(id) : undefined);
  for (const p of changed) {
    if (!th.has(p)) {
      if (to.has(p)) return `${p}: deleted on the branch, present in origin/main`;
      continue;
    }
    if (!to.has(p)) return `${p}: on the branch, not in origin/main`;
    const b = linesOf(get(tb.get(p)));
    const h = linesOf(get(th.get(p)));
    const om = linesOf(get(to.get(p)));
    for (const l of h) if (!b.has(l) && !om.has(l)) return `${p}: line '${l}' added on the branch, missing in origin/main`;
    for (const l of b) if (!h.has(l) && om.has(l)) return `${p}: line '${l}' removed on the branch, still in origin/main`;
  }
  return null;
}

// ------------------------------------------------------------------------------------------------ the oracle

/** The named repositories' common dirs (a repository's common dir never moves during a test). */
const commonDirs = new Map<string, string>();

export async function reapOracle(wt: string, opts: OracleOptions = {}): Promise<OracleVerdict> {
  const env = opts.env ?? gitEnv();
  const o: OracleVerdict = {
    holdsWork: false,
    missing: false,
    locked: false,
    hiddenFlags: false,
    trackedEdits: false,
    untracked: false,
    precious: null,
    detached: false,
    identityMismatch: false,
    operation: null,
    worktreeRef: null,
    reflogOnly: 0,
    uniqueContent: false,
    why: [],
  };
  const note = (why: string) => o.why.push(why);
  if (!existsSync(wt)) {
    o.missing = true;
    note("missing");
    o.holdsWork = true; // nothing to remove; a remover must not "succeed" either
    return o;
  }
  if (opts.repo) {
    // D40 identity, from git: the path git lists for the named repository, and the same common dir.
    const listed = (await G(opts.repo, env, "worktree", "list", "--porcelain"))
      .split("\n")
      .filter((l) => l.startsWith("worktree "))
      .map((l) => l.slice(9));
    const common = async (dir: string) => {
      const hit = commonDirs.get(dir);
      if (hit) return hit;
      const c = realOr((await G(dir, env, "rev-parse", "--path-format=absolute", "--git-common-dir")).trim());
      commonDirs.set(dir, c);
      return c;
    };
    const mine = realOr(wt);
    const sameCommon = (await gitRun(wt, ["rev-parse", "--path-format=absolute", "--git-common-dir"], env)).stdout.trim();
    if (!listed.includes(mine) || realOr(sameCommon) !== (await common(opts.repo))) {
      o.identityMismatch = true;
      o.holdsWork = true;
      note(`identity: ${mine} is not a worktree of ${opts.repo}`);
      return o; // not this repository's: nothing else about it matters, it must not be touched
    }
  }
  const gitdir = gitdirOf(wt);
  if (existsSync(join(gitdir, "locked"))) {
    o.locked = true;
    note("locked");
  }
  const index = parseIndex(readFileSync(join(gitdir, "index")));
  o.hiddenFlags = index.some((e) => e.hidden);
  if (o.hiddenFlags) note("hidden index flags");

  // Tracked: bytes on disk and index blobs against HEAD's tree.
  const head = await lsTree(wt, "HEAD", env);
  const inIndex = new Map(index.map((e) => [e.path, e.blob]));
  const staged = [...new Set([...head.keys(), ...inIndex.keys()])].find((p) => head.get(p) !== inIndex.get(p));
  const contents = await blobs(wt, [...head.values()], env);
  const edited = [...head].find(([p, id]) => {
    const abs = join(wt, p);
    try {
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) return true; // generators never track symlinks: a swap is an edit
      return readFileSync(abs).toString("latin1") !== contents.get(id);
    } catch {
      return true; // deleted on disk
    }
  });
  if (staged !== undefined || edited !== undefined) {
    o.trackedEdits = true;
    note(`tracked edit: ${staged ?? edited![0]}`);
  }

  // Untracked and ignored: the disk walked, git asked which paths it ignores (D40: precious unless regenerable).
  const classify = await gitIgnored(wt, env);
  for (const rel of walk(wt)) {
    if (inIndex.has(rel)) continue;
    const kind = classify(rel);
    if (kind !== "ignored") {
      if (!o.untracked) note(`untracked${kind === "unknown" ? " (git does not report it)" : ""}: ${JSON.stringify(rel)}`);
      o.untracked = true;
    } else if (o.precious === null && (rel.endsWith("/") || oraclePrecious(rel) || !oracleRegenerable(rel))) {
      o.precious = rel;
      note(`precious ignored: ${JSON.stringify(rel)}${opts.allowIgnored ? " (allowed)" : ""}`);
    }
  }

  // D40: an operation in progress, from the state files in the gitdir git names.
  const gd = (await G(wt, env, "rev-parse", "--path-format=absolute", "--git-dir")).trim();
  for (const [file, op] of OPERATION_FILES) {
    if (existsSync(join(gd, file))) {
      o.operation = op;
      note(`operation in progress: ${op} (${file})`);
      break;
    }
  }
  // D40: refs/worktree/* commits no branch or remote has.
  for (const ref of (await G(wt, env, "for-each-ref", "--format=%(refname)", "refs/worktree/")).split("\n").filter(Boolean)) {
    if ((await G(wt, env, "rev-list", ref, "--not", "--branches", "--remotes")).trim() !== "") {
      o.worktreeRef = ref;
      note(`unique commits on ${ref}`);
      break;
    }
  }
  // D40's documented limit: reflog-only commits are counted.
  const reflog = opts.countReflog ? await gitRun(wt, ["rev-list", "--walk-reflogs", "--format=%H", "HEAD"], env) : null;
  if (reflog && reflog.code === 0) {
    const shas = [...new Set(reflog.stdout.split("\n").filter((l) => /^[0-9a-f]{40}$/.test(l)))];
    if (shas.length) {
      const all = await gitRun(wt, ["rev-list", "--all"], env);
      const reached = new Set(all.stdout.split("\n"));
      const only = new Set<string>();
      for (const sha of shas) {
        if (reached.has(sha)) continue;
        for (const c of (await gitRun(wt, ["rev-list", sha, "--not", "--all"], env)).stdout.split("\n").filter(Boolean)) only.add(c);
      }
      o.reflogOnly = only.size;
    }
  }

  if ((await gitRun(wt, ["symbolic-ref", "-q", "HEAD"], env)).code !== 0) {
    o.detached = true;
    note("detached");
  }
  o.holdsWork = o.locked || o.trackedEdits || o.untracked || (o.precious !== null && !opts.allowIgnored) || o.detached || o.operation !== null || o.worktreeRef !== null;
  // Already holding work: the (costly) content question cannot change the answer.
  if (o.holdsWork) return o;
  const u = await uniqueContent(wt, env);
  if (u) {
    o.uniqueContent = true;
    o.holdsWork = true;
    note(`unique: ${u}`);
  }
  return o;
}

/** A Ctx for the real `reap`: orca answers one settled legacy dispatch without a terminal; git is real. */
export function settledReapCtx(env: Record<string, string> = gitEnv()): Ctx {
  const runner: Runner = async (argv, opts) => {
    if (argv[0] === "orca") {
      const stdout = JSON.stringify({ dispatch_id: "ctx_000000000001", task_id: "task_000000000001", status: "COMPLETED" });
      return { argv: [...argv], code: 0, signal: null, stdout, stderr: "", timedOut: false, missing: false };
    }
    return realRunner(argv, opts);
  };
  return {
    io: { stdout: () => {}, stderr: () => {}, stdoutIsTTY: false, stderrIsTTY: false },
    env: { ...env, ORCA_CLI_COMMAND: "orca" },
    cwd: "/",
    runner,
    now: () => 1_722_787_200_000,
    debug: false,
    self: [],
  };
}
