/** The sidecar attempt index: correct from scratch, after foreign appends, deletion, truncation or replacement. */
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { priorAllows, REBUILD_PROGRESS_BYTES, rebuildProgress } from "../../../src/dispatch/gate/attempts.ts";
import { indexDir } from "../../../src/dispatch/gate/sidecar.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { LedgerError } from "../../../src/lib/ledger.ts";
import { captureCtx } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

const A = `ab${"1".repeat(62)}`;
const B = `ab${"2".repeat(62)}`;
const C = `cd${"3".repeat(62)}`;
const row = (sha: string, decision = "ALLOW", extra: Record<string, unknown> = {}) => `${JSON.stringify({ contract_sha: sha, decision, ts: 1, ...extra })}\n`;

function count(ledger: string, sha: string): number {
  const c = priorAllows(ledger, sha);
  c.save();
  return c.prior;
}

describe("attempt index", () => {
  test("counts ALLOW rows per sha (check and register rows), ignores DENY rows and other shas", () => {
    const l = join(tempDir(), "l.jsonl");
    expect(count(l, A)).toBe(0);
    writeFileSync(l, `${row(A) + row(A, "DENY") + row(B) + row(A, "ALLOW", { job_id: "j" })}\n${row(C)}`);
    expect(count(l, A)).toBe(2);
    expect(count(l, B)).toBe(1);
    expect(count(l, C)).toBe(1);
    expect(readdirSync(indexDir(l)).sort()).toEqual(["ab.json", "cd.json"]);
  });

  test("catches up with rows appended by anyone since; survives deletion and corruption of the index", () => {
    const l = join(tempDir(), "l.jsonl");
    writeFileSync(l, row(A));
    expect(count(l, A)).toBe(1);
    appendFileSync(l, row(A) + row(A, "ALLOW", { kind: "x" }));
    expect(count(l, A)).toBe(3);
    rmSync(indexDir(l), { recursive: true });
    expect(count(l, A)).toBe(3);
    writeFileSync(join(indexDir(l), "ab.json"), "{garbage");
    expect(count(l, A)).toBe(3);
    writeFileSync(join(indexDir(l), "ab.json"), JSON.stringify({ v: 1, offset: 0, lines: 0, head: "x", tail: "y", counts: { [A]: 99 } }));
    expect(count(l, A)).toBe(3);
  });

  test("a truncated or replaced ledger invalidates the bucket", () => {
    const l = join(tempDir(), "l.jsonl");
    writeFileSync(l, row(A) + row(A) + row(A));
    expect(count(l, A)).toBe(3);
    writeFileSync(l, row(A));
    expect(count(l, A)).toBe(1);
    writeFileSync(l, row(B) + row(A) + row(A) + row(A) + row(A));
    expect(count(l, A)).toBe(4);
  });

  test("a partial last line is left for later; a corrupt complete line is an error with its number", () => {
    const l = join(tempDir(), "l.jsonl");
    writeFileSync(l, `${row(A)}{"contract_sha":"${A}","deci`);
    expect(count(l, A)).toBe(1);
    appendFileSync(l, 'sion":"ALLOW"}\n');
    expect(count(l, A)).toBe(2);
    appendFileSync(l, `not json at all\n${row(A)}`);
    try {
      count(l, A);
      throw new Error("expected a LedgerError");
    } catch (e) {
      expect(e).toBeInstanceOf(LedgerError);
      expect((e as LedgerError).line).toBe(3);
    }
  });

  test("multi-byte text straddling read chunks keeps offsets exact", () => {
    const l = join(tempDir(), "l.jsonl");
    const big = "가".repeat(400_000);
    writeFileSync(l, row(A, "ALLOW", { note: big }) + row(A));
    expect(count(l, A)).toBe(2);
    appendFileSync(l, row(A, "ALLOW", { note: big }));
    expect(count(l, A)).toBe(3);
    expect(existsSync(join(indexDir(l), "ab.json"))).toBe(true);
  });
});

/** A ledger of about `mb` MB: rows of other shas padded to ~1 KB, and one ALLOW row of A at the end. */
function bigLedger(mb: number): string {
  const l = join(tempDir(), "big.jsonl");
  const pad = "x".repeat(1000);
  const other = row(C, "ALLOW", { pad });
  writeFileSync(l, other.repeat(Math.ceil((mb << 20) / other.length)) + row(A));
  return l;
}

describe("progress of a from-scratch rebuild (the attempt index of a big ledger)", () => {
  const LINE = /^dispatch-gate: rebuilding the attempt index: (\d+\/\d+ MB|\d+ MB scanned)$/;

  test("plain lines without a TTY (at most one per tenth), ending with the bytes scanned; a catch-up shows nothing", () => {
    const l = bigLedger(3);
    const { ctx, out } = captureCtx();
    const asked: number[] = [];
    const inner = rebuildProgress(ctx as Ctx, 1 << 20);
    const watch = (bytes: number) => (asked.push(bytes), inner(bytes));
    const c = priorAllows(l, A, watch);
    c.save();
    expect(c.prior).toBe(1);
    const lines = out().stderr.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(12);
    for (const line of lines) expect(line).toMatch(LINE);
    expect(lines.at(-1)).toBe("dispatch-gate: rebuilding the attempt index: 3 MB scanned");
    // The next check catches the saved bucket up: no rebuild, no question asked, nothing printed.
    appendFileSync(l, row(A));
    expect(priorAllows(l, A, watch).prior).toBe(2);
    expect(asked).toHaveLength(1);
    expect(out().stderr.split("\n").filter(Boolean)).toHaveLength(lines.length);
  });

  test("one updating line on a TTY", () => {
    const l = bigLedger(3);
    const { ctx, out } = captureCtx();
    ctx.io = { ...ctx.io!, stderrIsTTY: true };
    priorAllows(l, A, rebuildProgress(ctx as Ctx, 1 << 20));
    const err = out().stderr;
    expect(err).toContain("\r\x1b[2Kdispatch-gate: rebuilding the attempt index: 1/3 MB");
    expect(err.endsWith("\r\x1b[2Kdispatch-gate: rebuilding the attempt index: 3 MB scanned\n")).toBe(true);
    expect(err.split("\n")).toHaveLength(2); // one line, rewritten in place, ended once
  });

  test("nothing when quick: a ledger under the threshold rebuilds silently", () => {
    const l = bigLedger(1);
    const { ctx, out } = captureCtx();
    expect(REBUILD_PROGRESS_BYTES).toBeGreaterThan(1 << 20);
    expect(priorAllows(l, A, rebuildProgress(ctx as Ctx)).prior).toBe(1);
    expect(out().stderr).toBe("");
  });

  test("a corrupt line ends the progress line before the error", () => {
    const l = bigLedger(2);
    appendFileSync(l, "not json\n");
    const { ctx, out } = captureCtx();
    expect(() => priorAllows(l, A, rebuildProgress(ctx as Ctx, 1 << 20))).toThrow(LedgerError);
    expect(out().stderr.endsWith("dispatch-gate: rebuilding the attempt index: stopped\n")).toBe(true);
  });
});
