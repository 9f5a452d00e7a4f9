/** Small I/O helpers shared by the lifecycle commands: sorted JSON output and JSON input files. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { ExitError, UsageError } from "../../lib/errors.ts";
import { printJson, sortKeys } from "../../lib/output.ts";

/** Sorted keys at every level; compact with --json, indented without (§5.1). */
export function emit(ctx: Ctx, value: unknown, compact: boolean): void {
  printJson(ctx, sortKeys(value), compact);
}

export function readText(ctx: Ctx, path: string, label: string): string {
  try {
    return readFileSync(resolve(ctx.cwd, path), "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ExitError(2, `${label}: cannot read ${path}${code ? ` (${code})` : ""}`);
  }
}

export function readJsonFile(ctx: Ctx, path: string, label: string): unknown {
  const text = readText(ctx, path, label);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ExitError(2, `${label}: ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

export function parseIntFlag(raw: string | undefined, flag: string, cmd: string, min = Number.MIN_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${flag} must be an integer (got '${raw}')`, cmd);
  const n = Number(raw.trim());
  if (n < min) throw new UsageError(`--${flag} must be >= ${min} (got '${raw}')`, cmd);
  return n;
}

/** `--self-handle`, else the handle Orca sets inside its own terminals; one of them is required. */
export function selfHandle(ctx: Ctx, flag: string | undefined, cmd: string): string {
  const h = flag ?? ctx.env.ORCA_TERMINAL_HANDLE?.trim();
  if (!h) throw new UsageError("missing required flag --self-handle (outside an Orca terminal $ORCA_TERMINAL_HANDLE is not set)", cmd);
  return h;
}
