/** The ops repository a hook or helper works on: --ops > $MOGUI_OPS_REPO > the hook's working directory. */
import { resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";

export const OPS_ENV = "MOGUI_OPS_REPO";

export function opsRepo(ctx: Pick<Ctx, "env" | "cwd">, flag: string | undefined, cwd: string): string {
  if (flag) return resolve(ctx.cwd, flag);
  const env = ctx.env[OPS_ENV]?.trim();
  if (env) return resolve(ctx.cwd, env);
  return cwd;
}
