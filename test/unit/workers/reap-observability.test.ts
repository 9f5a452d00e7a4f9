/** ReapObservability (DECISIONS D19): lifecycle rows of the dispatch ledger -> "settled but never reaped". */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LedgerError, type LedgerWarning } from "../../../src/lib/ledger.ts";
import { dispatchStates, unreapedSettled } from "../../../src/workers/reap/observability.ts";
import { tempDir } from "../../helpers/paths.ts";

const dir = tempDir("mogui-obs-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function ledger(rows: (object | string)[], tail = ""): string {
  const p = join(dir, `l${++n}.jsonl`);
  writeFileSync(p, rows.map((r) => `${typeof r === "string" ? r : JSON.stringify(r)}\n`).join("") + tail);
  return p;
}

const sub = (id: string, ts: number, extra: object = {}) => ({ event: "dispatch_submitted", dispatch_id: id, task_id: `task_${id}`, ts, ...extra });
const done = (id: string, status: string, ts: number) => ({ event: "dispatch_completed", dispatch_id: id, status, ts });
const reaped = (id: string, ts: number) => ({ event: "reap", dispatch_id: id, task_id: `task_${id}`, terminal_id: "term_1", worktree_path: null, actions_taken: "terminal_closed:term_1", timestamp: ts, ts });

describe("dispatchStates", () => {
  test("folds submitted -> completed -> reap into one state per dispatch", async () => {
    const p = ledger([sub("a", 10, { status: "dispatched" }), done("a", "completed", 20), reaped("a", 30), sub("b", 11)]);
    const s = await dispatchStates(p);
    expect([...s.keys()]).toEqual(["a", "b"]);
    expect(s.get("a")).toEqual({ dispatch_id: "a", task_id: "task_a", status: "completed", submitted_at: 10, settled_at: 20, reaped: true, reaped_at: 30 });
    expect(s.get("b")).toEqual({ dispatch_id: "b", task_id: "task_b", status: "", submitted_at: 11, settled_at: null, reaped: false, reaped_at: null });
  });

  test("rows without an event (gate check/register rows) and other events are ignored", async () => {
    const p = ledger([{ ts: 1, decision: "ALLOW", reason: "OK", tier: "top" }, { ts: 2, event: "register", track_id: "x" }, { ts: 3, event: "check", dispatch_id: 42 }, sub("a", 4)]);
    expect([...(await dispatchStates(p)).keys()]).toEqual(["a"]);
  });

  test("a completed row before its submitted row keeps the completed status", async () => {
    const p = ledger([done("a", "failed", 20), sub("a", 10, { status: "dispatched" })]);
    expect((await dispatchStates(p)).get("a")).toMatchObject({ status: "failed", submitted_at: 10, settled_at: 20 });
  });

  test("a later completed row wins; task_id comes from whichever row has it; missing ts is null", async () => {
    const p = ledger([
      { event: "dispatch_completed", dispatch_id: "a", status: "failed" },
      { event: "dispatch_completed", dispatch_id: "a", status: "completed", task_id: "task_late", ts: 9 },
      { event: "reap", dispatch_id: "a" },
    ]);
    expect((await dispatchStates(p)).get("a")).toEqual({ dispatch_id: "a", task_id: "task_late", status: "completed", submitted_at: null, settled_at: 9, reaped: true, reaped_at: null });
  });

  test("a missing ledger is empty", async () => {
    expect((await dispatchStates(join(dir, "nope.jsonl"))).size).toBe(0);
  });

  test.each([
    ["no dispatch_id", { event: "reap", ts: 1 }],
    ["empty dispatch_id", { event: "dispatch_completed", dispatch_id: "", status: "failed" }],
    ["numeric dispatch_id", { event: "dispatch_submitted", dispatch_id: 7 }],
    ["string ts", { event: "dispatch_submitted", dispatch_id: "a", ts: "yesterday" }],
    ["numeric status", { event: "dispatch_completed", dispatch_id: "a", status: 3 }],
  ])("an invalid lifecycle row (%s) is an error naming its line", async (_name, bad) => {
    const p = ledger([sub("x", 1), sub("y", 2), bad, sub("z", 3)]);
    const err = await dispatchStates(p).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LedgerError);
    expect((err as LedgerError).fault).toBe("corrupt");
    expect((err as LedgerError).line).toBe(3);
    expect((err as LedgerError).message).toStartWith(`${p}:3: ${(bad as { event: string }).event} row: `);
  });

  test("a corrupt line in the middle is an error, never a silent truncation", async () => {
    const p = ledger([sub("a", 1), "{not json", sub("b", 2)]);
    await expect(dispatchStates(p)).rejects.toThrow(`${p}:2: corrupt line (invalid JSON`);
  });

  test("a non-object line is corrupt", async () => {
    const p = ledger([sub("a", 1), "[1,2]", sub("b", 2)]);
    await expect(dispatchStates(p)).rejects.toThrow(`${p}:2: corrupt line (not a JSON object)`);
  });

  test("a torn last line is a warning and is skipped", async () => {
    const p = ledger([sub("a", 1), done("a", "completed", 2)], '{"event":"reap","dispatch_id":"a');
    const warnings: LedgerWarning[] = [];
    const s = await dispatchStates(p, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([{ path: p, line: 3, message: "torn last line (a writer died mid-append); skipped" }]);
    expect(s.get("a")?.reaped).toBe(false);
  });

  test("blank lines are skipped but still counted", async () => {
    const p = ledger([sub("a", 1), "", "   ", { event: "reap" }]);
    await expect(dispatchStates(p)).rejects.toThrow(`${p}:4: reap row:`);
  });
});

describe("unreapedSettled", () => {
  test("only settled, never reaped dispatches; sorted by settle time, then id", async () => {
    const p = ledger([
      sub("open", 1, { status: "dispatched" }),
      sub("c", 2),
      sub("b", 3),
      sub("a", 4),
      sub("gone", 5),
      done("c", "completed", 50),
      done("a", "failed", 40),
      done("b", "circuit_broken", 40),
      done("gone", "completed", 10),
      reaped("gone", 60),
      done("open", "dispatched", 70),
    ]);
    expect((await unreapedSettled(p)).map((s) => s.dispatch_id)).toEqual(["a", "b", "c"]);
  });

  test("every settled status of D7 counts, in any case; open statuses do not", async () => {
    const settled = ["completed", "ACCEPTED", "Failed", "abandoned", "CIRCUIT_BROKEN", "cancelled", "expired", "revoked"];
    const open = ["pending", "dispatched", "RUNNING", "REGISTERED", "ISSUED", "ready", "blocked", ""];
    const p = ledger([...settled.map((s, i) => done(`s${i}`, s, i)), ...open.map((s, i) => done(`o${i}`, s, 100 + i))]);
    const got = await unreapedSettled(p);
    expect(got.map((s) => s.status)).toEqual(settled);
  });

  test("a reap row without lifecycle rows is not listed (nothing settled is known)", async () => {
    expect(await unreapedSettled(ledger([reaped("z", 1)]))).toEqual([]);
  });

  test("a reap BEFORE the completed row still counts as reaped", async () => {
    expect(await unreapedSettled(ledger([sub("a", 1), reaped("a", 2), done("a", "completed", 3)]))).toEqual([]);
  });

  test("the status seeded by dispatch_submitted counts when no completed row follows", async () => {
    const got = await unreapedSettled(ledger([sub("a", 1, { status: "COMPLETED" })]));
    expect(got).toEqual([{ dispatch_id: "a", task_id: "task_a", status: "COMPLETED", submitted_at: 1, settled_at: null, reaped: false, reaped_at: null }]);
  });

  test("no settle time sorts first", async () => {
    const got = await unreapedSettled(ledger([done("late", "failed", 5), { event: "dispatch_completed", dispatch_id: "untimed", status: "failed" }]));
    expect(got.map((s) => s.dispatch_id)).toEqual(["untimed", "late"]);
  });

  test("passes warnings through", async () => {
    const warnings: LedgerWarning[] = [];
    const got = await unreapedSettled(ledger([done("a", "failed", 1)], "{tor"), { onWarning: (w) => warnings.push(w) });
    expect(got).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });

  test("a large ledger streams in order", async () => {
    const rows: object[] = [];
    for (let i = 0; i < 5000; i++) rows.push(sub(`d${i}`, i), done(`d${i}`, i % 3 ? "completed" : "dispatched", 10_000 + i));
    for (let i = 0; i < 5000; i += 2) rows.push(reaped(`d${i}`, 20_000 + i));
    const got = await unreapedSettled(ledger(rows));
    const expected = Array.from({ length: 5000 }, (_, i) => i).filter((i) => i % 3 !== 0 && i % 2 === 1);
    expect(got.map((s) => s.dispatch_id)).toEqual(expected.map((i) => `d${i}`));
  });
});
