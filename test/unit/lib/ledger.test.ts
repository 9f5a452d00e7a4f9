/**
 * JSONL ledgers and their cross-process lock (DECISIONS D18): concurrent appends from many processes, a writer
 * killed mid-append, stale locks, corrupt lines with their line numbers, the backwards reader and rowsSince.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { LedgerError, type LedgerWarning, appendRow, appendRows, boundedWarnings, checkLedger, checkWritable, lockPathFor, readAll, readBackwards, readRows, rowsSince } from "../../../src/lib/ledger.ts";
import { acquireLock } from "../../../src/lib/lock.ts";
import { sortKeys, sortedJson } from "../../../src/lib/output.ts";
import { BUN, ROOT, tempDir } from "../../helpers/paths.ts";

const WRITER = join(ROOT, "test", "fixtures-scripts", "ledger-writer.ts");
const HOLDER = join(ROOT, "test", "fixtures-scripts", "lock-holder.ts");
const TORN_WARNING = "torn last line (a writer died mid-append); skipped";
const CHUNK = 64 * 1024;

function ledgerPath(): string {
  return join(tempDir("mogui-ledger-"), "ledger.jsonl");
}

async function collect<T>(gen: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}

/** Run an async reader and return what it yielded before it threw (or finished), plus the error. */
async function collectUntilError<T>(gen: AsyncIterable<T>): Promise<{ got: T[]; error: unknown }> {
  const got: T[] = [];
  try {
    for await (const x of gen) got.push(x);
  } catch (e) {
    return { got, error: e };
  }
  return { got, error: undefined };
}

function catchSync(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

async function catchAsync(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

/** Byte offsets at which each line of `text` starts, keyed by 1-based line number. */
function lineOffsets(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  return starts;
}

/** Spawn the lock holder and wait until it prints "ready" (the lock is held, the fragment written). */
async function startHolder(path: string, fragment?: string) {
  const proc = Bun.spawn([BUN, HOLDER, path, ...(fragment === undefined ? [] : [fragment])], { stdout: "pipe", stderr: "pipe" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 10_000;
  while (!seen.includes("ready\n")) {
    if (Date.now() > deadline) throw new Error("lock holder never became ready");
    const { value, done } = await reader.read();
    if (done) throw new Error(`lock holder exited early: ${await new Response(proc.stderr as ReadableStream).text()}`);
    seen += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return proc;
}

/** A pid that certainly belonged to a process that is gone now (and has been reaped, so it is not a zombie). */
async function deadPid(): Promise<number> {
  const p = Bun.spawn(["true"]);
  await p.exited;
  return p.pid;
}

describe("appendRow / appendRows", () => {
  test("32 processes x 100 appends to one ledger: 3,200 complete rows, each (writer, seq) exactly once", async () => {
    const path = ledgerPath();
    const procs = Array.from({ length: 32 }, (_, i) => Bun.spawn([BUN, WRITER, path, `w${i}`, "100"], { stdout: "ignore", stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual(Array(32).fill(0));

    const text = readFileSync(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines.length).toBe(3200);
    const seen = new Map<string, number>();
    const lastSeq = new Map<string, number>();
    for (const line of lines) {
      const row = JSON.parse(line) as { writer: string; seq: number; text: string };
      expect(typeof row === "object" && row !== null && !Array.isArray(row)).toBe(true);
      // The whole row, byte for byte: an interleaved or torn write could not reproduce it.
      const expected = { seq: row.seq, text: `기록 ${row.writer}/${row.seq} ${"x".repeat((row.seq * 7) % 50)}`, writer: row.writer };
      expect(line).toBe(sortedJson(expected));
      const k = `${row.writer}#${row.seq}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
      // One writer appends sequentially, so its rows land in its own order.
      expect(row.seq).toBe((lastSeq.get(row.writer) ?? -1) + 1);
      lastSeq.set(row.writer, row.seq);
    }
    expect(seen.size).toBe(3200);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    for (let w = 0; w < 32; w++) for (let s = 0; s < 100; s++) expect(seen.get(`w${w}#${s}`)).toBe(1);
    // The flock file stays (deleting it would race with waiters), emptied by its last holder (D33).
    expect(readFileSync(lockPathFor(path), "utf8")).toBe("");
    expect(existsSync(`${path}.torn`)).toBe(false);
    expect((await readAll(path)).length).toBe(3200);
  }, 30_000);

  test("rows are written as sorted-key compact JSON, one line each; sortKeys:false keeps insertion order", () => {
    const path = ledgerPath();
    appendRow(path, { z: 1, a: { y: [{ b: 2, a: 1 }], x: null } });
    appendRows(path, [{ b: "ü" }, { a: true }]);
    appendRow(path, { z: 1, a: 2 }, { sortKeys: false });
    expect(readFileSync(path, "utf8")).toBe('{"a":{"x":null,"y":[{"a":1,"b":2}]},"z":1}\n{"b":"ü"}\n{"a":true}\n{"z":1,"a":2}\n');
  });

  test("appendRow creates missing parent directories", () => {
    const path = join(tempDir("mogui-ledger-"), "a", "b", "ledger.jsonl");
    appendRow(path, { n: 1 });
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n');
  });

  test("a complete last row that only lacks its newline is finished, not moved to .torn", async () => {
    const path = ledgerPath();
    writeFileSync(path, '{"a":1}\n{"b":2}');
    expect((await readAll(path)).map((r) => r.row)).toEqual([{ a: 1 }, { b: 2 }]);
    const warnings: LedgerWarning[] = [];
    appendRow(path, { c: 3 }, { onWarning: (w) => warnings.push(w) });
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(existsSync(`${path}.torn`)).toBe(false);
    expect(warnings).toEqual([]);
  });
});

describe("a writer killed mid-append", () => {
  test("readers warn about the torn tail and keep every earlier row; the next append recovers the lock and sets the fragment aside", async () => {
    const path = ledgerPath();
    const earlier = Array.from({ length: 5 }, (_, i) => ({ seq: i, ts: 1000 + i, note: "앞" }));
    for (const row of earlier) appendRow(path, row);
    const before = readFileSync(path);
    const fragment = '{"note":"반쪽","seq":5,"t';

    const holder = await startHolder(path, fragment);
    try {
      // While it is alive its lock is respected.
      const busy = catchSync(() => appendRow(path, { seq: 99 }, { lockTimeoutMs: 100 }));
      expect(busy).toBeInstanceOf(LedgerError);
      expect((busy as LedgerError).fault).toBe("lock");
    } finally {
      holder.kill("SIGKILL");
      await holder.exited;
    }
    expect(holder.signalCode).toBe("SIGKILL");
    // Its note stays in the file, but the kernel dropped its lock with it (D33).
    expect(readFileSync(lockPathFor(path), "utf8").split(" ")[0]).toBe(String(holder.pid));
    expect(readFileSync(path)).toEqual(Buffer.concat([before, Buffer.from(fragment)]));

    const fwdWarnings: LedgerWarning[] = [];
    const fwd = await readAll(path, { onWarning: (w) => fwdWarnings.push(w) });
    expect(fwd).toEqual(earlier.map((row, i) => ({ line: i + 1, row })));
    expect(fwdWarnings).toEqual([{ path, line: 6, message: TORN_WARNING }]);

    const offsets = lineOffsets(before);
    const backWarnings: LedgerWarning[] = [];
    const back = await collect(readBackwards(path, { onWarning: (w) => backWarnings.push(w) }));
    expect(back).toEqual(earlier.map((row, i) => ({ offset: offsets[i]!, row })).reverse());
    expect(backWarnings).toEqual([{ path, line: 6, message: TORN_WARNING }]);

    const appendWarnings: LedgerWarning[] = [];
    appendRow(path, { seq: 6, ts: 2000 }, { lockTimeoutMs: 3000, onWarning: (w) => appendWarnings.push(w) });
    const fragBytes = Buffer.byteLength(fragment);
    expect(appendWarnings).toEqual([{ path, line: 0, message: `torn last line (${fragBytes} bytes) moved to ${path}.torn` }]);
    expect(readFileSync(`${path}.torn`, "utf8")).toBe(`${fragment}\n`);
    expect(readFileSync(path, "utf8")).toBe(`${before.toString("utf8")}{"seq":6,"ts":2000}\n`);
    expect(readFileSync(lockPathFor(path), "utf8")).toBe("");

    const after: LedgerWarning[] = [];
    const rows = await readAll(path, { onWarning: (w) => after.push(w) });
    expect(rows.map((r) => r.row)).toEqual([...earlier, { seq: 6, ts: 2000 }]);
    expect(after).toEqual([]);
  }, 20_000);

  test("a torn tail longer than one 64 KiB chunk is set aside whole", () => {
    const path = ledgerPath();
    appendRow(path, { a: 1 });
    const fragment = `{"big":"${"z".repeat(CHUNK * 2 + 17)}`;
    writeFileSync(path, fragment, { flag: "a" });
    appendRow(path, { b: 2 });
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"b":2}\n');
    expect(readFileSync(`${path}.torn`, "utf8")).toBe(`${fragment}\n`);
  });

  test("a torn tail with no newline anywhere in the file is set aside whole", () => {
    const path = ledgerPath();
    writeFileSync(path, '{"only":"half');
    appendRow(path, { b: 2 });
    expect(readFileSync(path, "utf8")).toBe('{"b":2}\n');
    expect(readFileSync(`${path}.torn`, "utf8")).toBe('{"only":"half\n');
  });
});

describe("the lock", () => {
  // Kernel locks (D33): what the lock file says never holds anyone up; only a live flock does.
  test("a lock file naming a dead process costs nothing", async () => {
    const path = ledgerPath();
    const pid = await deadPid();
    writeFileSync(lockPathFor(path), `${pid} ${hostname()} ${Date.now()}\n`);
    appendRow(path, { ok: 1 }, { lockTimeoutMs: 0 });
    expect(readFileSync(path, "utf8")).toBe('{"ok":1}\n');
    expect(readFileSync(lockPathFor(path), "utf8")).toBe("");
  });

  test("a lock held by a live process makes appendRow fail with fault 'lock' naming the holder", async () => {
    const path = ledgerPath();
    const holder = await startHolder(path);
    try {
      const e = catchSync(() => appendRow(path, { n: 1 }, { lockTimeoutMs: 150 }));
      expect(e).toBeInstanceOf(LedgerError);
      const err = e as LedgerError;
      expect(err.fault).toBe("lock");
      expect(err.path).toBe(path);
      expect(err.line).toBeUndefined();
      expect(err.message).toStartWith(`${path}: could not take lock ${lockPathFor(path)} within 150 ms (held by pid ${holder.pid} on ${hostname()} since `);
      expect(existsSync(path)).toBe(false);
    } finally {
      holder.kill("SIGKILL");
      await holder.exited;
    }
    // The kernel released the killed holder's lock at once.
    appendRow(path, { n: 2 }, { lockTimeoutMs: 0 });
    expect(readFileSync(path, "utf8")).toBe('{"n":2}\n');
  }, 20_000);

  test("a note naming another host, an empty file, garbage, a live unrelated pid, a .break file: none holds the lock", async () => {
    const path = ledgerPath();
    const lock = lockPathFor(path);
    const old = new Date(Date.now() - 3_600_000);
    const notes = [`${await deadPid()} not-${hostname()} ${Date.now()}\n`, "", "garbage\n", `${process.pid} ${hostname()} 0\n`];
    writeFileSync(`${lock}.break`, `${process.pid} ${hostname()} ${Date.now()}\n`);
    for (const [i, note] of notes.entries()) {
      writeFileSync(lock, note);
      utimesSync(lock, old, old);
      appendRow(path, { n: i }, { lockTimeoutMs: 0 });
    }
    expect(readFileSync(path, "utf8")).toBe('{"n":0}\n{"n":1}\n{"n":2}\n{"n":3}\n');
  });
});

describe("corrupt, blank, missing and unusable ledgers", () => {
  test("a corrupt middle line is an error naming its 1-based line, from readRows and readBackwards", async () => {
    const path = ledgerPath();
    const text = '{"n":1}\n{"n":2}\n{"n":3,oops}\n{"n":4}\n{"n":5}\n';
    writeFileSync(path, text);

    const fwd = await collectUntilError(readRows(path));
    expect(fwd.got).toEqual([
      { line: 1, row: { n: 1 } },
      { line: 2, row: { n: 2 } },
    ]);
    expect(fwd.error).toBeInstanceOf(LedgerError);
    const fe = fwd.error as LedgerError;
    expect(fe.fault).toBe("corrupt");
    expect(fe.line).toBe(3);
    expect(fe.path).toBe(path);
    expect(fe.message.startsWith(`${path}:3: corrupt line (invalid JSON: `)).toBe(true);

    const offsets = lineOffsets(Buffer.from(text));
    const back = await collectUntilError(readBackwards(path));
    expect(back.got).toEqual([
      { offset: offsets[4]!, row: { n: 5 } },
      { offset: offsets[3]!, row: { n: 4 } },
    ]);
    const be = back.error as LedgerError;
    expect(be).toBeInstanceOf(LedgerError);
    expect(be.fault).toBe("corrupt");
    expect(be.line).toBe(3);
    expect(be.message).toBe(fe.message);

    // readAll does not hand back a partial list.
    const all = await catchAsync(() => readAll(path));
    expect((all as LedgerError).line).toBe(3);
    // rowsSince reaches the bad line too when it must walk past it.
    const since = await collectUntilError(rowsSince(path, 0));
    expect((since.error as LedgerError).line).toBe(3);
  });

  test("a line that is JSON but not an object is corrupt", async () => {
    for (const bad of ["[1,2]", "42", "null", '"text"', "true"]) {
      const path = ledgerPath();
      writeFileSync(path, `{"n":1}\n${bad}\n{"n":3}\n`);
      const e = (await catchAsync(() => readAll(path))) as LedgerError;
      expect(e.fault).toBe("corrupt");
      expect(e.message).toBe(`${path}:2: corrupt line (not a JSON object)`);
      const b = await collectUntilError(readBackwards(path));
      expect(b.got.map((r) => r.row)).toEqual([{ n: 3 }]);
      expect((b.error as LedgerError).message).toBe(`${path}:2: corrupt line (not a JSON object)`);
    }
  });

  test("a corrupt LAST line that ends with a newline is an error, not a torn tail", async () => {
    const path = ledgerPath();
    writeFileSync(path, '{"n":1}\n{"n":2\n');
    const warnings: LedgerWarning[] = [];
    const e = (await catchAsync(() => readAll(path, { onWarning: (w) => warnings.push(w) }))) as LedgerError;
    expect([e.fault, e.line]).toEqual(["corrupt", 2]);
    const b = await collectUntilError(readBackwards(path, { onWarning: (w) => warnings.push(w) }));
    expect(b.got).toEqual([]);
    expect([(b.error as LedgerError).fault, (b.error as LedgerError).line]).toEqual(["corrupt", 2]);
    expect(warnings).toEqual([]);
  });

  test("blank and whitespace-only lines are skipped but still counted", async () => {
    const path = ledgerPath();
    const text = '\n{"n":1}\n\n   \n{"n":2}\n\t\n';
    writeFileSync(path, text);
    const warnings: LedgerWarning[] = [];
    expect(await readAll(path, { onWarning: (w) => warnings.push(w) })).toEqual([
      { line: 2, row: { n: 1 } },
      { line: 5, row: { n: 2 } },
    ]);
    const offsets = lineOffsets(Buffer.from(text));
    expect(await collect(readBackwards(path, { onWarning: (w) => warnings.push(w) }))).toEqual([
      { offset: offsets[4]!, row: { n: 2 } },
      { offset: offsets[1]!, row: { n: 1 } },
    ]);
    expect(warnings).toEqual([]);
  });

  test("a missing file is an empty ledger for every reader", async () => {
    const path = join(tempDir("mogui-ledger-"), "nope.jsonl");
    expect(await readAll(path)).toEqual([]);
    expect(await collect(readBackwards(path))).toEqual([]);
    expect(await collect(rowsSince(path, 0))).toEqual([]);
    expect(existsSync(path)).toBe(false);
  });

  test("an empty file is an empty ledger", async () => {
    const path = ledgerPath();
    writeFileSync(path, "");
    expect(await readAll(path)).toEqual([]);
    expect(await collect(readBackwards(path))).toEqual([]);
  });

  test("a directory at the ledger path: 'unreadable' for readers, 'unwritable' for appends", async () => {
    const path = ledgerPath();
    mkdirSync(path);
    const r = (await catchAsync(() => readAll(path))) as LedgerError;
    expect(r).toBeInstanceOf(LedgerError);
    expect(r.fault).toBe("unreadable");
    expect(r.message).toContain("EISDIR");
    const b = (await catchAsync(() => collect(readBackwards(path)))) as LedgerError;
    expect(b).toBeInstanceOf(LedgerError);
    expect(b.fault).toBe("unreadable");
    expect(b.path).toBe(path);
    const s = (await catchAsync(() => collect(rowsSince(path, 0)))) as LedgerError;
    expect(s).toBeInstanceOf(LedgerError);
    expect(s.fault).toBe("unreadable");
    const a = catchSync(() => appendRow(path, { n: 1 }, { lockTimeoutMs: 500 })) as LedgerError;
    expect(a).toBeInstanceOf(LedgerError);
    expect(a.fault).toBe("unwritable");
    expect(a.message).toStartWith(`${path}: cannot open for append: EISDIR`);
    // The failed append released its lock.
    acquireLock(lockPathFor(path), 0)();
    const c = catchSync(() => checkWritable(path)) as LedgerError;
    expect(c.fault).toBe("unwritable");
  });

  test("a ledger under a regular file: checkWritable and appendRow 'unwritable', readers 'unreadable'", async () => {
    const dir = tempDir("mogui-ledger-");
    const file = join(dir, "file");
    writeFileSync(file, "not a directory\n");
    const path = join(file, "x.jsonl");
    const c = catchSync(() => checkWritable(path)) as LedgerError;
    expect(c).toBeInstanceOf(LedgerError);
    expect(c.fault).toBe("unwritable");
    expect(c.path).toBe(path);
    expect(c.message).toStartWith(`${path}: not writable: `);
    const a = catchSync(() => appendRow(path, { n: 1 })) as LedgerError;
    expect(a.fault).toBe("unwritable");
    expect(a.message).toStartWith(`${path}: cannot create directory: `);
    const r = (await catchAsync(() => readAll(path))) as LedgerError;
    expect(r.fault).toBe("unreadable");
    expect(r.message).toStartWith(`${path}: cannot open: ENOTDIR`);
    expect(readFileSync(file, "utf8")).toBe("not a directory\n");
  });

  test("checkWritable on a good path creates the (empty) file and its directories", () => {
    const path = join(tempDir("mogui-ledger-"), "sub", "l.jsonl");
    checkWritable(path);
    expect(readFileSync(path, "utf8")).toBe("");
    appendRow(path, { a: 1 });
    checkWritable(path);
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n');
  });
});

describe("readBackwards and rowsSince on large files", () => {
  /**
   * Pad the first row until a multi-byte character straddles the first forward chunk boundary, and the last row
   * until one straddles the first backward boundary (backward chunks are aligned to the END of the file).
   */
  function buildLedger(): { text: string; rows: Record<string, unknown>[] } {
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < 400; i++) {
      const len = (i * 37) % 900;
      rows.push({ i, ko: `${"가나다라마바사".repeat(1 + (i % 5))}${"한".repeat(len % 40)}`, pad: "p".repeat(len) });
    }
    // Rows larger than a chunk, so some chunks hold no newline at all.
    rows[100] = { i: 100, ko: "x".repeat(CHUNK * 2 + 5), pad: "" };
    rows[200] = { i: 200, ko: "큰".repeat(CHUNK), pad: "" };
    const enc = (r: Record<string, unknown>) => Buffer.from(`${sortedJson(r)}\n`);
    const isCont = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;
    const middle = Buffer.concat(rows.slice(1, -1).map(enc));
    const base0 = rows[0]!;
    let first = enc(base0);
    for (let k = 0; !isCont(middle[CHUNK - first.length]); k++) {
      rows[0] = { ...base0, a: "a".repeat(k) };
      first = enc(rows[0]);
    }
    const head = Buffer.concat([first, middle]);
    const baseLast = rows[rows.length - 1]!;
    let last = enc(baseLast);
    for (let k = 0; !isCont(head[head.length + last.length - CHUNK]); k++) {
      rows[rows.length - 1] = { ...baseLast, zz: "z".repeat(k) };
      last = enc(rows[rows.length - 1]!);
    }
    return { text: Buffer.concat([head, last]).toString("utf8"), rows: rows.map((r) => sortKeys(r) as Record<string, unknown>) };
  }

  test("yields exactly the reverse of readRows, with byte offsets, across 64 KiB chunk boundaries and split UTF-8", async () => {
    const path = ledgerPath();
    const { text, rows } = buildLedger();
    writeFileSync(path, text);
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(6 * CHUNK);
    // The construction really put a Korean character across the boundaries.
    expect(bytes[CHUNK]! & 0xc0).toBe(0x80);
    expect(bytes[bytes.length - CHUNK]! & 0xc0).toBe(0x80);

    const fwd = await readAll(path);
    expect(fwd.map((r) => r.row)).toEqual(rows);
    const back = await collect(readBackwards(path));
    expect(back.map((r) => r.row)).toEqual([...rows].reverse());
    const offsets = lineOffsets(bytes);
    expect(back.map((r) => r.offset)).toEqual(fwd.map((r) => offsets[r.line - 1]!).reverse());
    for (const r of back) expect(JSON.parse(bytes.subarray(r.offset, bytes.indexOf(0x0a, r.offset)).toString("utf8"))).toEqual(r.row);
  });

  test("the same file with a torn tail: both readers skip it with a warning at the same line", async () => {
    const path = ledgerPath();
    const { text, rows } = buildLedger();
    writeFileSync(path, `${text}{"i":400,"ko":"끊`);
    const w1: LedgerWarning[] = [];
    const w2: LedgerWarning[] = [];
    expect((await readAll(path, { onWarning: (w) => w1.push(w) })).map((r) => r.row)).toEqual(rows);
    expect((await collect(readBackwards(path, { onWarning: (w) => w2.push(w) }))).map((r) => r.row)).toEqual([...rows].reverse());
    expect(w1).toEqual([{ path, line: rows.length + 1, message: TORN_WARNING }]);
    expect(w2).toEqual(w1);
  });

  test("rowsSince returns the newer rows newest first and stops without reaching older lines", async () => {
    const path = ledgerPath();
    // Line 1 is corrupt: any reader that walks the whole file throws on it.
    const old = Array.from({ length: 20_000 }, (_, i) => `${sortedJson({ i, ts: 1_000 + (i % 100), pad: "o".repeat(40) })}\n`).join("");
    const fresh = Array.from({ length: 10 }, (_, i) => ({ i: 20_000 + i, ts: 1_000_000 + i }));
    writeFileSync(path, `this line is corrupt\n${old}${fresh.map((r) => `${sortedJson(r)}\n`).join("")}`);
    expect(readFileSync(path).length).toBeGreaterThan(20 * CHUNK);

    const full = (await catchAsync(() => readAll(path))) as LedgerError;
    expect([full.fault, full.line]).toEqual(["corrupt", 1]);

    const got = await collect(rowsSince(path, 999_999));
    expect(got.map((r) => r.row)).toEqual([...fresh].reverse());

    // The slack window: rows up to 300 s older than `since` are walked past (skipped), not a stop.
    const mixed = ledgerPath();
    const lines = [{ ts: 10 }, { ts: 500 }, { ts: 950 }, { ts: 1200 }, { ts: 900 }, { ts: 1100 }, { note: "no ts" }];
    writeFileSync(mixed, lines.map((r) => `${sortedJson(r)}\n`).join(""));
    const since = await collect(rowsSince(mixed, 1000));
    expect(since.map((r) => r.row)).toEqual([{ note: "no ts" }, { ts: 1100 }, { ts: 1200 }]);
    const noSlack = await collect(rowsSince(mixed, 1000, { slackSeconds: 0 }));
    expect(noSlack.map((r) => r.row)).toEqual([{ note: "no ts" }, { ts: 1100 }]);
    const otherKey = ledgerPath();
    writeFileSync(otherKey, '{"at":5}\n{"at":50}\n');
    expect((await collect(rowsSince(otherKey, 40, { key: "at", slackSeconds: 0 }))).map((r) => r.row)).toEqual([{ at: 50 }]);
  });

  test("rowsSince on a 50 MB ledger reads only its tail (a corrupt head it never reaches stays unread)", async () => {
    const path = ledgerPath();
    // The head is 40 MB of lines that are not JSON: a reader that touched them would fail (readRows does), so a
    // clean answer proves rowsSince stopped at the first row older than the window. No clock is involved.
    const junk = `not json ${"j".repeat(1000)}\n`.repeat(1024);
    const line = `${sortedJson({ ts: 1_000, pad: "p".repeat(1000) })}\n`;
    const parts: string[] = [];
    let size = 0;
    while (size < 40 * 1024 * 1024) {
      parts.push(junk);
      size += junk.length;
    }
    for (let i = 0; i < 10; i++) parts.push(line.repeat(1024));
    const fresh = Array.from({ length: 10 }, (_, i) => ({ i, ts: 5_000 + i }));
    parts.push(fresh.map((r) => `${sortedJson(r)}\n`).join(""));
    writeFileSync(path, parts.join(""));

    const got = await collect(rowsSince(path, 4_000));
    expect(got.map((r) => r.row)).toEqual([...fresh].reverse());
    await expect(readAll(path)).rejects.toThrow(/ledger.jsonl:1: corrupt line/);
  }, 60_000);
});

describe("sortedJson", () => {
  test("sorts keys at every level (inside arrays too) and prints compact JSON", () => {
    const value = { b: 1, a: { d: [{ z: 1, y: [{ k: 2, j: 1 }] }, 3, "s"], c: null }, A: [], "1": "one" };
    expect(sortedJson(value)).toBe('{"1":"one","A":[],"a":{"c":null,"d":[{"y":[{"j":1,"k":2}],"z":1},3,"s"]},"b":1}');
  });

  test("scalars, unicode and undefined members behave like JSON.stringify", () => {
    expect(sortedJson("한국어")).toBe('"한국어"');
    expect(sortedJson(null)).toBe("null");
    expect(sortedJson([2, 1])).toBe("[2,1]");
    expect(sortedJson({ b: undefined, a: 1 })).toBe('{"a":1}');
  });
});

describe("the appender contract and bounded warnings (issue 13 §5)", () => {
  test("checkLedger: a corrupt middle line throws naming its line; a torn tail warns; a missing ledger is fine", async () => {
    const dir = tempDir("ledger-check-");
    const p = join(dir, "l.jsonl");
    await checkLedger(p);
    writeFileSync(p, '{"a":1}\n[1]\n{"b":2}\n');
    const e = await checkLedger(p).catch((x) => x);
    expect(e).toBeInstanceOf(LedgerError);
    expect(e.message).toBe(`${p}:2: corrupt line (not a JSON object)`);
    writeFileSync(p, '{"a":1}\n{"b":');
    const seen: LedgerWarning[] = [];
    await checkLedger(p, { onWarning: (w) => seen.push(w) });
    expect(seen).toEqual([{ path: p, line: 2, message: "torn last line (a writer died mid-append); skipped" }]);
  });

  test("boundedWarnings: 10 per kind, then one summary naming the count and the first suppressed line", () => {
    const out: string[] = [];
    const sink = boundedWarnings((w) => out.push(`${w.line}: ${w.message}`));
    for (let i = 1; i <= 25; i++) sink.warn({ path: "p", line: i, message: `unknown event: e${i}` });
    sink.warn({ path: "p", line: 26, message: "not an object" });
    sink.flush();
    expect(out).toHaveLength(12);
    expect(out[9]).toBe("10: unknown event: e10");
    expect(out[10]).toBe("26: not an object");
    expect(out[11]).toBe("0: ... 15 more (first at line 11): unknown event");
  });
});
