/** Finding the transcript to read: explicit path, or the newest regular file a glob matches (reference §19/§20). */
import { statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { globPaths } from "../../lib/glob.ts";
import { expandHome } from "../../lib/paths.ts";

/** Every regular file the glob matches (`**` recursive), absolute; dangling symlinks and unstattable paths skipped. */
export function globFiles(ctx: Pick<Ctx, "env" | "cwd">, pattern: string): Array<{ path: string; mtimeMs: number }> {
  const out: Array<{ path: string; mtimeMs: number }> = [];
  for (const p of globPaths(resolve(ctx.cwd, expandHome(ctx, pattern)), { onlyFiles: false, followSymlinks: true })) {
    try {
      const st = statSync(p);
      if (st.isFile()) out.push({ path: p, mtimeMs: st.mtimeMs });
    } catch {
      // dangling symlink or vanished file: not a candidate
    }
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
export function lookupProjectTranscript(ctx: Pick<Ctx, "env" | "cwd">, projectsDir: string | undefined, session: string | undefined, workspace: string | undefined): string | null {
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
