/**
 * top's one action (it writes nothing else): reap the selected worktree through `fleet reap` itself. The dispatch ledger is checked
 * first (as `fleet reap --execute` does), the worktree's repository is scanned afresh, and reapFleet runs on that
 * one worktree: the same checks, in the same order, the same removal and the same `fleet_reap` row. top adds no
 * rule of its own and writes nothing else.
 */
import type { Ctx } from "../../lib/context.ts";
import { checkLedger, type LedgerWarning } from "../../lib/ledger.ts";
import { realOrSelf, type ProcTable } from "../fleet/procs.ts";
import { reapFleet } from "../fleet/reap.ts";
import { scanFleet } from "../fleet/scan.ts";
import type { TopRequest } from "./collect.ts";
import type { TopRow } from "./row.ts";

export interface ReapOutcome {
  outcome: "removed" | "left" | "failed";
  message: string;
}

const REAP_GRACE_MS = 3000;

export async function reapRow(ctx: Ctx, req: TopRequest, table: ProcTable, row: TopRow, onLedgerWarning?: (w: LedgerWarning) => void): Promise<ReapOutcome> {
  if (!row.worktree || !row.repo) return { outcome: "left", message: `left ${row.id}: no worktree of a scanned repository` };
  await checkLedger(req.dispatchLedger, { onWarning: onLedgerWarning });
  const scan = await scanFleet(ctx, { repos: [row.repo], jobsLedger: req.jobsLedger, dispatchLedger: req.dispatchLedger, hosts: req.hosts, concurrency: req.concurrency, timeoutMs: req.timeoutMs, safety: req.safety, onLedgerWarning }, table);
  const w = scan.worktrees.find((x) => realOrSelf(x.path) === realOrSelf(row.worktree!));
  if (!w) return { outcome: "left", message: `left ${row.worktree}: no longer a worktree of ${row.repo}` };
  if (w.main) return { outcome: "left", message: `left ${row.worktree}: main worktree` };
  const [r] = await reapFleet(ctx, { ...scan, worktrees: [w] }, table, { execute: true, graceMs: REAP_GRACE_MS, timeoutMs: req.timeoutMs, ledger: req.dispatchLedger, safety: req.safety, onLedgerWarning });
  if (!r) return { outcome: "left", message: `left ${row.worktree}` };
  const killed = r.killed.length ? ` (stopped ${r.killed.map((k) => `${k.pid} ${k.signal}`).join(", ")})` : "";
  if (r.outcome === "removed") return { outcome: "removed", message: `removed ${r.path}${killed}${r.ledger_error ? `; the fleet_reap row was not written: ${r.ledger_error}` : ""}` };
  return { outcome: r.failed ? "failed" : "left", message: `${r.failed ? "failed" : "left"} ${r.path}: ${r.reason ?? "refused"}${killed}` };
}
