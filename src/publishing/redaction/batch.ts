/**
 * Files read in batches (issue 14 §7). Regular files are read into one buffer of up to BATCH_BYTES, one NUL byte
 * after each, and what can be asked of bytes is asked once per batch instead of once per file, natively: each
 * presence test of one or two literals (engine.ts: what lead gates and gates ask first; Buffer#indexOf), whether a
 * file has a backslash (JSON escapes to decode), the base64 runs (simd.ts), and the few literals of a gate's check
 * when a gate first asks (BatchAnswers; case-insensitive ones in a copy with ASCII capitals made small). A match
 * names the file it lies in and the search goes on from the next file. Each file is then decoded and scanned with
 * those answers (TextHint); longer alternations of literals are asked of each file's text by one RegExp search.
 *
 * The answers are exact: the literals are ASCII, which a file's bytes hold exactly where its UTF-8 text holds them,
 * and no literal holds a NUL, so no match spans two files; a test with a non-ASCII literal is left to each file. A
 * file's base64 runs keep their byte offsets when its text has one character per byte, and are counted in characters
 * otherwise (charRuns). What readText would not read as plain UTF-8 (a symlink, a UTF-16 file, a file larger than a
 * batch, one that cannot be read) is read on its own, in order.
 */
import { closeSync, constants, lstatSync, openSync, readSync } from "node:fs";
import { base64RunsBytes, type Run } from "./decode.ts";
import type { Compiled, TextHint } from "./engine.ts";
import type { LitAnswers } from "./literals.ts";
import type { FileRef } from "./shard.ts";
import { simdRuns, type SimdRuns } from "./simd.ts";
import { keepOutOfFTL } from "./tier.ts";

export const BATCH_BYTES = 1 << 20;
/** U+0130 and U+212A in UTF-8. */
const SPECIAL = [Buffer.from("\u0130"), Buffer.from("\u212a")];
/**
 * Never through a symlink (a file swapped for one since it was listed must not make the scan read outside the
 * tree) and never blocking (one swapped for a FIFO reads as empty instead of waiting for a writer).
 */
const OPEN_FLAGS = constants.O_NOFOLLOW === undefined ? "r" : constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
/** readText's binary probe: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_PROBE = 8000;

interface Entry {
  ref: FileRef;
  /** The file's bytes in the buffer; both -1 for a binary file (not kept). */
  start: number;
  end: number;
}

export type Added = "added" | "full" | "alone";

export interface BatchVisitor {
  text(ref: FileRef, text: string, bytes: number, hint: TextHint): void;
  binary(ref: FileRef): void;
}

export class Batch {
  /** Base64 runs of a whole batch with WebAssembly SIMD (whose memory then holds the batch), when it can run. */
  private readonly simd: SimdRuns | null;
  private readonly buf: Buffer;
  private pos = 0;
  private entries: Entry[] = [];
  /** Per presence test: its literals as bytes when the batch answers it, else null (each file asks it). */
  private readonly tests: Array<Buffer[] | null>;
  /** The gates' literals as bytes (Compiled.batchLiterals). */
  private readonly lits: Array<{ needle: Buffer; fold: boolean }>;

  /** `simd` false: the fallback (base64RunsBytes per file), as where WebAssembly SIMD is missing. */
  constructor(
    private readonly c: Compiled,
    simd = true,
  ) {
    this.simd = simd ? simdRuns(BATCH_BYTES) : null;
    this.buf = this.simd?.heap ?? Buffer.allocUnsafe(BATCH_BYTES);
    // A test of one or two ASCII literals is searched in the batch's bytes (Buffer#indexOf, native). A longer
    // alternation is left to each file's text, where one RegExp search finds any of its literals.
    this.lits = c.batchLiterals.list.map((l) => ({ needle: Buffer.from(l.text, "latin1"), fold: l.fold }));
    this.tests = c.presence.map((p) => (p.batch && p.batch.length <= 2 ? p.batch.map((l) => Buffer.from(l, "latin1")) : null));
  }

  /**
   * Reads `ref` into the batch: "added" (as text or as a binary file), "full" (flush, then add it again) or "alone"
   * (read it with readText, after flushing what is here: files are visited in order).
   */
  add(ref: FileRef): Added {
    const room = BATCH_BYTES - this.pos - 1;
    if (room < BINARY_PROBE) return this.entries.length ? "full" : "alone";
    if (!ref.regular) {
      // Not seen by a directory walk: readText's own checks first (a symlink is its target string, never followed).
      let st;
      try {
        st = lstatSync(ref.abs);
      } catch {
        return "alone";
      }
      if (!st.isFile()) return "alone";
      if (st.size >= room) return this.entries.length ? "full" : "alone";
    }
    let fd: number;
    try {
      fd = openSync(ref.abs, OPEN_FLAGS);
    } catch {
      // Among others: ELOOP, the file became a symlink since it was listed (readText reads its target string).
      return "alone";
    }
    let n = 0;
    try {
      for (;;) {
        const k = readSync(fd, this.buf, this.pos + n, room - n, null);
        if (k === 0) break;
        n += k;
        if (n === room) break;
      }
    } catch {
      n = -1;
    } finally {
      closeSync(fd);
    }
    if (n < 0) return "alone";
    // Possibly larger than the room left: read again after a flush, or on its own.
    if (n === room) return this.entries.length ? "full" : "alone";
    const b = this.buf;
    const at = this.pos;
    // A UTF-16 byte-order mark (FF FE / FE FF): decoded by readText.
    if (n >= 2 && ((b[at] === 0xff && b[at + 1] === 0xfe) || (b[at] === 0xfe && b[at + 1] === 0xff))) return "alone";
    if (b.subarray(at, at + Math.min(n, BINARY_PROBE)).indexOf(0) >= 0) {
      this.entries.push({ ref, start: -1, end: -1 });
      return "added";
    }
    b[at + n] = 0;
    this.entries.push({ ref, start: at, end: at + n });
    this.pos = at + n + 1;
    return "added";
  }

  /** Visits every file of the batch in order, then empties it. */
  flush(v: BatchVisitor): void {
    const entries = this.entries;
    if (entries.length === 0) return;
    this.entries = [];
    const end = this.pos;
    this.pos = 0;
    const b = this.buf;
    const texts = entries.filter((e) => e.start >= 0);
    const bytes = b.subarray(0, end);
    const P = this.tests.length;
    const answers = new Uint8Array(texts.length * P);
    for (let t = 0; t < P; t++) {
      const test = this.tests[t];
      if (!test) continue;
      for (let k = 0; k < texts.length; k++) answers[k * P + t] = 1;
      for (const lit of test) filesWith(bytes, texts, lit, (k) => (answers[k * P + t] = 2));
    }
    const lits = this.simd && this.lits.length > 0 ? new BatchAnswers(this.lits, bytes, this.simd.lower(end), texts) : null;
    // Files with a backslash (JSON escapes to decode); the others are scanned as read.
    const escapes = new Uint8Array(texts.length);
    filesWith(bytes, texts, 0x5c, (k) => (escapes[k] = 1));
    const depth = this.c.decodeDepth;
    // The batch's base64 runs, in order (a NUL separator ends every run inside its file).
    const batchRuns = depth > 0 && this.simd ? this.simd.runs(end) : null;
    let r = 0;
    let k = 0;
    for (const e of entries) {
      if (e.start < 0) {
        v.binary(e.ref);
        continue;
      }
      // Each file is its own string (a slice of one batch-wide string would keep the whole batch alive).
      const text = b.toString("utf8", e.start, e.end);
      // Byte offsets are the text's offsets when every byte is one character; otherwise they are counted (charRuns).
      const oneToOne = text.length === e.end - e.start;
      let mine: Run[] | null = null;
      if (batchRuns) {
        mine = [];
        for (; r < batchRuns.length && batchRuns[r]!.start < e.end; r++) {
          const run = batchRuns[r]!;
          mine.push({ start: run.start - e.start, end: run.end - e.start });
        }
      }
      const runs = (): Run[] | null => {
        if (depth === 0) return null;
        if (oneToOne) return mine ?? base64RunsBytes(b, e.start, e.end);
        return mine && charRuns(b, e.start, mine);
      };
      const file = k;
      v.text(e.ref, text, e.end - e.start, { answers, base: k * P, runs, escapes: escapes[k] === 1, lits: () => lits?.of(file) ?? null });
      k++;
    }
  }
}

/**
 * The gates' literals (literals.ts, BatchLiterals) in a batch's files, each searched in the whole batch once, when a
 * gate first asks about it (a gate asks few of its checks of most texts): folded ones in a copy of the bytes with
 * ASCII capitals made small. Keywords are looked for in a file's lowercased text, so a file with U+0130 or U+212A
 * (whose lowercase forms are ASCII) gets no answers: its gates ask its text. Without WebAssembly SIMD (no lowered
 * copy) there are none either.
 */
class BatchAnswers {
  /** Per literal: null until searched, then per file 1 when the file holds it. */
  private readonly found: Array<Uint8Array | null>;
  private special: Uint8Array | null = null;
  constructor(
    private readonly lits: ReadonlyArray<{ needle: Buffer; fold: boolean }>,
    private readonly bytes: Buffer,
    private readonly low: Buffer,
    private readonly texts: readonly Entry[],
  ) {
    this.found = lits.map(() => null);
  }
  of(k: number): LitAnswers | null {
    if (!this.special) {
      const special = new Uint8Array(this.texts.length);
      for (const seq of SPECIAL) filesWith(this.bytes, this.texts, seq, (i) => (special[i] = 1));
      this.special = special;
    }
    if (this.special[k] === 1) return null;
    return { has: (id) => this.has(id, k) };
  }
  private has(id: number, k: number): boolean {
    let f = this.found[id];
    if (!f) {
      const { needle, fold } = this.lits[id]!;
      const marks = new Uint8Array(this.texts.length);
      filesWith(fold ? this.low : this.bytes, this.texts, needle, (i) => (marks[i] = 1));
      this.found[id] = f = marks;
    }
    return f[k] === 1;
  }
}

/**
 * Calls `mark(k)` for each file `texts[k]` whose bytes hold `needle`: one native search over the batch, which goes on
 * from the next file once a file has it (the NUL after each file keeps a match inside one file).
 */
function filesWith(bytes: Buffer, texts: readonly Entry[], needle: Buffer | number, mark: (k: number) => void): void {
  let k = 0;
  for (let at = bytes.indexOf(needle, 0); at >= 0; ) {
    while (texts[k]!.end < at) k++;
    mark(k);
    if (k + 1 >= texts.length) break;
    at = bytes.indexOf(needle, texts[k + 1]!.start);
  }
}

/**
 * Runs found on a file's bytes (offsets relative to `start`) at their offsets in its text, for a text that is not one
 * character per byte. A run is ASCII, one character per byte; the bytes between runs are decoded on their own to
 * count their characters, which is exact because every cut falls next to an ASCII byte of a run: no UTF-8 sequence,
 * valid or not, spans it, so each piece decodes to the characters it gives within the whole file.
 */
function charRuns(b: Buffer, start: number, runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  let byte = 0;
  let char = 0;
  for (const r of runs) {
    char += b.toString("utf8", start + byte, start + r.start).length;
    const length = r.end - r.start;
    out.push({ start: char, end: char + length });
    char += length;
    byte = r.end;
  }
  return out;
}

// The per-file path (tier.ts).
keepOutOfFTL(Batch.prototype.add, Batch.prototype.flush, filesWith);
