/**
 * The synchronous ledger reads the gate shares (the whole-ledger scan of `report`, the backwards tier-window tail
 * and the sidecar catch-ups): open with "absent = empty", forward reads of complete lines in 1 MB chunks, and the
 * line number of a byte offset for error messages.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { LedgerError } from "../../lib/ledger.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export const CHUNK = 1 << 20;

/**
 * Run `read` on the ledger's open descriptor and its size, then close it; `absent` when the ledger does not exist
 * (an empty ledger). Any other open failure is a LedgerError ("unreadable").
 */
export function withLedger<T>(path: string, absent: T, read: (fd: number, size: number) => T): T {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return absent;
    throw new LedgerError("unreadable", path, `cannot open: ${errorMessage(e)}`);
  }
  try {
    return read(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

/**
 * Hand every complete line of bytes [from, size) to `onLine`, without its newline. When `onLine` returns false the
 * line is corrupt: a LedgerError naming its line number. `onChunk` hears the byte position after each 1 MB read. Returns the offset just after the last newline read and
 * the bytes after it (a last line without its newline; the caller decides whether it is torn or still growing).
 */
export function readLines(
  ledger: string,
  fd: number,
  from: number,
  size: number,
  // biome-ignore lint/suspicious/noConfusingVoidType: a line callback returns nothing (read on) or false (stop), like a forEach body
  onLine: (text: string) => boolean | void,
  gcEveryChunks = 0,
  onChunk?: (pos: number) => void,
): { end: number; rest: Buffer } {
  const buf = Buffer.alloc(CHUNK);
  let end = from; // bytes [end, pos) are read but not consumed: they are in `carry`
  let pos = from;
  let carry: Buffer = Buffer.alloc(0);
  let chunks = 0;
  while (pos < size) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
    } catch (e) {
      throw new LedgerError("unreadable", ledger, `read failed: ${errorMessage(e)}`);
    }
    if (n === 0) break;
    pos += n;
    const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
    const last = data.lastIndexOf(0x0a);
    if (last < 0) {
      carry = Buffer.from(data);
      continue;
    }
    // A newline byte never occurs inside a multi-byte UTF-8 sequence, so cutting at it is safe.
    const text = data.toString("utf8", 0, last + 1);
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      if (onLine(text.slice(start, nl)) === false) {
        const line = lineNumberAt(fd, end + Buffer.byteLength(text.slice(0, start)));
        throw new LedgerError("corrupt", ledger, "corrupt line (invalid JSON or not an object)", line);
      }
      start = nl + 1;
    }
    end += last + 1;
    carry = Buffer.from(data.subarray(last + 1));
    // Each chunk leaves a 1 MB string and its line slices behind; callers with a memory budget ask for a collection
    // every few chunks so a whole-ledger pass does not pile them up.
    if (gcEveryChunks > 0 && ++chunks % gcEveryChunks === 0) Bun.gc(true);
    onChunk?.(pos);
  }
  return { end, rest: carry };
}

/** The 1-based number of the line starting at byte `offset` (error paths only: it reads up to there). */
export function lineNumberAt(fd: number, offset: number): number {
  const buf = Buffer.alloc(CHUNK);
  let line = 1;
  for (let pos = 0; pos < offset; ) {
    const n = readSync(fd, buf, 0, Math.min(CHUNK, offset - pos), pos);
    if (n === 0) break;
    for (let i = 0; i < n; i++) if (buf[i] === 0x0a) line++;
    pos += n;
  }
  return line;
}
