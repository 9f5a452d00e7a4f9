/**
 * What the ledger's sidecar caches (`<ledger>.idx/`) share. Each cache file records the ledger byte offset it is
 * current to, and fingerprints of the ledger's first bytes and of the bytes just before that offset. A reader validates the fingerprints (a truncated, replaced or rewritten ledger fails them
 * and the cache is rebuilt), then catches up by scanning only the complete lines appended since. Caches are
 * written atomically (tmp + rename) and are never the source of truth: deleting them is always safe.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { LedgerError } from "../../lib/ledger.ts";
import type { Progress } from "../../lib/log.ts";
import { readLines } from "./ledger-fd.ts";
import { atomicWrite } from "../../lib/fs.ts";

export const SIDECAR_VERSION = 1;
const HEAD_BYTES = 256;
const TAIL_BYTES = 64;
const CATCH_UP_GC_CHUNKS = 16;

export interface SidecarHeader {
  v: number;
  offset: number;
  head: string;
  tail: string;
}

export function indexDir(ledger: string): string {
  return `${ledger}.idx`;
}

function digest(fd: number, from: number, to: number): string {
  const len = Math.max(0, to - from);
  const buf = Buffer.alloc(len);
  if (len) readSync(fd, buf, 0, len, from);
  return createHash("sha256").update(buf).digest("hex").slice(0, 32);
}

/** The cache file's JSON when it exists, has this version and a sane header; undefined otherwise. */
export function readSidecar<T extends SidecarHeader>(ledger: string, name: string): T | undefined {
  try {
    const b = JSON.parse(readFileSync(join(indexDir(ledger), name), "utf8")) as T;
    if (b.v !== SIDECAR_VERSION || !Number.isInteger(b.offset) || b.offset < 0) return undefined;
    return b;
  } catch {
    return undefined;
  }
}

/** Do the header's fingerprints still match this ledger? */
export function stillValid(fd: number, size: number, h: SidecarHeader): boolean {
  if (h.offset > size) return false;
  if (digest(fd, 0, Math.min(HEAD_BYTES, h.offset)) !== h.head) return false;
  return digest(fd, Math.max(0, h.offset - TAIL_BYTES), h.offset) === h.tail;
}

/** Refresh the fingerprints for the header's (new) offset. */
export function fingerprint(fd: number, h: SidecarHeader): void {
  h.head = digest(fd, 0, Math.min(HEAD_BYTES, h.offset));
  h.tail = digest(fd, Math.max(0, h.offset - TAIL_BYTES), h.offset);
}

/**
 * Feed every complete line from `h.offset` to the last newline to `onLine` (false = corrupt: an error naming the
 * line), advancing `h.offset`. A final line without its newline is left for a later catch-up.
 */
export function catchUp(ledger: string, fd: number, size: number, h: SidecarHeader, onLine: (text: string) => boolean, rebuilding?: RebuildProgress): void {
  // A catch-up from offset 0 (a cache rebuilt from scratch) reads the whole ledger inside a `check`, whose peak RSS
  // must stay under 100 MB: collect every 16 MB read. A normal catch-up reads a few rows and never gets there.
  const p = h.offset === 0 ? rebuilding?.(size) : undefined;
  if (!p) {
    h.offset = readLines(ledger, fd, h.offset, size, onLine, CATCH_UP_GC_CHUNKS).end;
    return;
  }
  try {
    h.offset = readLines(ledger, fd, 0, size, onLine, CATCH_UP_GC_CHUNKS, (pos) => p.update(mib(pos), mib(size), "MB")).end;
  } catch (e) {
    p.end("stopped");
    throw e;
  }
  p.end(`${mib(size)} MB scanned`);
}

/**
 * Progress for a cache rebuilt from scratch: given the bytes the scan will read, a Progress to report to, or
 * undefined when the scan is quick (nothing shown). The hot path (a catch-up of a few rows) never asks.
 */
export type RebuildProgress = (bytes: number) => Progress | undefined;

function mib(bytes: number): number {
  return Math.round(bytes / (1 << 20));
}

/** The byte offset just after the ledger's last newline (0 when it has none). */
export function completeEnd(fd: number, size: number): number {
  const buf = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const from = Math.max(0, end - buf.length);
    const n = readSync(fd, buf, 0, end - from, from);
    const i = buf.subarray(0, n).lastIndexOf(0x0a);
    if (i >= 0) return from + i + 1;
    end = from;
  }
  return 0;
}

/** Run a ledger read; any I/O error that is not already a LedgerError becomes one ("unreadable"), never a crash. */
export function readingLedger<T>(ledger: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof LedgerError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (err && typeof err.code === "string") throw new LedgerError("unreadable", ledger, `read failed: ${err.code}: ${err.message}`);
    throw e;
  }
}

/** Write a cache file atomically; best effort (a cache that cannot be written is rebuilt next time). */
export function saveSidecar(ledger: string, name: string, value: SidecarHeader): void {
  try {
    mkdirSync(indexDir(ledger), { recursive: true });
    const path = join(indexDir(ledger), name);
    atomicWrite(path, JSON.stringify(value));
  } catch {
    /* a cache only */
  }
}

/** Parse one ledger line as an object row; undefined for a blank line; null for a corrupt one. */
export function parseRow(text: string): Record<string, unknown> | undefined | null {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    return text.trim() === "" ? undefined : null;
  }
  return typeof row === "object" && row !== null && !Array.isArray(row) ? (row as Record<string, unknown>) : null;
}
