/**
 * JSONL ledgers (DECISIONS D18). One `JSON + "\n"` per append under a cross-process lock; streaming reads with
 * line numbers; a backwards reader for "rows newer than T" that never scans the whole file. A torn LAST line (a
 * writer died mid-append) is a warning and is skipped; a corrupt line anywhere else is an error naming its line.
 * No reader ever drops rows after a bad line.
 */
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync, appendFileSync } from "node:fs";
import { dirname } from "node:path";
import { acquireLock, DEFAULT_LOCK_TIMEOUT_MS, LockTimeoutError, withLock } from "./lock.ts";
import { sortedJson } from "./output.ts";
import { errnoCode, errorMessage } from "./errors.ts";

/**
 * node:fs/promises, loaded when a ledger is first read: loading it costs about half a millisecond, which every hook
 * call (an appender that never reads) would otherwise pay at start-up.
 */
function openForReading(path: string) {
  return (require("node:fs/promises") as typeof import("node:fs/promises")).open(path, "r");
}

export type LedgerRow = Record<string, unknown>;
export type LedgerFault = "unreadable" | "unwritable" | "corrupt" | "lock";

export class LedgerError extends Error {
  constructor(
    readonly fault: LedgerFault,
    readonly path: string,
    why: string,
    readonly line?: number,
  ) {
    super(line === undefined ? `${path}: ${why}` : `${path}:${line}: ${why}`);
    this.name = "LedgerError";
  }
}

export interface LedgerWarning {
  path: string;
  line: number;
  message: string;
}

export interface ReadOptions {
  onWarning?: (w: LedgerWarning) => void;
}

const CHUNK = 64 * 1024;

function errno(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, "")}` : String(e);
}

/** Parse one line; null means "not a JSON object" with the reason. */
function parseLine(text: string): { row: LedgerRow } | { why: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { why: `corrupt line (invalid JSON: ${errorMessage(e)})` };
  }
  // What v.record(v.string(), v.unknown()) accepts of a JSON.parse result, without copying every row: a whole-ledger
  // check before an append (the appender contract) reads every line.
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { why: "corrupt line (not a JSON object)" };
  return { row: value as LedgerRow };
}

// ---------------------------------------------------------------------------------------------------- append

export interface AppendOptions {
  lockTimeoutMs?: number;
  /** Sorted keys, no spaces (the format every mogui ledger uses). Default true. */
  sortKeys?: boolean;
  onWarning?: (w: LedgerWarning) => void;
}

export function lockPathFor(path: string): string {
  return `${path}.lock`;
}

/**
 * Set aside a torn tail left by a writer that died mid-append, so the next row starts on its own line. The
 * fragment is kept in `<ledger>.torn`, never thrown away.
 */
function repairTornTail(fd: number, path: string, onWarning?: (w: LedgerWarning) => void): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const last = new Uint8Array(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  let start = size;
  const buf = Buffer.alloc(CHUNK);
  while (start > 0) {
    const from = Math.max(0, start - CHUNK);
    const n = readSync(fd, buf, 0, start - from, from);
    const idx = buf.subarray(0, n).lastIndexOf(0x0a);
    if (idx >= 0) {
      start = from + idx + 1;
      break;
    }
    start = from;
  }
  const frag = Buffer.alloc(size - start);
  readSync(fd, frag, 0, frag.length, start);
  // A complete row that only lacks its newline is a row every reader already yields: finish it, never move it.
  if ("row" in parseLine(frag.toString("utf8"))) {
    writeSync(fd, "\n");
    return;
  }
  appendFileSync(`${path}.torn`, Buffer.concat([frag, Buffer.from("\n")]));
  ftruncateSync(fd, start);
  onWarning?.({ path, line: 0, message: `torn last line (${frag.length} bytes) moved to ${path}.torn` });
}

function rowsText(rows: readonly LedgerRow[], opts: AppendOptions): string {
  let text = "";
  for (const r of rows) text += `${opts.sortKeys === false ? JSON.stringify(r) : sortedJson(r)}\n`;
  return text;
}

function ensureDir(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw new LedgerError("unwritable", path, `cannot create directory: ${errno(e)}`);
  }
}

/** The write itself; the caller holds the ledger's lock. */
function writeLocked(path: string, text: string, opts: AppendOptions): void {
  let fd: number;
  try {
    fd = openSync(path, "a+");
  } catch (e) {
    throw new LedgerError("unwritable", path, `cannot open for append: ${errno(e)}`);
  }
  try {
    repairTornTail(fd, path, opts.onWarning);
    // A Uint8Array, not Buffer.from: the first Buffer write costs a hook's start-up a measurable slice.
    const data = new TextEncoder().encode(text);
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
  } catch (e) {
    if (e instanceof LedgerError) throw e;
    throw new LedgerError("unwritable", path, `append failed: ${errno(e)}`);
  } finally {
    closeSync(fd);
  }
}

function mapLockError(path: string, e: unknown): never {
  if (e instanceof LedgerError) throw e;
  if (e instanceof LockTimeoutError) throw new LedgerError("lock", path, e.message);
  throw new LedgerError("unwritable", path, errno(e));
}

export function appendRows(path: string, rows: readonly LedgerRow[], opts: AppendOptions = {}): void {
  const text = rowsText(rows, opts);
  ensureDir(path);
  try {
    withLock(lockPathFor(path), () => writeLocked(path, text, opts), opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
  } catch (e) {
    mapLockError(path, e);
  }
}

/**
 * Check-then-append as one step (issue 24 §3): `decide` runs while the ledger's lock is held, so what it reads cannot
 * change before its rows are written, and returns the rows to append (none: nothing is written) with its result.
 * Every uniqueness rule (an active track, a worker name, a spend record counted once) is decided this way; another
 * writer waits on the lock. `decide` may be async (ledger reads are); it must not append to the same ledger itself.
 */
export async function appendIf<T>(path: string, decide: () => Promise<{ rows: readonly LedgerRow[]; result: T }> | { rows: readonly LedgerRow[]; result: T }, opts: AppendOptions = {}): Promise<T> {
  ensureDir(path);
  let release: () => void;
  try {
    release = acquireLock(lockPathFor(path), opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
  } catch (e) {
    mapLockError(path, e);
  }
  try {
    const { rows, result } = await decide();
    if (rows.length) writeLocked(path, rowsText(rows, opts), opts);
    return result;
  } finally {
    release();
  }
}

/** The synchronous form of appendIf, for callers whose check reads synchronously. */
export function appendIfSync<T>(path: string, decide: () => { rows: readonly LedgerRow[]; result: T }, opts: AppendOptions = {}): T {
  ensureDir(path);
  try {
    return withLock(
      lockPathFor(path),
      () => {
        const { rows, result } = decide();
        if (rows.length) writeLocked(path, rowsText(rows, opts), opts);
        return result;
      },
      opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    );
  } catch (e) {
    if (e instanceof LockTimeoutError) mapLockError(path, e);
    throw e;
  }
}

export function appendRow(path: string, row: LedgerRow, opts: AppendOptions = {}): void {
  appendRows(path, [row], opts);
}

/**
 * The appender contract (D18), checked BEFORE a command acts: the ledger must be writable and every complete line
 * must be a JSON object. A corrupt line anywhere but the end is a LedgerError naming its line (the command exits 2
 * `LEDGER_UNAVAILABLE` having changed nothing); a torn last line is a warning (the append then sets it aside in
 * `<ledger>.torn`, with a second warning). A missing ledger is an empty one.
 */
export async function checkLedger(path: string, opts: ReadOptions = {}): Promise<void> {
  checkWritable(path);
  for await (const _ of readRows(path, opts)) {
    // Every line is parsed by readRows; a corrupt one throws.
  }
}

/** Can we append here? Checked before a command acts, so a bad ledger stops it before anything changes. */
export function checkWritable(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    closeSync(openSync(path, "a"));
  } catch (e) {
    throw new LedgerError("unwritable", path, `not writable: ${errno(e)}`);
  }
}

// ---------------------------------------------------------------------------------------------------- read

async function openForRead(path: string) {
  try {
    return await openForReading(path);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw new LedgerError("unreadable", path, `cannot open: ${errno(e)}`);
  }
}

export interface NumberedRow {
  line: number;
  row: LedgerRow;
}

/** Stream rows in file order with 1-based line numbers. A missing file is an empty ledger. */
export async function* readRows(path: string, opts: ReadOptions = {}): AsyncGenerator<NumberedRow> {
  const fh = await openForRead(path);
  if (!fh) return;
  try {
    const decoder = new TextDecoder();
    const buf = Buffer.alloc(CHUNK);
    let carry = "";
    let line = 0;
    for (;;) {
      let n: number;
      try {
        ({ bytesRead: n } = await fh.read(buf, 0, CHUNK, null));
      } catch (e) {
        throw new LedgerError("unreadable", path, `read failed: ${errno(e)}`);
      }
      if (n === 0) break;
      carry += decoder.decode(buf.subarray(0, n), { stream: true });
      let nl = carry.indexOf("\n");
      while (nl >= 0) {
        const text = carry.slice(0, nl);
        carry = carry.slice(nl + 1);
        line++;
        nl = carry.indexOf("\n");
        if (text.trim() === "") continue;
        const p = parseLine(text);
        if ("why" in p) throw new LedgerError("corrupt", path, p.why, line);
        yield { line, row: p.row };
      }
    }
    carry += decoder.decode();
    if (carry.trim() !== "") {
      line++;
      const p = parseLine(carry);
      if ("why" in p) opts.onWarning?.({ path, line, message: "torn last line (a writer died mid-append); skipped" });
      else yield { line, row: p.row };
    }
  } finally {
    await fh.close();
  }
}

export async function readAll(path: string, opts: ReadOptions = {}): Promise<NumberedRow[]> {
  const out: NumberedRow[] = [];
  for await (const r of readRows(path, opts)) out.push(r);
  return out;
}

/** The 1-based line number of the line that starts at byte `offset` (only computed on the error path). */
async function lineNumberAt(path: string, offset: number): Promise<number> {
  const fh = await openForReading(path);
  try {
    const buf = Buffer.alloc(CHUNK);
    let line = 1;
    let pos = 0;
    while (pos < offset) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, offset - pos), pos);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i++) if (buf[i] === 0x0a) line++;
      pos += bytesRead;
    }
    return line;
  } finally {
    await fh.close();
  }
}

export interface OffsetRow {
  /** Byte offset where the row's line starts. */
  offset: number;
  row: LedgerRow;
}

/** Walk rows from the END of the file backwards, reading only as many chunks as the caller consumes. */
export async function* readBackwards(path: string, opts: ReadOptions = {}): AsyncGenerator<OffsetRow> {
  const fh = await openForRead(path);
  if (!fh) return;
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(CHUNK);
    let pos = size;
    let carry: Buffer = Buffer.alloc(0); // bytes [pos, first newline seen): a line whose start is not read yet
    while (pos > 0) {
      const from = Math.max(0, pos - CHUNK);
      let bytesRead: number;
      try {
        ({ bytesRead } = await fh.read(buf, 0, pos - from, from));
      } catch (e) {
        throw new LedgerError("unreadable", path, `read failed: ${errno(e)}`);
      }
      const data = Buffer.concat([buf.subarray(0, bytesRead), carry]);
      const segments: [number, Buffer][] = [];
      let end = data.length;
      let idx = end > 0 ? data.lastIndexOf(0x0a, end - 1) : -1;
      while (idx >= 0) {
        segments.push([from + idx + 1, data.subarray(idx + 1, end)]);
        end = idx;
        idx = end > 0 ? data.lastIndexOf(0x0a, end - 1) : -1;
      }
      carry = Buffer.from(data.subarray(0, end));
      pos = from;
      if (from === 0) segments.push([0, carry]);
      for (const [start, bytes] of segments) {
        const text = bytes.toString("utf8");
        if (text.trim() === "") continue;
        const p = parseLine(text);
        if ("why" in p) {
          const line = await lineNumberAt(path, start);
          // Only a line that runs to end-of-file without its newline can be a torn append.
          if (start + bytes.length === size) {
            opts.onWarning?.({ path, line, message: "torn last line (a writer died mid-append); skipped" });
            continue;
          }
          throw new LedgerError("corrupt", path, p.why, line);
        }
        yield { offset: start, row: p.row };
      }
    }
  } finally {
    await fh.close();
  }
}

/**
 * Rows whose numeric `key` (default `ts`, epoch seconds) is >= since, newest first. Concurrent writers can
 * append slightly out of order, so the walk stops only once rows are older than `since - slackSeconds`.
 */
export async function* rowsSince(path: string, since: number, opts: ReadOptions & { key?: string; slackSeconds?: number } = {}): AsyncGenerator<OffsetRow> {
  const key = opts.key ?? "ts";
  const floor = since - (opts.slackSeconds ?? 300);
  for await (const r of readBackwards(path, opts)) {
    const t = r.row[key];
    if (typeof t === "number") {
      if (t < floor) return;
      if (t < since) continue;
    }
    yield r;
  }
}

// ---------------------------------------------------------------------------------------------------- warnings

/** Warnings of one kind printed before the rest are summarised (issue 13: a 20 MB ledger is not 94,001 lines). */
const WARNINGS_PER_KIND = 10;

export interface WarningSink {
  warn(w: LedgerWarning): void;
  /** One `... N more (first at line k): <kind>` line per kind that went over the budget. Call once, at the end. */
  flush(): void;
}

/** A warning's kind: its text before the first `: ` (the specifics after it vary row by row). */
function kindOf(message: string): string {
  const i = message.indexOf(": ");
  return i > 0 ? message.slice(0, i) : message;
}

/** Every reader that warns per line prints through this: at most `perKind` of a kind, then one summary line. */
export function boundedWarnings(print: (w: LedgerWarning) => void, perKind = WARNINGS_PER_KIND): WarningSink {
  const seen = new Map<string, { path: string; kind: string; shown: number; more: number; firstLine: number }>();
  return {
    warn(w) {
      const kind = kindOf(w.message);
      const key = `${w.path}\0${kind}`;
      const k = seen.get(key) ?? { path: w.path, kind, shown: 0, more: 0, firstLine: 0 };
      seen.set(key, k);
      if (k.shown < perKind) {
        k.shown++;
        print(w);
      } else if (k.more++ === 0) k.firstLine = w.line;
    },
    flush() {
      for (const k of seen.values()) {
        if (k.more > 0) print({ path: k.path, line: 0, message: `... ${k.more} more (first at line ${k.firstLine}): ${k.kind}` });
        k.more = 0;
      }
    },
  };
}
