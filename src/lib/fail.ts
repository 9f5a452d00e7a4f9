/**
 * The one mapping of a command's error to its exit (main and the direct route share it): a usage error is its line
 * and the hint to --help (2); an ExitError its message and code; anything else one line, `internal error` (1), with
 * the stack only under --debug. These lines are written as they are: this is every command's start-up path (the
 * hooks' too), so the logger is never loaded for a usage error. An exit line (`fail()`) is a diagLine: through the
 * logger only when stderr takes colour, for its verdict word (`...: FAIL. ...`).
 */
import type { Ctx } from "./context.ts";
import { ExitError, UsageError, errorMessage } from "./errors.ts";
import { GLOBAL_EXIT } from "./exits.ts";
import { diagLine } from "./line.ts";

export async function exitForError(ctx: Ctx, e: unknown): Promise<number> {
  if (e instanceof UsageError) {
    ctx.io.stderr(`mogui: ${e.message}\n`);
    ctx.io.stderr(e.command ? `Run 'mogui ${e.command} --help' for usage.\n` : "Run 'mogui --help' for usage.\n");
    return GLOBAL_EXIT.USAGE;
  }
  if (e instanceof ExitError) {
    await diagLine(ctx, "", e.message);
    return e.code;
  }
  ctx.io.stderr(`mogui: internal error: ${errorMessage(e)}\n`);
  if (ctx.debug && e instanceof Error && e.stack) ctx.io.stderr(`${e.stack}\n`);
  return GLOBAL_EXIT.INTERNAL;
}
