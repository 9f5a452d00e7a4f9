/**
 * May this worktree be removed? Only when it is clean AND everything on its branch is already in origin/main
 * (by ancestry, or by tree equality after a squash merge). Every failure, ambiguity or exception answers
 * "leave, because ..."; a wrong removal destroys work, a skipped one costs a manual cleanup.
 *
 * "Clean" (DECISIONS D31) is more than an empty `git status`: an index entry with the skip-worktree or
 * assume-unchanged bit hides its edits from status (`hidden_index_flags`), and `git worktree remove` deletes
 * ignored files, so an ignored file of the precious set (`.env`, keys, credentials) or an ignored nested
 * repository leaves the worktree too (`precious_ignored:<first relative path>`). Other ignored files
 * (`node_modules/`, `dist/`) are regenerable and go with the worktree.
 */
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { errorMessage } from "../../lib/errors.ts";
import { git } from "../../lib/git.ts";

export type SafetyVerdict = { safe: true; reason: string; owner: string } | { safe: false; reason: string };

/** D31's precious ignored set: ignored files a removal must never take along (matched like .gitignore globs). */
export const DEFAULT_PRECIOUS_IGNORED: readonly string[] = [".env", ".env.*", ".envrc", "*.pem", "*.key", "*.p12", "*.pfx", "id_rsa*", "id_ed25519*", "*.secret", "credentials*", ".npmrc", ".pypirc", "*.local.json"];

export interface SafetyOptions {
  /** Replaces DEFAULT_PRECIOUS_IGNORED (the worker-surface policy's `reap.precious_ignored`). */
  precious?: readonly string[];
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
    let re = "";
    const body = p.replace(/^\//, "");
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c === "*" && body[i + 1] === "*") {
        i++;
        if (body[i + 1] === "/") {
          i++;
          re += "(?:.*/)?";
        } else re += ".*";
      } else if (c === "*") re += "[^/]*";
      else if (c === "?") re += "[^/]";
      else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    return { anchored, re: new RegExp(`^${re}$`) };
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
 * The first ignored file of the precious set, or an ignored nested repository (listed as `dir/`: it can hold
 * commits of its own). Files under a `node_modules/` directory are package-manager output, never precious.
 * No `--directory`: an ignored directory is walked, so `secrets/prod.pem` inside an ignored `secrets/` is seen.
 */
async function preciousIgnored(ctx: GitCtx, path: string, patterns: readonly string[], timeoutMs: number): Promise<string | null> {
  const args = ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", ".", ":(exclude,glob)**/node_modules/**"];
  const ls = await git(ctx, path, args, timeoutMs);
  if (!ls.ok) return `Could not list ignored files: ${ls.why}`;
  const precious = preciousMatcher(patterns);
  for (const rel of records(ls.stdout)) {
    if (rel.endsWith("/") || precious(rel)) return `${PRECIOUS_IGNORED}:${rel}`;
  }
  return null;
}

async function listWorktrees(ctx: GitCtx, path: string, timeoutMs: number): Promise<RepoFacts["worktrees"]> {
  const wl = await git(ctx, path, ["worktree", "list", "--porcelain"], timeoutMs);
  return wl.ok ? { ok: true, entries: parseWorktreeList(wl.stdout).map((e) => ({ ...e, real: real(e.path) })) } : { ok: false, why: wl.why };
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
  return { worktrees, merged };
}

/** The seed's check order: path, status (incl. untracked), branch, --merged, squash tree equality. */
async function check(ctx: GitCtx, path: string, timeoutMs: number, opts: SafetyOptions): Promise<SafetyVerdict> {
  if (!existsSync(path)) return { safe: false, reason: "Worktree path does not exist" };
  // Explicit -u: a repository's `status.showUntrackedFiles=no` would otherwise hide untracked files, and
  // `git worktree remove` then deletes them without a word.
  const st = await git(ctx, path, ["status", "--porcelain", "--untracked-files=normal"], timeoutMs);
  if (!st.ok) return { safe: false, reason: `Not a git repo or git error: ${st.why}` };
  if (st.stdout.trim() !== "") return { safe: false, reason: "Worktree has uncommitted changes" };
  const hidden = await indexHides(ctx, path, timeoutMs);
  if (hidden) return { safe: false, reason: hidden };
  if (!opts.allowIgnored) {
    const precious = await preciousIgnored(ctx, path, opts.precious ?? DEFAULT_PRECIOUS_IGNORED, timeoutMs);
    if (precious) return { safe: false, reason: precious };
  }
  const br = await git(ctx, path, ["branch", "--show-current"], timeoutMs);
  if (!br.ok) return { safe: false, reason: `Could not get current branch: ${br.why}` };
  const branch = br.stdout.trim();
  if (!branch) return { safe: false, reason: "Could not get current branch: detached HEAD" };

  // Which repository owns this worktree, and is this path a linked worktree of it (never its main one)?
  const wl = opts.repo?.worktrees ?? (await listWorktrees(ctx, path, timeoutMs));
  if (!wl.ok) return { safe: false, reason: `Could not list worktrees: ${wl.why}` };
  const entries = wl.entries;
  const owner = entries[0];
  const mine = real(path);
  const me = entries.find((e) => e.real === mine);
  if (!owner || !me) return { safe: false, reason: "Path is not a worktree of its repository" };
  if (me === owner) return { safe: false, reason: "Path is the main worktree of its repository" };
  if (me.locked) return { safe: false, reason: `Worktree is locked: ${me.locked}` };

  const merged = opts.repo?.merged ?? (await mergedBranches(ctx, path, timeoutMs));
  if (!merged.ok) return { safe: false, reason: `Could not compare with origin/main: ${merged.why}` };
  if (merged.names.includes(branch)) return { safe: true, reason: "branch is merged into origin/main", owner: owner.path };

  const mainTree = await git(ctx, path, ["rev-parse", "origin/main^{tree}"], timeoutMs);
  if (!mainTree.ok) return { safe: false, reason: `Could not read origin/main tree: ${mainTree.why}` };
  const mergedTree = await git(ctx, path, ["merge-tree", "--write-tree", "origin/main", "HEAD"], timeoutMs);
  const notIncluded = `Current branch ${branch} is not merged to origin/main (branch changes are not included in origin/main)`;
  // merge-tree exits 1 on conflicts: the branch then certainly holds changes origin/main lacks.
  if (!mergedTree.ok) return { safe: false, reason: mergedTree.code === 1 ? notIncluded : `Could not merge-tree: ${mergedTree.why}` };
  const a = mainTree.stdout.trim();
  const b = (mergedTree.stdout.split("\n")[0] ?? "").trim();
  if (a && a === b) return { safe: true, reason: "branch changes are already included in origin/main", owner: owner.path };
  return { safe: false, reason: notIncluded };
}

export async function worktreeSafety(ctx: GitCtx, path: string, timeoutMs?: number, opts: SafetyOptions = {}): Promise<SafetyVerdict> {
  try {
    return await check(ctx, path, timeoutMs ?? 30_000, opts);
  } catch (e) {
    return { safe: false, reason: `Check failed: ${errorMessage(e)}` };
  }
}
