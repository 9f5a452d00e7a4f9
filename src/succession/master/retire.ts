/**
 * §5.7 three-disappearance retirement. Exact criteria (handle, pty id, session id) match only their own field;
 * without them a selector substring-matches all seven. Refuses self, zero and several candidates; dry run unless
 * executing; after `orca terminal close --terminal <h> --json` it measures pane, process and tty disappearance and
 * says CLOSED only when all three were measured.
 */
import type { Ctx } from "../../lib/context.ts";
import { SuccessionError } from "./errors.ts";
import { settle, type Probe, type ProbeResult } from "./probes.ts";
import { ok } from "../../lib/runner.ts";
import { findSessions, matchedFields, runFailure, runOrca, type SessionInfo } from "./sessions.ts";
import { errorMessage } from "../../lib/errors.ts";

export const RETIRE = { CLOSED: "CLOSED", CLOSED_PARTIAL: "CLOSED_PARTIAL", REFUSED: "REFUSED", DRY_RUN: "DRY_RUN" } as const;
const MEASURED = "measured";
const STILL_PRESENT = "still_present";

export interface RetireInput {
  selfHandle: string;
  selector?: string;
  execute?: boolean;
  targetHandle?: string;
  targetPtyId?: string;
  targetSessionId?: string;
  targetPid?: number;
  targetTty?: string;
  settleMs?: number;
  processProbe: Probe;
  ttyProbe: Probe;
  sleep?: (ms: number) => Promise<void>;
}

export interface RetirementReport {
  status: (typeof RETIRE)[keyof typeof RETIRE];
  reason: string;
  target_handle: string | null;
  closed: boolean;
  candidates: SessionInfo[];
  match_attempts: string[];
  disappearances: Record<string, string>;
}

type Criterion = { label: string; expected: string; exact?: "handle" | "pty_id" | "session_id" };

function criteria(inp: RetireInput): Criterion[] {
  const exact: Criterion[] = [];
  if (inp.targetHandle) exact.push({ label: "handle", expected: inp.targetHandle, exact: "handle" });
  if (inp.targetPtyId) exact.push({ label: "pty_id", expected: inp.targetPtyId, exact: "pty_id" });
  if (inp.targetSessionId) exact.push({ label: "session_id", expected: inp.targetSessionId, exact: "session_id" });
  if (exact.length) return exact;
  if (!inp.selector) throw new SuccessionError("predecessor_selector is required");
  return [{ label: "selector", expected: inp.selector }];
}

function match(s: SessionInfo, c: Criterion): string[] {
  if (c.exact) return s[c.exact] === c.expected ? [c.exact] : [];
  return matchedFields(s, c.expected);
}

function refused(reason: string, extra: Partial<RetirementReport> = {}): RetirementReport {
  return { status: RETIRE.REFUSED, reason, target_handle: null, closed: false, candidates: [], match_attempts: [], disappearances: {}, ...extra };
}

function axis(r: ProbeResult): string {
  return r === true ? STILL_PRESENT : r === false ? MEASURED : r;
}

async function measure(ctx: Ctx, inp: RetireInput, target: SessionInfo): Promise<Record<string, string>> {
  const sleep = inp.sleep ?? ((ms: number) => Bun.sleep(ms));
  const settleMs = inp.settleMs ?? 0;
  let pane: string;
  try {
    const after = await findSessions(ctx);
    pane = after.some((s) => s.handle === target.handle) ? STILL_PRESENT : MEASURED;
  } catch (e) {
    pane = `skipped:re-list failed: ${errorMessage(e)}`;
  }
  const pid = inp.targetPid ?? target.process_id;
  const raw = inp.targetTty?.trim() ?? "";
  const bare = raw.replace(/^\/dev\//, "").trim();
  // The two probes are independent: settle them side by side, so a slow one does not add its wait to the other's.
  const [process, tty] = await Promise.all([
    pid === null || pid === undefined ? "skipped:no target-pid and no pid reported by terminal list" : settle(inp.processProbe, String(pid), settleMs, sleep).then(axis),
    !raw ? "skipped:no target-tty supplied" : !bare ? "skipped:target-tty has no device name after normalization" : settle(inp.ttyProbe, bare, settleMs, sleep).then(axis),
  ]);
  return { pane, process, tty };
}

function outcome(d: Record<string, string>, inp: RetireInput, pid: number | null): { status: RetirementReport["status"]; reason: string } {
  const summary = `disappearances=pane=${d.pane},process=${d.process},tty=${d.tty}`;
  if (d.pane === STILL_PRESENT) return { status: RETIRE.REFUSED, reason: `target still present after close; ${summary}` };
  if (d.process === STILL_PRESENT) return { status: RETIRE.REFUSED, reason: `target process still present after close: pid=${pid}; ${summary}` };
  if (d.tty === STILL_PRESENT) return { status: RETIRE.REFUSED, reason: `target tty still present after close: ${inp.targetTty}; ${summary}` };
  if (d.pane !== MEASURED) return { status: RETIRE.REFUSED, reason: `target pane not measured after close; ${summary}` };
  const skipped = (["pane", "process", "tty"] as const).filter((k) => d[k]!.startsWith("skipped:"));
  if (skipped.length) {
    const partial = skipped.map((k) => `${k}=${d[k]}`).join(";");
    return { status: RETIRE.CLOSED_PARTIAL, reason: `target pane disappeared after close; partial measurement (${partial}); ${summary}` };
  }
  return { status: RETIRE.CLOSED, reason: `target disappeared after close; three disappearances measured; ${summary}` };
}

export async function retirePredecessor(ctx: Ctx, inp: RetireInput): Promise<RetirementReport> {
  if (!inp.selfHandle) throw new SuccessionError("self_handle is required");
  if (inp.targetPid !== undefined && inp.targetPid <= 0) throw new SuccessionError("target_pid must be a positive integer");
  const crit = criteria(inp);
  const sessions = await findSessions(ctx);
  const attempts: string[] = [];
  const candidates: SessionInfo[] = [];
  for (const s of sessions) {
    let hit = false;
    for (const c of crit) {
      const fields = match(s, c);
      attempts.push(`${s.handle}: ${c.label}=${c.expected} -> ${fields.length ? fields.join(",") : "no-match"}`);
      hit ||= fields.length > 0;
    }
    if (hit) candidates.push(s);
  }
  if (candidates.some((s) => s.handle === inp.selfHandle)) {
    throw new SuccessionError("self_handle matched retirement candidate; refusing to close self");
  }
  const joined = attempts.join(" | ");
  if (candidates.length === 0) return refused(`no predecessor candidates; candidates=none; match_attempts=${joined}`, { match_attempts: attempts });
  if (candidates.length > 1) {
    const hs = candidates.map((c) => c.handle).join(",");
    return refused(`ambiguous predecessor candidates; candidates=${hs}; match_attempts=${joined}`, { candidates, match_attempts: attempts });
  }
  const target = candidates[0]!;
  const base = { target_handle: target.handle, candidates, match_attempts: attempts, disappearances: {} };
  if (!inp.execute) return { status: RETIRE.DRY_RUN, reason: "dry-run only", closed: false, ...base };
  const close = await runOrca(ctx, ["terminal", "close", "--terminal", target.handle, "--json"]);
  if (!ok(close)) return { ...refused(runFailure(close, "orca terminal close failed")), ...base };
  const d = await measure(ctx, inp, target);
  const o = outcome(d, inp, inp.targetPid ?? target.process_id);
  return { status: o.status, reason: o.reason, closed: o.status !== RETIRE.REFUSED, ...base, disappearances: d };
}
