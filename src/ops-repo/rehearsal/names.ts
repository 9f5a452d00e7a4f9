/**
 * Evidence without absolute paths: the workspace root, the ops repository, MOGUI_HOME and HOME are named by
 * their role; any other absolute path is shortened to `.../<basename>`.
 */
import { basename, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { moguiHome } from "../../lib/context.ts";

export class PathNamer {
  private readonly roots: [string, string][];

  constructor(ctx: Pick<Ctx, "env" | "cwd">, root: string, ops: string) {
    const home = ctx.env.HOME ? resolve(ctx.env.HOME) : null;
    const list: [string, string][] = [
      [resolve(ops), "<ops-repo>"],
      [resolve(root), "<workspace-root>"],
      [moguiHome(ctx), "$MOGUI_HOME"],
    ];
    if (home && home !== "/") list.push([home, "~"]);
    // Longest first, so the ops repository inside the workspace root is named as the ops repository.
    this.roots = list.sort((a, b) => b[0].length - a[0].length);
  }

  name(p: string): string {
    const abs = resolve(p);
    for (const [r, label] of this.roots) {
      if (abs === r) return label;
      if (abs.startsWith(`${r}/`)) return `${label}/${abs.slice(r.length + 1)}`;
    }
    return p.startsWith("/") ? `.../${basename(abs)}` : p;
  }

  /** Replaces every absolute-path-looking token in free text. */
  scrub(text: string): string {
    return text.replace(/(^|[\s'"`(=:])(\/[^\s'"`),;]*)/g, (_m, pre: string, path: string) => `${pre}${this.name(path)}`);
  }
}
