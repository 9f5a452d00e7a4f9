/**
 * Path facts for product-path-guard: the product root in every spelling that matters (as configured and with
 * symlinks resolved), and "does this path land inside it" with symlinks in the path resolved too, so
 * `/tmp/link-to-product/x` counts as the product. Paths that do not exist yet resolve through their deepest
 * existing ancestor (a new file inside a symlinked directory is still inside).
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, basename } from "node:path";

const realCache = new Map<string, string>();

/** A dangling symlink still decides where a write lands: follow its text (one level, then canonical again). */
function danglingTarget(link: string): string | undefined {
  try {
    const target = readlinkSync(link);
    const abs = resolve(dirname(link), target);
    return abs === link ? undefined : canonical(abs);
  } catch {
    return undefined;
  }
}

/** realpath of p, resolving through its deepest existing ancestor; lstat probes never throw (hooks must be cheap). */
function canonical(p: string): string {
  const tail: string[] = [];
  let cur = p;
  for (let i = 0; i < 256; i++) {
    const hit = realCache.get(cur);
    if (hit !== undefined) return tail.length ? join(hit, ...tail.reverse()) : hit;
    if (lstatSync(cur, { throwIfNoEntry: false })) {
      let real: string;
      try {
        real = realpathSync(cur);
      } catch {
        real = danglingTarget(cur) ?? cur;
      }
      realCache.set(cur, real);
      return tail.length ? join(real, ...tail.reverse()) : real;
    }
    const up = dirname(cur);
    if (up === cur) return p;
    tail.push(basename(cur));
    cur = up;
  }
  return p;
}

export class ProductRoots {
  readonly roots: string[];

  constructor(readonly configured: string) {
    const real = canonical(configured);
    this.roots = real === configured ? [configured] : [configured, real];
  }

  /** Is the absolute path p (lexically, or once symlinks are resolved) the product root or inside it? */
  contains(p: string): boolean {
    if (this.lexicallyInside(p)) return true;
    return this.lexicallyInside(canonical(p));
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

/** A word resolved as a path from cwd (absolute words as they are). */
export function resolveFrom(cwd: string, word: string): string {
  return isAbsolute(word) ? resolve(word) : resolve(cwd, word);
}
