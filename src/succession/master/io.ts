/** Small I/O helpers shared by the lifecycle commands: JSON input files and the self handle. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { errnoCode, errorMessage, UsageError } from "../../lib/errors.ts";

/**
 * An input file that cannot be read or parsed: `kind` is the commands' row, `usage` (one line, no help hint); the
 * message is the whole line. The commands map it (commands/succession/_shared.ts, readInput).
 */
export class InputError extends Error {
  readonly kind = "usage";
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

export function readText(ctx: Ctx, path: string, label: string): string {
  try {
    return readFileSync(resolve(ctx.cwd, path), "utf8");
  } catch (e) {
    const code = errnoCode(e);
    throw new InputError(`${label}: cannot read ${path}${code ? ` (${code})` : ""}`);
  }
}

export function readJsonFile(ctx: Ctx, path: string, label: string): unknown {
  const text = readText(ctx, path, label);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${label}: ${path} is not valid JSON: ${errorMessage(e)}`);
  }
}

/** `--self-handle`, else the handle Orca sets inside its own terminals; one of them is required. */
export function selfHandle(ctx: Ctx, flag: string | undefined, cmd: string): string {
  const h = flag ?? ctx.env.ORCA_TERMINAL_HANDLE?.trim();
  if (!h) throw new UsageError("missing required flag --self-handle (outside an Orca terminal $ORCA_TERMINAL_HANDLE is not set)", cmd);
  return h;
}
