/**
 * May this worktree be removed? Only when it is clean AND everything on its branch is already in origin/main
 * (by ancestry, or by tree equality after a squash merge). Every failure, ambiguity or exception answers
 * "leave, because ..."; a wrong removal destroys work, a skipped one costs a manual cleanup.
 *
 * "Clean" (DECISIONS D31, D40) is more than an empty `git status`: an index entry with the skip-worktree or
 * assume-unchanged bit hides its edits from status (`hidden_index_flags`), and `git worktree remove` deletes
 * ignored files, so an ignored file that is not provably regenerable (D40: outside the regenerable set, or of D31's
 * precious set) or an ignored nested repository leaves the worktree too (`precious_ignored:<first relative path>`);
 * regenerable output (`node_modules/`, `dist/`) goes with it. D40 adds, in keep-rules.ts: identity
 * (`identity_mismatch:<what>`), an operation in progress, unique refs/worktree commits, and the reflog count.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { errorMessage } from "../../lib/errors.ts";
import { git } from "../../lib/git.ts";
import { BRAKE_SETTINGS, isBrakeOnlySettings } from "../worker/brake-wiring.ts";
import { loadPreciousIgnored } from "../worker/policy.ts";
import { DEFAULT_REGENERABLE, globRe, IDENTITY_MISMATCH, listedReal, operationInProgress, OPERATION_IN_PROGRESS, reflogOnlyCommits, regenerableMatcher, uniqueWorktreeRef, verifyIdentity } from "./keep-rules.ts";

export { DEFAULT_REGENERABLE } from "./keep-rules.ts";

export type SafetyVerdict =
  /** `real`: the identity-verified real path (processes are matched against it, removal names it). */
  { safe: true; reason: string; owner: string; real: string; reflog_only_commits?: number | null } | { safe: false; reason: string };

/** D31's precious ignored set: ignored files a removal must never take along (matched like .gitignore globs). */
export const DEFAULT_PRECIOUS_IGNORED: readonly string[] = [".env", ".env.*", ".envrc", "*.pem", "*.key", "*.p12", "*.pfx", "id_rsa*", "id_ed25519*", "*.secret", "credentials*", ".npmrc", ".pypirc", "*.local.json"];

/**
 * The precious and regenerable sets every reaper applies (worker-reap, fleet reap, top's `d`): the surface policy's
 * `reap` lists (`--policy`), else D31's precious defaults and D40's regenerable ones. A bad policy is a PolicyError.
 */
export function reapSets(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): { precious: readonly string[]; regenerable: readonly string[] | undefined } {
  const pol = loadPreciousIgnored(ctx, flag);
  return { precious: pol.patterns ?? DEFAULT_PRECIOUS_IGNORED, regenerable: pol.regenerable ?? undefined };
}

export interface SafetyOptions {
  /** Replaces DEFAULT_PRECIOUS_IGNORED (the worker-surface policy's `reap.precious_ignored`). */
  precious?: readonly string[];
  /** D40: ignored files matching this set are regenerable (default DEFAULT_REGENERABLE; `reap.regenerable`). */
  regenerable?: readonly string[];
  /** Count commits reachable only from the worktree's HEAD reflog on a safe verdict (dry runs, scans). */
  countReflog?: boolean;
  /** `--allow-ignored`: precious ignored files do not keep the worktree (hidden index flags still do). */
  allowIgnored?: boolean;
  /**
   * Facts about the owning repository that do not depend on the worktree (`git worktree list`, the branches merged
   * into origin/main), computed once by a caller that checks many worktrees of one repository (`fleet scan`):
   * both git calls grow with the number of worktrees, so asking them per worktree is quadratic.
   */
  repo?: RepoFacts;
}

/** What `repoFacts` read once; a failed read is kept as its reason, answered by every worktree like a per-path call. */
export interface RepoFacts {
  /** Each entry with its symlink-resolved path (resolved once, not once per worktree checked). */
  worktrees: { ok: true; entries: (WorktreeEntry & { real: string })[] } | { ok: false; why: string };
  merged: { ok: true; names: string[] } | { ok: false; why: string };
  /** The named repository's common git dir (absolute): a worktree's `.git` must point into it (D40 identity). */
  commonDir: { ok: true; path: string } | { ok: false; why: string };
}

const HIDDEN_INDEX_FLAGS = "hidden_index_flags";
const PRECIOUS_IGNORED = "precious_ignored";

type GitCtx = Pick<Ctx, "runner" | "env">;

interface WorktreeEntry {
  path: string;
  bare: boolean;
  locked: string | null;
}

function parseWorktreeList(text: string): WorktreeEntry[] {
  const out: WorktreeEntry[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split("\n").filter(Boolean);
    const head = lines.find((l) => l.startsWith("worktree "));
    if (!head) continue;
    const lockLine = lines.find((l) => l === "locked" || l.startsWith("locked "));
    out.push({
      path: head.slice("worktree ".length),
      bare: lines.includes("bare"),
      locked: lockLine === undefined ? null : lockLine.slice("locked".length).trim() || "no reason given",
    });
  }
  return out;
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The path with symlinks resolved (as `git worktree remove` needs it), or itself when it cannot be resolved. */
export function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** A .gitignore-style glob as a RegExp over a relative path: no `/` matches the base name at any depth. */
export function preciousMatcher(patterns: readonly string[]): (relPath: string) => boolean {
  const res = patterns.map((raw) => {
    const p = raw.replace(/\/+$/, "");
    const anchored = p.includes("/");
    return { anchored, re: globRe(p.replace(/^\//, "")) };
  });
  return (rel) => {
    const base = rel.slice(rel.lastIndexOf("/") + 1);
    return res.some(({ anchored, re }) => re.test(anchored ? rel : base));
  };
}

/** NUL-separated records of `git ls-files -z` style output. */
function records(stdout: string): string[] {
  return stdout.split("\0").filter((r) => r !== "");
}

/**
 * Index entries whose edits `git status` cannot see (`ls-files -v`: a lowercase tag is assume-unchanged, `S`/`s`
 * skip-worktree), and populated submodules (`git worktree remove` refuses them; say so before acting).
 */
async function indexHides(ctx: GitCtx, path: string, timeoutMs: number): Promise<string | null> {
  const ls = await git(ctx, path, ["ls-files", "-z", "-v", "-s"], timeoutMs);
  if (!ls.ok) return `Could not read the index: ${ls.why}`;
  let submodule: string | null = null;
  for (const rec of records(ls.stdout)) {
    const tag = rec[0]!;
    if (tag === "S" || tag === "s" || (tag >= "a" && tag <= "z")) return HIDDEN_INDEX_FLAGS;
    const tab = rec.indexOf("\t");
    if (submodule === null && rec.slice(2, 8) === "160000" && tab > 0 && populated(join(path, rec.slice(tab + 1)))) submodule = rec.slice(tab + 1);
  }
  return submodule === null ? null : `Worktree contains a populated submodule: ${submodule}`;
}

function populated(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/**
 * D40: the first ignored file that is not provably regenerable, or an ignored nested repository (listed as `dir/`:
 * it can hold commits of its own). An ignored file is precious unless it matches the regenerable set, and a file of
 * D31's precious set stays precious even inside a regenerable directory (`dist/prod.key`). Files under a
 * `node_modules/` directory are package-manager output, never listed. No `--directory`: an ignored directory is
 * walked, so `secrets/prod.pem` inside an ignored `secrets/` is seen, and so is every file under a self-ignoring
 * `dir/.gitignore` or a pattern of the shared `info/exclude`.
 */
async function preciousIgnored(ctx: GitCtx, path: string, patterns: readonly string[], regenerable: readonly string[], timeoutMs: number): Promise<string | null> {
  const args = ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", ".", ":(exclude,glob)**/node_modules/**"];
  const ls = await git(ctx, path, args, timeoutMs);
  if (!ls.ok) return `Could not list ignored files: ${ls.why}`;
  const precious = preciousMatcher(patterns);
  const regen = regenerableMatcher(regenerable);
  for (const rel of records(ls.stdout)) {
    if (rel === BRAKE_SETTINGS && brakeOnly(join(path, rel))) continue;
    if (rel.endsWith("/") || precious(rel) || !regen(rel)) return `${PRECIOUS_IGNORED}:${rel}`;
  }
  return null;
}

/**
 * The spend brake's worker settings (D44): mogui wrote it and can write it again, so a regular file that holds
 * nothing but that wiring is regenerable. Anything else in it (a user's permission, another hook), a symlink, or a
 * file we cannot read is precious, like every other ignored file.
 */
function brakeOnly(file: string): boolean {
  try {
    if (!lstatSync(file).isFile()) return false;
    return isBrakeOnlySettings(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
}

async function listWorktrees(ctx: GitCtx, path: string, timeoutMs: number): Promise<RepoFacts["worktrees"]> {
  const wl = await git(ctx, path, ["worktree", "list", "--porcelain"], timeoutMs);
  // The last component is not followed: a worktree directory swapped for a symlink must not match (D40).
  return wl.ok ? { ok: true, entries: parseWorktreeList(wl.stdout).map((e) => ({ ...e, real: listedReal(e.path) })) } : { ok: false, why: wl.why };
}

/**
 * The repository's common git dir from its worktree list (no git call): a bare repository's first entry is the
 * common dir itself; a main worktree holds it as `.git/` (or a `.git` file naming it, `--separate-git-dir`).
 */
function commonDirOf(wl: RepoFacts["worktrees"]): RepoFacts["commonDir"] {
  if (!wl.ok) return { ok: false, why: wl.why };
  const first = wl.entries[0];
  if (!first) return { ok: false, why: "empty worktree list" };
  if (first.bare) return { ok: true, path: first.path };
  const dotGit = join(first.path, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return { ok: true, path: dotGit };
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"));
    if (m) return { ok: true, path: resolve(first.path, m[1]!.trim()) };
  } catch {
    // fall through
  }
  return { ok: false, why: `no git dir in the main worktree ${first.path}` };
}

async function mergedBranches(ctx: GitCtx, path: string, timeoutMs: number): Promise<RepoFacts["merged"]> {
  const merged = await git(ctx, path, ["branch", "-a", "--merged", "origin/main"], timeoutMs);
  return merged.ok ? { ok: true, names: merged.stdout.split("\n").map((l) => l.trim().replace(/^[*+] /, "")) } : { ok: false, why: merged.why };
}

/**
 * The repository-wide facts of `repo` (any of its worktrees), read once for many worktreeSafety calls. Branch
 * names and the worktree list are shared by every worktree of one repository, so the answers are the same as
 * asking from each worktree.
 */
export async function repoFacts(ctx: GitCtx, repo: string, timeoutMs = 30_000): Promise<RepoFacts> {
  const [worktrees, merged] = await Promise.all([listWorktrees(ctx, repo, timeoutMs), mergedBranches(ctx, repo, timeoutMs)]);
  return { worktrees, merged, commonDir: commonDirOf(worktrees) };
}

/**
 * The check order: path, identity (D40: before any git runs inside the path), status (incl. untracked), hidden
 * index flags, an operation in progress, ignored files (D40), branch, main/locked, --merged or squash tree equality,
 * refs/worktree commits no branch or remote has.
 */
async function check(ctx: GitCtx, path: string, timeoutMs: number, opts: SafetyOptions): Promise<SafetyVerdict> {
  if (!existsSync(path)) return { safe: false, reason: "Worktree path does not exist" };
  // Which repository owns this worktree, and is this path a linked worktree of it (never its main one)? With no
  // named repository (worker-reap) the repository is the one the path itself reports; the symlink rule still holds.
  const wl = opts.repo?.worktrees ?? (await listWorktrees(ctx, path, timeoutMs));
  if (!wl.ok) return { safe: false, reason: `Could not list worktrees: ${wl.why}` };
  const entries = wl.entries;
  const owner = entries[0];
  const mine = listedReal(path);
  const me = entries.find((e) => e.real === mine);
  if (!owner || !me) {
    // Reached through a symlink (a worktree directory swapped for a link to another worktree): an identity failure.
    const resolved = real(path);
    if (isSymlink(path) || entries.some((e) => real(e.path) === resolved)) return { safe: false, reason: `${IDENTITY_MISMATCH}:${isSymlink(path) ? "worktree directory is a symlink" : "real path differs from the repository's worktree list"}` };
    return { safe: false, reason: "Path is not a worktree of its repository" };
  }
  if (me === owner) return { safe: false, reason: "Path is the main worktree of its repository" };
  const common = opts.repo?.commonDir ?? commonDirOf(wl);
  if (!common.ok) return { safe: false, reason: `Could not find the repository's git dir: ${common.why}` };
  const idv = verifyIdentity(path, me.path, common.path);
  if (!idv.ok) return { safe: false, reason: idv.reason };
  const { real: verified, gitdir } = idv.id;

  // Explicit -u: a repository's `status.showUntrackedFiles=no` would otherwise hide untracked files, and
  // `git worktree remove` then deletes them without a word.
  const st = await git(ctx, verified, ["status", "--porcelain", "--untracked-files=normal"], timeoutMs);
  if (!st.ok) return { safe: false, reason: `Not a git repo or git error: ${st.why}` };
  if (st.stdout.trim() !== "") return { safe: false, reason: "Worktree has uncommitted changes" };
  const hidden = await indexHides(ctx, verified, timeoutMs);
  if (hidden) return { safe: false, reason: hidden };
  const op = operationInProgress(gitdir);
  if (op) return { safe: false, reason: `${OPERATION_IN_PROGRESS}:${op}` };
  if (!opts.allowIgnored) {
    const precious = await preciousIgnored(ctx, verified, opts.precious ?? DEFAULT_PRECIOUS_IGNORED, opts.regenerable ?? DEFAULT_REGENERABLE, timeoutMs);
    if (precious) return { safe: false, reason: precious };
  }
  const br = await git(ctx, verified, ["branch", "--show-current"], timeoutMs);
  if (!br.ok) return { safe: false, reason: `Could not get current branch: ${br.why}` };
  const branch = br.stdout.trim();
  if (!branch) return { safe: false, reason: "Could not get current branch: detached HEAD" };
  if (me.locked) return { safe: false, reason: `Worktree is locked: ${me.locked}` };

  const merged = opts.repo?.merged ?? (await mergedBranches(ctx, path, timeoutMs));
  if (!merged.ok) return { safe: false, reason: `Could not compare with origin/main: ${merged.why}` };
  let reason: string;
  if (merged.names.includes(branch)) reason = "branch is merged into origin/main";
  else {
    const mainTree = await git(ctx, verified, ["rev-parse", "origin/main^{tree}"], timeoutMs);
    if (!mainTree.ok) return { safe: false, reason: `Could not read origin/main tree: ${mainTree.why}` };
    const mergedTree = await git(ctx, verified, ["merge-tree", "--write-tree", "origin/main", "HEAD"], timeoutMs);
    const notIncluded = `Current branch ${branch} is not merged to origin/main (branch changes are not included in origin/main)`;
    // merge-tree exits 1 on conflicts: the branch then certainly holds changes origin/main lacks.
    if (!mergedTree.ok) return { safe: false, reason: mergedTree.code === 1 ? notIncluded : `Could not merge-tree: ${mergedTree.why}` };
    const a = mainTree.stdout.trim();
    const b = (mergedTree.stdout.split("\n")[0] ?? "").trim();
    if (!(a && a === b)) return { safe: false, reason: notIncluded };
    reason = "branch changes are already included in origin/main";
  }
  const wref = await uniqueWorktreeRef(ctx, verified, gitdir, common.path, timeoutMs);
  if (wref) return { safe: false, reason: wref };
  const verdict: SafetyVerdict = { safe: true, reason, owner: owner.path, real: verified };
  if (opts.countReflog) verdict.reflog_only_commits = await reflogOnlyCommits(ctx, verified, gitdir, timeoutMs);
  return verdict;
}

export async function worktreeSafety(ctx: GitCtx, path: string, timeoutMs?: number, opts: SafetyOptions = {}): Promise<SafetyVerdict> {
  try {
    return await check(ctx, path, timeoutMs ?? 30_000, opts);
  } catch (e) {
    return { safe: false, reason: `Check failed: ${errorMessage(e)}` };
  }
}
