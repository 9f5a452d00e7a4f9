/**
 * File globs (`*`, `**`, `?`, `[...]`, `{a,b}`) with Bun.Glob. A pattern is split at its first segment holding a glob
 * character: the static directories before it are the scan root, so an absolute pattern never scans from `/`.
 * Dot files are not matched by `*` (as in a shell).
 */
import { isAbsolute, join } from "node:path";

const GLOB_CHARS = /[*?[\]{}]/;

export function hasGlob(pattern: string): boolean {
  return GLOB_CHARS.test(pattern);
}

/**
 * The paths `pattern` matches, joined to the scan root (absolute when the pattern is). A pattern without glob
 * characters yields itself, existing or not; an unreadable scan root yields nothing.
 */
export function globPaths(pattern: string, opts: { onlyFiles: boolean; followSymlinks?: boolean }): string[] {
  const parts = pattern.split("/");
  const first = parts.findIndex((p) => GLOB_CHARS.test(p));
  if (first < 0) return [pattern];
  const base = parts.slice(0, first).join("/") || (pattern.startsWith("/") ? "/" : ".");
  const rest = parts.slice(first).join("/");
  try {
    const scan = new Bun.Glob(rest).scanSync({ cwd: base, onlyFiles: opts.onlyFiles, followSymlinks: opts.followSymlinks ?? false, dot: false });
    return [...scan].map((rel) => (isAbsolute(rel) ? rel : join(base, rel)));
  } catch {
    return [];
  }
}
