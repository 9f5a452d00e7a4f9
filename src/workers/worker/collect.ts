/**
 * Collection (spawn-worker §6): whoever spawned a worker collects it, and only when all three hold: the job is
 * terminal (merged / closed / escalated: a recorded decision), its final report is a FILE in the inbox, and the
 * pane is not working (stable across readings). A non-working pane whose job awaits a decision is kept, and said
 * so: its context may be reused. Panes are closed one at a time (never a tab); worktrees go through the reaper's
 * safety rules.
 */
import type { Ctx } from "../../lib/context.ts";
import { errorMessage } from "../../lib/errors.ts";
import type { Host } from "../../lib/host/types.ts";
import { hasReport, type Job, record, reportPath, TERMINAL_STATES } from "./jobs.ts";
import { stableStatus } from "./stability.ts";
import { cleanupWorktree } from "./worktree.ts";

export interface CollectOptions {
  execute: boolean;
  readings: number;
  intervalMs: number;
  ledger: string;
  cmd: string;
}

export interface CollectItem {
  job_id: string;
  state: string;
  pane_id: string;
  status: string;
  readings: string[];
  report: string | null;
  action: "close" | "keep" | "closed" | "close_failed" | "error";
  reasons: string[];
  worktree: string | null;
}

export async function collectJob(ctx: Ctx, host: Host, j: Job, o: CollectOptions): Promise<CollectItem> {
  const reportFile = String(j.spawn.report_file ?? "report.md");
  const terminal = TERMINAL_STATES.includes(j.state);
  const report = hasReport(j, reportFile) ? reportPath(j, reportFile) : null;
  // A job still awaiting a decision gets one reading (to say what it is doing); a collectable one needs stability.
  const st = await stableStatus(ctx, host, j.spawn.pane_id, terminal && report ? o.readings : 1, o.intervalMs);
  const reasons: string[] = [];
  if (!terminal) reasons.push(st.notWorking ? `not working, but the job awaits a decision (${j.state}): kept for re-injection` : `job is ${j.state}`);
  if (!report) reasons.push(`no final report file ${reportPath(j, reportFile)}`);
  if (!st.notWorking) reasons.push(`pane is working (readings: ${st.readings.join(", ")})`);
  const item: CollectItem = { job_id: j.id, state: j.state, pane_id: j.spawn.pane_id, status: st.status, readings: st.readings, report, action: reasons.length ? "keep" : "close", reasons, worktree: null };
  if (item.action === "keep" || !o.execute) return item;
  try {
    if (!st.gone) await host.closePane(j.spawn.pane_id);
    item.action = "closed";
  } catch (e) {
    item.action = "close_failed";
    item.reasons.push(errorMessage(e));
    return item;
  }
  item.worktree = await cleanupWorktree(ctx, j.spawn.worktree);
  record(ctx, o.ledger, o.cmd, { event: "job_collected", job_id: j.id, pane_id: j.spawn.pane_id, pane_was: st.gone ? "gone" : "closed", worktree: item.worktree });
  return item;
}
