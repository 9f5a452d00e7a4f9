/**
 * DECISIONS D40: reap keeps what it cannot prove regenerable. The rules `worktree-safety.ts` applies on top of
 * "clean and merged", shared by `worker-reap` and `fleet reap`:
 *
 * - identity: the worktree directory is not itself a symlink, its real path is the one the named repository's
 *   `git worktree list --porcelain` gives (parents resolved, the last component not followed), and its `.git` file
 *   points at `<common dir>/worktrees/<id>` of that repository, whose `gitdir` file points back at it
 *   (`identity_mismatch:<what>` otherwise);
 * - an ignored file is precious unless it matches the regenerable set (`regenerableMatcher`);
 * - a git operation in progress in the worktree's gitdir (`operation_in_progress:<op>`);
 * - a `refs/worktree/*` ref holding commits no branch or remote has (`worktree_ref_unique:<ref>`);
 * - commits reachable only from the worktree's HEAD reflog are counted (a documented limit: they do not keep it).
 */
import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { git } from "../../lib/git.ts";

type GitCtx = Pick<Ctx, "runner" | "env">;

export const IDENTITY_MISMATCH = "identity_mismatch";
export const OPERATION_IN_PROGRESS = "operation_in_progress";
const WORKTREE_REF_UNIQUE = "worktree_ref_unique";

/** D40's default regenerable set (`reap.regenerable` in the worker-surface policy replaces it). */
export const DEFAULT_REGENERABLE: readonly string[] = [
  "node_modules/",
  "dist/",
  "build/",
  "out/",
  "target/",
  ".venv/",
  "venv/",
  "__pycache__/",
  "*.pyc",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  ".next/",
  ".nuxt/",
  ".turbo/",
  ".cache/",
  "coverage/",
  ".gradle/",
  "*.o",
  "*.class",
  ".DS_Store",
];

/** A .gitignore-style glob body (double star, star, question mark) as an anchored RegExp over a relative path. */
export function globRe(body: string): RegExp {
  let re = "";
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
  return new RegExp(`^${re}$`);
}

/**
 * The regenerable set as a predicate over an ignored file's relative path, .gitignore style: `dir/` matches a
 * directory component at any depth (`a/dist/x.js`), a pattern without `/` matches any component (`.DS_Store`,
 * `*.pyc`), a pattern with an inner `/` is anchored at the worktree root.
 */
export function regenerableMatcher(patterns: readonly string[]): (relPath: string) => boolean {
  const rules = patterns.map((raw) => {
    const dirOnly = raw.endsWith("/");
    const p = raw.replace(/\/+$/, "");
    const anchored = p.replace(/^\//, "").includes("/") || p.startsWith("/");
    return { dirOnly, anchored, re: globRe(p.replace(/^\//, "")) };
  });
  return (rel) => {
    const parts = rel.replace(/\/$/, "").split("/");
    // Directory components are every part but the last (a nested repository `dir/` is not a file: never regenerable).
    const dirs = rel.endsWith("/") ? [] : parts.slice(0, -1);
    return rules.some(({ dirOnly, anchored, re }) => {
      if (anchored) {
        for (let k = 1; k <= parts.length; k++) {
          const prefix = parts.slice(0, k).join("/");
          if (re.test(prefix) && (!dirOnly || k < parts.length)) return true;
        }
        return false;
      }
      if (dirOnly) return dirs.some((d) => re.test(d));
      return (rel.endsWith("/") ? dirs : parts).some((d) => re.test(d));
    });
  };
}

/** The worktree's path as the repository lists it, parents resolved, the last component NOT followed. */
export function listedReal(p: string): string {
  try {
    return join(realpathSync(dirname(p)), basename(p));
  } catch {
    return p;
  }
}

export interface Identity {
  /** The verified real path: processes are matched against this path only. */
  real: string;
  /** The worktree's gitdir (`<common>/worktrees/<id>`), real path. */
  gitdir: string;
}

function readGitFile(dotGit: string): string | null {
  try {
    const st = lstatSync(dotGit);
    if (!st.isFile()) return null;
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"));
    return m ? m[1]!.trim() : null;
  } catch {
    return null;
  }
}

function realOr(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * Does `path` (an entry of the named repository's worktree list, `listed` as git printed it) really belong to the
 * repository whose common dir is `commonDir`? Reads only the file system.
 */
export function verifyIdentity(path: string, listed: string, commonDir: string): { ok: true; id: Identity } | { ok: false; reason: string } {
  const bad = (what: string) => ({ ok: false as const, reason: `${IDENTITY_MISMATCH}:${what}` });
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return bad("worktree directory unreadable");
  }
  if (st.isSymbolicLink()) return bad("worktree directory is a symlink");
  if (!st.isDirectory()) return bad("worktree path is not a directory");
  const real = realOr(path);
  if (real === null || real !== listedReal(listed)) return bad("real path differs from the repository's worktree list");
  const pointer = readGitFile(join(real, ".git"));
  if (pointer === null) return bad(".git is not a gitdir file");
  const gitdir = realOr(isAbsolute(pointer) ? pointer : resolve(real, pointer));
  const common = realOr(commonDir);
  if (gitdir === null || common === null || dirname(gitdir) !== join(common, "worktrees")) return bad(".git points outside the repository's worktrees");
  let back: string;
  try {
    back = readFileSync(join(gitdir, "gitdir"), "utf8").trim();
  } catch {
    return bad("the repository's gitdir has no back-pointer");
  }
  const backReal = realOr(dirname(back));
  if (backReal !== real) return bad("the repository's gitdir points at another directory");
  return { ok: true, id: { real, gitdir } };
}

/** A git operation in progress in the worktree's gitdir (the state files git itself writes), or null. */
export function operationInProgress(gitdir: string): string | null {
  const has = (n: string) => existsSync(join(gitdir, n));
  if (has("rebase-apply")) return has("rebase-apply/applying") ? "am" : "rebase";
  if (has("rebase-merge")) return "rebase";
  if (has("MERGE_HEAD")) return "merge";
  if (has("CHERRY_PICK_HEAD")) return "cherry-pick";
  if (has("REVERT_HEAD")) return "revert";
  if (has("sequencer")) return "sequencer";
  if (has("BISECT_LOG") || has("BISECT_START")) return "bisect";
  return null;
}

/**
 * The first `refs/worktree/*` ref of this worktree that holds a commit no branch or remote has, or null. Per-worktree
 * refs are never packed (files backend), so a gitdir without `refs/worktree/` has none and costs no git call.
 */
export async function uniqueWorktreeRef(ctx: GitCtx, real: string, gitdir: string, commonDir: string, timeoutMs: number): Promise<string | null> {
  if (!existsSync(join(gitdir, "refs", "worktree")) && !existsSync(join(commonDir, "reftable"))) return null;
  const refs = await git(ctx, real, ["for-each-ref", "--format=%(refname)", "refs/worktree/"], timeoutMs);
  if (!refs.ok) return `Could not list refs/worktree: ${refs.why}`;
  for (const ref of refs.stdout.split("\n").filter(Boolean)) {
    const r = await git(ctx, real, ["rev-list", "-n", "1", ref, "--not", "--branches", "--remotes"], timeoutMs);
    if (!r.ok) return `Could not compare ${ref}: ${r.why}`;
    if (r.stdout.trim() !== "") return `${WORKTREE_REF_UNIQUE}:${ref}`;
  }
  return null;
}

/**
 * Commits reachable only from the worktree's HEAD reflog (no ref, no worktree HEAD has them): counted, not kept
 * (D40's documented limit). null when it cannot be told.
 */
export async function reflogOnlyCommits(ctx: GitCtx, real: string, gitdir: string, timeoutMs: number): Promise<number | null> {
  let text: string;
  try {
    text = readFileSync(join(gitdir, "logs", "HEAD"), "utf8");
  } catch {
    return 0;
  }
  const shas = new Set<string>();
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) /.exec(line);
    if (!m) continue;
    for (const s of [m[1]!, m[2]!]) if (!/^0+$/.test(s)) shas.add(s);
  }
  if (shas.size === 0) return 0;
  const r = await git(ctx, real, ["rev-list", "--count", "--ignore-missing", ...shas, "--not", "--all"], timeoutMs);
  return r.ok ? Number(r.stdout.trim()) || 0 : null;
}
