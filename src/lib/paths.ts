/** Path helpers shared by the families: `~` expansion and the lexical "inside this root" test. */
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Ctx } from "./context.ts";

export function expandHome(ctx: Pick<Ctx, "env">, p: string): string {
  const home = ctx.env.HOME || homedir();
  if (p === "~") return home;
  if (p.startsWith("~/")) return join(home, p.slice(2));
  return p;
}

/**
 * True when `child` is `root` itself or inside it (lexically, after resolve). Only a leading `..` SEGMENT leaves the
 * root: `..notes/x` is a child named `..notes`.
 */
export function within(root: string, child: string): boolean {
  const r = relative(resolve(root), resolve(child));
  return r === "" || (!isAbsolute(r) && r.split(sep)[0] !== "..");
}
