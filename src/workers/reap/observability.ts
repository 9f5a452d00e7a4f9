/**
 * ReapObservability (DECISIONS D19): from the dispatch ledger's lifecycle rows, which dispatches are settled
 * but were never reaped. `dispatch_submitted` seeds a dispatch, `dispatch_completed` updates its status, `reap`
 * marks it reaped. Rows without an `event` (gate check/register rows) are not lifecycle rows and are ignored.
 */
import * as v from "valibot";
import { LedgerError, readRows, type ReadOptions } from "../../lib/ledger.ts";
import { isSettled } from "./worker-reap.ts";

const LifecycleRow = v.looseObject({
  event: v.picklist(["dispatch_submitted", "dispatch_completed", "reap"]),
  dispatch_id: v.pipe(v.string(), v.minLength(1)),
  task_id: v.optional(v.nullable(v.string())),
  status: v.optional(v.nullable(v.string())),
  ts: v.optional(v.number()),
});

export interface DispatchReapState {
  dispatch_id: string;
  task_id: string | null;
  status: string;
  submitted_at: number | null;
  settled_at: number | null;
  reaped: boolean;
  reaped_at: number | null;
}

export async function dispatchStates(ledgerPath: string, opts: ReadOptions = {}): Promise<Map<string, DispatchReapState>> {
  const states = new Map<string, DispatchReapState>();
  for await (const { line, row } of readRows(ledgerPath, opts)) {
    if (!("event" in row)) continue;
    if (!["dispatch_submitted", "dispatch_completed", "reap"].includes(String(row.event))) continue;
    const p = v.safeParse(LifecycleRow, row);
    if (!p.success) throw new LedgerError("corrupt", ledgerPath, `${row.event} row: ${v.summarize(p.issues).replace(/\n/g, "; ")}`, line);
    const r = p.output;
    const s = states.get(r.dispatch_id) ?? {
      dispatch_id: r.dispatch_id,
      task_id: null,
      status: "",
      submitted_at: null,
      settled_at: null,
      reaped: false,
      reaped_at: null,
    };
    if (r.task_id) s.task_id = r.task_id;
    if (r.event === "dispatch_submitted") {
      s.submitted_at = r.ts ?? null;
      if (r.status && !s.status) s.status = r.status;
    } else if (r.event === "dispatch_completed") {
      if (r.status) s.status = r.status;
      s.settled_at = r.ts ?? null;
    } else {
      s.reaped = true;
      s.reaped_at = r.ts ?? null;
    }
    states.set(r.dispatch_id, s);
  }
  return states;
}

/** Settled, never reaped: the debris a master still owes a reap for. Sorted by settle time, then id. */
export async function unreapedSettled(ledgerPath: string, opts: ReadOptions = {}): Promise<DispatchReapState[]> {
  const all = [...(await dispatchStates(ledgerPath, opts)).values()];
  return all.filter((s) => !s.reaped && isSettled(s.status)).sort((a, b) => (a.settled_at ?? 0) - (b.settled_at ?? 0) || a.dispatch_id.localeCompare(b.dispatch_id));
}
