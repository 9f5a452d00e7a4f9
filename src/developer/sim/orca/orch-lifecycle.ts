/**
 * worker_done / heartbeat settlement. Checks run in the real runtime's order: unknown task, unknown dispatch,
 * task/dispatch mismatch, sender authority, then staleness and activity. A rejection changes nothing (the
 * transaction throws) and surfaces as an error with the rejection code.
 */
import { SimError } from "./errors.ts";
import { iso } from "./ids.ts";
import { activeDispatchFor, isOpen, latestDispatch, promoteReady } from "./orch-common.ts";
import type { DispatchRow, SimState, TaskRow } from "./types.ts";

export interface Report {
  sender: string;
  senderPaneKey: string;
  taskId?: string;
  dispatchId?: string;
  outcome?: "succeeded" | "failed";
  summary: string;
}

function reject(code: string, reason: string): SimError {
  return new SimError(code, `worker_done rejected (${code}): ${reason}`, {
    lifecycle: { action: "rejected", code, reason },
    effectsApplied: false,
  });
}

/** The task and dispatch a lifecycle message is about; ids default to the sender's active dispatch. */
function reportTarget(s: SimState, r: Report): { task: TaskRow; dispatch: DispatchRow } {
  const active = activeDispatchFor(s, r.sender);
  const dispatchId = r.dispatchId ?? active?.id;
  const taskId = r.taskId ?? (dispatchId ? s.dispatches.find((d) => d.id === dispatchId)?.task_id : undefined);
  if (!taskId) throw reject("missing_task_id", "worker_done needs --task-id (the sender has no active dispatch).");
  if (!dispatchId) throw reject("missing_dispatch_id", "worker_done needs --dispatch-id (the sender has no active dispatch).");
  const task = s.tasks.find((t) => t.id === taskId);
  if (!task) throw reject("unknown_task", `Unknown task ${taskId}.`);
  const dispatch = s.dispatches.find((d) => d.id === dispatchId);
  if (!dispatch) throw reject("unknown_dispatch", `Unknown dispatch ${dispatchId}.`);
  if (dispatch.task_id !== task.id) throw reject("task_dispatch_mismatch", `Dispatch ${dispatch.id} belongs to task ${dispatch.task_id}, not ${task.id}.`);
  const samePane = dispatch.assignee_pane_key ? dispatch.assignee_pane_key === r.senderPaneKey : dispatch.assignee_handle === r.sender;
  if (!samePane) throw reject("sender_not_assignee", `Dispatch ${dispatch.id} is assigned to ${dispatch.assignee_handle}, not ${r.sender}.`);
  return { task, dispatch };
}

export function settleWorkerDone(s: SimState, r: Report, nowMs: number): Record<string, unknown> {
  const { task, dispatch } = reportTarget(s, r);
  const status = r.outcome === "failed" ? "failed" : "completed";
  const ids = { taskId: task.id, dispatchId: dispatch.id };
  if (latestDispatch(s, task.id)?.id !== dispatch.id) throw reject("stale_dispatch", `Dispatch ${dispatch.id} is no longer the active attempt of ${task.id}.`);
  if (!isOpen(dispatch)) {
    // A repeated report of the same outcome is a harmless duplicate, not an error.
    if (dispatch.status === status) return { action: "settled", duplicate: true, ...ids, taskStatus: task.status, dispatchStatus: dispatch.status };
    throw reject("inactive_dispatch", `Dispatch ${dispatch.id} is already ${dispatch.status}.`);
  }
  const at = iso(nowMs);
  Object.assign(dispatch, { status, completed_at: at, capability_revoked_at: at });
  if (status === "failed") Object.assign(dispatch, { failure_count: dispatch.failure_count + 1, last_failure: r.summary || "worker reported failure" });
  Object.assign(task, { status, completed_at: at, result: JSON.stringify({ outcome: r.outcome, summary: r.summary, dispatchId: dispatch.id }) });
  if (status === "completed") promoteReady(s, task.run_id);
  return { action: status, ...ids, taskStatus: task.status, dispatchStatus: dispatch.status };
}

export function recordHeartbeat(s: SimState, r: Report, nowMs: number): void {
  const { dispatch } = reportTarget(s, r);
  dispatch.last_heartbeat_at = iso(nowMs);
}
