/**
 * D38: a dispatch that ends before its worker starts gives its fan-out slot back. `dispatch_aborted` names the
 * check ALLOW row it cancels by `contract_sha` + `attempt` (the row's own attempt number, unique per sha), so the
 * tier window (window.ts) and register's candidate selection (selection.ts) skip that row; the ticket goes too.
 * Appended under the gate lock, like every other row that changes what a check or register sees.
 */
import { appendRow, type LedgerRow, type LedgerWarning } from "../../lib/ledger.ts";
import type { GatePaths } from "./paths.ts";
import { pendingRows } from "./selection.ts";
import { removeTicket, takeGateLock, ticketPath } from "./tickets.ts";
import { ABORTED_EVENT } from "./window.ts";

export interface AbortRequest {
  contractSha: string;
  runtime: string;
  /** The pipeline step that ended the dispatch (task-create, terminal, dispatch, ...). */
  step: string;
  reason: string;
  taskId?: string | null;
  terminal?: string | null;
}

/**
 * Cancel the newest pending check ALLOW row of this contract and runtime: append the dispatch_aborted row and
 * remove the ticket. Returns the cancelled row's attempt, or null when no pending row was left to cancel.
 */
export async function recordAbort(paths: GatePaths, req: AbortRequest, nowSec: number, warn?: (w: LedgerWarning) => void): Promise<number | null> {
  const runtime = req.runtime.toLowerCase();
  const release = takeGateLock(paths.ticketDir, paths.ledger, paths.lockTimeoutMs);
  try {
    const [pending] = await pendingRows(paths.ledger, (sha, rt) => sha === req.contractSha && rt === runtime, true, warn);
    const attempt = typeof pending?.row.attempt === "number" ? pending.row.attempt : null;
    if (attempt === null) return null;
    const row: LedgerRow = {
      ts: nowSec,
      event: ABORTED_EVENT,
      contract_sha: req.contractSha,
      runtime,
      attempt,
      step: req.step,
      reason: req.reason,
      task_id: req.taskId ?? null,
      terminal: req.terminal ?? null,
    };
    appendRow(paths.ledger, row, { onWarning: warn });
    const ticket = ticketPath(paths.ticketDir, runtime, req.contractSha);
    if (ticket) removeTicket({ contract_sha: req.contractSha, count: 1, issued_ts: 0, runtime, file: ticket });
    return attempt;
  } finally {
    release();
  }
}
