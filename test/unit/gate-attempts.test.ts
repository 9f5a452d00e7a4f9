/** The sidecar attempt index: correct from scratch, after foreign appends, deletion, truncation or replacement. */
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { priorAllows } from "../../src/dispatch/gate/attempts.ts";
import { indexDir } from "../../src/dispatch/gate/sidecar.ts";
import { LedgerError } from "../../src/lib/ledger.ts";
import { tempDir } from "../helpers/paths.ts";

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
    writeFileSync(l, row(A) + row(A, "DENY") + row(B) + row(A, "ALLOW", { job_id: "j" }) + "\n" + row(C));
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
