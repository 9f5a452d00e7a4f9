/**
 * What the two pretrust commands share: the `Summary:` line, the error type (always exit 2), lstat without ENOENT (the
 * atomic no-follow write is atomicWrite in src/lib/fs.ts).
 */
import { lstatSync, type Stats } from "node:fs";
import type { Ctx } from "../../lib/context.ts";
import { printLines } from "../../lib/output.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export class PretrustError extends Error {
  override name = "PretrustError";
}

export interface Tally {
  added: number;
  updated: number;
  already: number;
}

export function summaryLine(t: Tally): string {
  return `Summary: ${t.added} added, ${t.updated} updated, ${t.already} already trusted`;
}

/** The outcome of one run: stdout lines (per-target lines, then the Summary line). */
export interface PretrustResult {
  lines: string[];
  tally: Tally;
}

/** A pretrust command's run: its lines on stdout ("ok"); a PretrustError goes to `refuse` with the message alone. */
export function printPretrust(ctx: Ctx, pretrust: () => PretrustResult, refuse: (message: string) => never): "ok" {
  let result: PretrustResult;
  try {
    result = pretrust();
  } catch (e) {
    if (e instanceof PretrustError) refuse(e.message);
    throw e;
  }
  printLines(ctx, result.lines);
  return "ok";
}

export function hasLineBreak(p: string): boolean {
  return /[\r\n]/.test(p);
}

/** lstat that says "absent" instead of throwing ENOENT. */
export function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw e;
  }
}

export function errnoText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, "")}` : String(errorMessage(e) ?? e);
}
