/**
 * Register candidate selection (reference §3.10 with DECISIONS D9/D10). A "pending dispatch" is a check ALLOW row
 * not yet matched by a later registration of the same sha: walking the ledger newest -> oldest, each register
 * ALLOW row (job_id) adds one to its sha's counter and each check ALLOW row either uses one up or is pending.
 * The walk goes backwards and stops at the first pending row it needs, so a recent ticket costs a few rows.
 */
import { readBackwards, type LedgerRow, type LedgerWarning } from "../../lib/ledger.ts";
import { isExpired, listTickets, type Ticket } from "./tickets.ts";
import type { GateDecision } from "./reasons.ts";
import { abortKey, isAbortRow, isCheckAllow } from "./window.ts";

export interface Pending {
  offset: number;
  row: LedgerRow & { contract_sha: string };
}

export interface Selection {
  pending: Pending;
  ticket?: Ticket;
  ticketAbsent: boolean;
}

type Match = (sha: string, runtime: string) => boolean;

export async function pendingRows(ledger: string, match: Match, firstOnly: boolean, warn?: (w: LedgerWarning) => void): Promise<Pending[]> {
  const registered = new Map<string, number>();
  // D38: a check ALLOW row cancelled by a later dispatch_aborted row is no candidate (met newest first).
  const aborted = new Set<string>();
  const out: Pending[] = [];
  for await (const { offset, row } of readBackwards(ledger, { onWarning: warn })) {
    const sha = row.contract_sha;
    if (typeof sha !== "string") continue;
    if (isAbortRow(row)) {
      const k = abortKey(row);
      if (k !== null) aborted.add(k);
      continue;
    }
    if ("job_id" in row) {
      if (row.decision === "ALLOW" && !("kind" in row)) registered.set(sha, (registered.get(sha) ?? 0) + 1);
      continue;
    }
    if (!isCheckAllow(row)) continue;
    const key = abortKey(row);
    if (key !== null && aborted.has(key)) continue;
    const c = registered.get(sha) ?? 0;
    if (c > 0) {
      registered.set(sha, c - 1);
      continue;
    }
    const runtime = typeof row.runtime === "string" ? row.runtime.toLowerCase() : "";
    if (!match(sha, runtime)) continue;
    out.push({ offset, row: row as Pending["row"] });
    if (firstOnly) break;
  }
  return out;
}

function shaList(shas: Iterable<string>): string {
  const list = [...new Set(shas)].sort();
  return `candidate_contract_shas=${list.length ? list.join(",") : "<none>"}`;
}

function denial(reason: "AMBIGUOUS_TICKET" | "NO_MATCHING_TICKET", shas: Iterable<string>): GateDecision {
  return { allow: false, reason, warnings: [], contract_sha: null, cost_proxy: 0, message: shaList(shas) };
}

async function fromTicket(ledger: string, t: Ticket, runtime: string | undefined, warn?: (w: LedgerWarning) => void): Promise<Selection | GateDecision> {
  const rows = await pendingRows(ledger, (sha, rt) => sha === t.contract_sha && rt === t.runtime && (runtime === undefined || rt === runtime), true, warn);
  // D9: a ticket whose pending row is gone is NO_MATCHING_TICKET, never a crash.
  if (rows.length === 0) return denial("NO_MATCHING_TICKET", []);
  return { pending: rows[0]!, ticket: t, ticketAbsent: false };
}

/**
 * Pick the pending dispatch a register binds to. `filter` is the normalised --contract-sha prefix (>= 12 hex),
 * `runtime` the normalised --runtime. Returns the selection or a denial (nothing is written either way).
 */
export async function selectCandidate(ledger: string, ticketDir: string, nowSec: number, filter: string | undefined, runtime: string | undefined, warn?: (w: LedgerWarning) => void): Promise<Selection | GateDecision> {
  const all = listTickets(ticketDir, nowSec).filter((t) => runtime === undefined || t.runtime === runtime);
  if (filter === undefined) {
    const valid = all.filter((t) => !isExpired(t, nowSec));
    if (valid.length === 0) return denial("NO_MATCHING_TICKET", []);
    if (valid.length > 1)
      return denial(
        "AMBIGUOUS_TICKET",
        valid.map((t) => t.contract_sha),
      );
    return fromTicket(ledger, valid[0]!, runtime, warn);
  }
  const hits = all.filter((t) => t.contract_sha.startsWith(filter));
  if (hits.length > 1)
    return denial(
      "AMBIGUOUS_TICKET",
      hits.map((t) => t.contract_sha),
    );
  if (hits.length === 1) return fromTicket(ledger, hits[0]!, runtime, warn);
  if (all.length > 0)
    return denial(
      "NO_MATCHING_TICKET",
      all.map((t) => t.contract_sha),
    );
  // No tickets at all: fall back to the ledger's pending rows.
  const rows = await pendingRows(ledger, (sha, rt) => sha.startsWith(filter) && (runtime === undefined || rt === runtime), false, warn);
  const shas = new Set(rows.map((r) => r.row.contract_sha));
  if (shas.size > 1) return denial("AMBIGUOUS_TICKET", shas);
  if (rows.length === 0) return denial("NO_MATCHING_TICKET", []);
  return { pending: rows[0]!, ticketAbsent: true };
}

export function isSelection(x: Selection | GateDecision): x is Selection {
  return "pending" in x;
}
