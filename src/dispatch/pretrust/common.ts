/**
 * What the two pretrust commands share: the `Summary:` line, the error type (always exit 2), lstat without ENOENT and
 * the atomic no-follow write (temp file in the same directory, then rename).
 */
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";
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

/**
 * Write `data` to `path` atomically: a temp file created with O_EXCL|O_NOFOLLOW beside it, fsynced, then renamed
 * over it. A crash leaves either the old file or the new one, never a half-written one.
 */
export function atomicWrite(path: string, data: Uint8Array, mode: number, tmpName = `.${basename(path)}.tmp.${process.pid}`): void {
  const tmp = join(dirname(path), tmpName);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    try {
      fchmodSync(fd, mode);
      let off = 0;
      while (off < data.length) off += writeSync(fd, data, off, data.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
}

export function errnoText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, "")}` : String(errorMessage(e) ?? e);
}
