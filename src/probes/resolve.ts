/** Finding the transcript to read: explicit path, or the newest regular file a glob matches (reference §19/§20). */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import type { Ctx } from "../lib/context.ts";

export function expandHome(ctx: Pick<Ctx, "env">, p: string): string {
  const home = ctx.env.HOME || homedir();
  if (p === "~") return home;
  if (p.startsWith("~/")) return join(home, p.slice(2));
  return p;
}

const GLOB_CHARS = /[*?[\]{}]/;

/** Every regular file the glob matches (`**` recursive), absolute; dangling symlinks and unstattable paths skipped. */
export function globFiles(ctx: Pick<Ctx, "env" | "cwd">, pattern: string): Array<{ path: string; mtimeMs: number }> {
  const abs = resolve(ctx.cwd, expandHome(ctx, pattern));
  const parts = abs.split("/");
  let i = 0;
  while (i < parts.length && !GLOB_CHARS.test(parts[i]!)) i++;
  const out: Array<{ path: string; mtimeMs: number }> = [];
  const add = (p: string) => {
    try {
      const st = statSync(p);
      if (st.isFile()) out.push({ path: p, mtimeMs: st.mtimeMs });
    } catch {
      // dangling symlink or vanished file: not a candidate
    }
  };
  if (i === parts.length) {
    add(abs);
    return out;
  }
  const base = parts.slice(0, i).join("/") || "/";
  const rest = parts.slice(i).join("/");
  try {
    for (const rel of new Bun.Glob(rest).scanSync({ cwd: base, onlyFiles: false, followSymlinks: true, dot: false })) {
      add(isAbsolute(rel) ? rel : join(base, rel));
    }
  } catch {
    // an unreadable base directory matches nothing
  }
  return out;
}

/** Newest by mtime (ties: lexically last path, so the choice is stable). */
export function newest(files: Array<{ path: string; mtimeMs: number }>): string | null {
  let best: { path: string; mtimeMs: number } | null = null;
  for (const f of files) {
    if (!best || f.mtimeMs > best.mtimeMs || (f.mtimeMs === best.mtimeMs && f.path > best.path)) best = f;
  }
  return best?.path ?? null;
}

/** §20 lookup under a projects dir: `<projects>/*\/<session>.jsonl`, else `<projects>/<workspace>/*.jsonl`. */
export function lookupProjectTranscript(
  ctx: Pick<Ctx, "env" | "cwd">,
  projectsDir: string | undefined,
  session: string | undefined,
  workspace: string | undefined,
): string | null {
  if (!projectsDir) return null;
  const root = resolve(ctx.cwd, expandHome(ctx, projectsDir));
  if (session !== undefined) {
    const id = basename(session);
    if (id === "" || id === "." || id === "..") return null;
    return newest(globFiles(ctx, join(root, "*", `${escapeGlob(id)}.jsonl`)));
  }
  if (workspace !== undefined) {
    const ws = basename(workspace);
    if (ws === "" || ws === "." || ws === "..") return null;
    return newest(globFiles(ctx, join(root, escapeGlob(ws), "*.jsonl")));
  }
  return null;
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]{}\\]/g, "\\$&");
}
