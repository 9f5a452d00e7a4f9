/**
 * Path facts for product-path-guard: the product root in every spelling that matters (as configured and with
 * symlinks resolved), and "does this path land inside it" with symlinks in the path resolved too, so
 * `/tmp/link-to-product/x` counts as the product. Paths that do not exist yet resolve through their deepest
 * existing ancestor (a new file inside a symlinked directory is still inside). `..` is resolved the way the kernel
 * does (physically: `link/..` is the parent of the link's target), as well as lexically.
 *
 * It fails closed (issue 23): a path the kernel cannot inspect here (a symlink loop, a path through a regular file,
 * no permission) throws GuardUnsure, which the guard turns into a block. A path too long for the kernel to take in
 * one piece (ENAMETOOLONG) cannot be opened as written: it is judged by its longest prefix that can.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, basename } from "node:path";
import { spend } from "../../lib/shell-expand.ts";
import { errnoCode } from "../../lib/errors.ts";

/** The guard cannot decide where a path leads: always a block, never an allow. */
export class GuardUnsure extends Error {
  override name = "GuardUnsure";
}

const realCache = new Map<string, string>();
/** Symlinks followed by hand (dangling ones) before a chain counts as a loop, as the kernel's limit. */
const MAX_LINKS = 40;
const PATH_MAX = 4096;

/** One line, bounded: a path quoted in a block reason. */
export function shortPath(p: string): string {
  const one = p.replace(/[\u0000-\u001f\u007f]/g, "?");
  return one.length > 120 ? `${one.slice(0, 117)}...` : one;
}

function unsure(code: string | undefined, p: string): GuardUnsure {
  const what = code === "ELOOP" ? "a symlink loop" : code === "ENOTDIR" ? "a path through a file that is not a directory" : code === "EACCES" || code === "EPERM" ? "a path it may not read" : `a path it cannot inspect (${code ?? "error"})`;
  return new GuardUnsure(`cannot tell where ${shortPath(p)} leads: ${what}`);
}

/** lstat that says "absent" for ENOENT and ENAMETOOLONG, and throws GuardUnsure for anything else it cannot see. */
function exists(p: string): boolean {
  // A path probe costs far more than a character scanned.
  spend(64);
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENAMETOOLONG" || code === "ENOENT") return false;
    throw unsure(code, p);
  }
}

/** A dangling symlink still decides where a write lands: follow its text (one level, then canonical again). */
function danglingTarget(link: string, hops: number): string | undefined {
  let target: string;
  try {
    target = readlinkSync(link);
  } catch {
    return undefined;
  }
  const abs = resolve(dirname(link), target);
  if (abs === link || hops >= MAX_LINKS) throw unsure("ELOOP", link);
  return canonical(abs, hops + 1);
}

/** realpath of p, resolving through its deepest existing ancestor. p may hold `..` and `.` (read physically). */
export function canonical(p: string, hops = 0): string {
  const tail: string[] = [];
  let cur = p;
  if (cur.length > PATH_MAX) {
    // The kernel refuses a path this long in one piece: start from the longest prefix it can take.
    const cut = cur.lastIndexOf("/", PATH_MAX);
    for (const part of cur
      .slice(cut + 1)
      .split("/")
      .reverse())
      if (part !== "") tail.push(part);
    cur = cut > 0 ? cur.slice(0, cut) : "/";
  }
  for (let i = 0; i < 4096; i++) {
    const hit = realCache.get(cur);
    if (hit !== undefined) return tail.length ? join(hit, ...tail.reverse()) : hit;
    if (exists(cur)) {
      let real: string;
      try {
        // The native realpath(3): the JS one normalises `..` lexically first, which is not what the kernel does.
        real = realpathSync.native(cur);
      } catch (e) {
        const code = errnoCode(e);
        if (code !== "ENOENT") throw unsure(code, cur);
        real = danglingTarget(cur, hops) ?? cur;
      }
      realCache.set(cur, real);
      return tail.length ? join(real, ...tail.reverse()) : real;
    }
    const up = dirname(cur);
    if (up === cur) return resolve(p);
    tail.push(basename(cur));
    cur = up;
  }
  throw unsure("ENAMETOOLONG", p);
}

export class ProductRoots {
  readonly roots: string[];

  constructor(readonly configured: string) {
    const real = canonical(configured);
    this.roots = real === configured ? [configured] : [configured, real];
  }

  /** Is the absolute path p (lexically, or once symlinks and `..` are resolved) the product root or inside it? */
  contains(p: string): boolean {
    if (this.lexicallyInside(resolve(p))) return true;
    return this.lexicallyInside(canonical(p));
  }

  /** Is p (lexically or physically) a proper ancestor of the product root (`/`, its parent, ...)? */
  isAncestor(p: string): boolean {
    if (this.ancestorOf(resolve(p))) return true;
    return this.ancestorOf(canonical(p));
  }

  /** Inside the product, or an ancestor of it: a write, move, delete or mode change there can reach the product. */
  reaches(p: string): boolean {
    return this.contains(p) || this.isAncestor(p);
  }

  private ancestorOf(p: string): boolean {
    const pre = p.endsWith("/") ? p : `${p}/`;
    for (const r of this.roots) if (r !== p && r.startsWith(pre)) return true;
    return false;
  }

  // Plain loops rather than Array.prototype.some here and below: a hook runs cold, and each array builtin's first
  // call costs a measurable slice of its start-up (issue 8).
  private lexicallyInside(p: string): boolean {
    for (const r of this.roots) if (p === r || p.startsWith(r.endsWith("/") ? r : `${r}/`)) return true;
    return false;
  }

  /** Does free text (an inline script) mention the product root as a path? */
  mentionedIn(text: string): boolean {
    for (const r of this.roots) {
      let at = text.indexOf(r);
      while (at >= 0) {
        const next = text[at + r.length];
        if (next === undefined || !/[A-Za-z0-9_.-]/.test(next)) return true;
        at = text.indexOf(r, at + 1);
      }
    }
    return false;
  }
}

/** A word resolved as a path from cwd, normalised lexically (how bash's `cd` reads it). */
export function resolveFrom(cwd: string, word: string): string {
  return isAbsolute(word) ? resolve(word) : resolve(cwd, word);
}

/** A word as the kernel will read it: joined to cwd, `..` and symlinks left for canonical() to resolve. */
export function rawFrom(cwd: string, word: string): string {
  if (!isAbsolute(word)) return `${cwd}/${word}`;
  // /proc/<pid>/cwd and /proc/<pid>/root name the shell's own directories, not this hook's: read them as such.
  if (word.startsWith("/proc/")) {
    const m = /^\/proc\/+(?:self|thread-self|\d+)(?:\/+task\/+\d+)?\/+(cwd|root)(\/.*)?$/.exec(word);
    if (m) return m[1] === "cwd" ? `${cwd}${m[2] ?? ""}` : m[2] || "/";
  }
  return word;
}
