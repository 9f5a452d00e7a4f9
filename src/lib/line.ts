/**
 * One diagnostic line, `<prefix>: <text>` (or `<text>` with no prefix), for paths whose start-up is measured (main's
 * exit line, sandbox run, the simulators): the logger (src/lib/log.ts, consola) is loaded only when stderr takes
 * colour, for the verdict words it paints; otherwise the very same bytes are written without it.
 */
import { type Ctx, useColor } from "./context.ts";

export async function diagLine(ctx: Ctx, prefix: string, text: string): Promise<void> {
  if (useColor(ctx, ctx.io.stderrIsTTY)) (await import("./log.ts")).logger(ctx, prefix).log(text);
  else ctx.io.stderr(`${prefix ? `${prefix}: ` : ""}${text}\n`);
}
