/** Defaults for orchestration rows (runs, tasks, dispatches, messages): every key of docs/orca-cli.md §6 is present. */
import { orchId, randomHash } from "./ids.ts";
import type { DispatchRow, MessageRow, SimRun, SimTerminal, TaskRow } from "./types.ts";

type Raw = Record<string, unknown>;

const str = (x: unknown, d: string): string => (x === undefined || x === null ? d : String(x));
const strOrNull = (x: unknown): string | null => (x === undefined || x === null ? null : String(x));

export function paneKey(t: Pick<SimTerminal, "tabId" | "leafId">): string {
  return `${t.tabId}:${t.leafId}`;
}

export function incarnationOf(t: Pick<SimTerminal, "worktreeId" | "incarnation">): string {
  return `${t.worktreeId}@@${t.incarnation}`;
}

export function normalizeRun(r: Raw, terminals: SimTerminal[], at: string): SimRun {
  const coord = terminals.find((t) => t.handle === r.coordinator_handle);
  const created = str(r.created_at, at);
  return {
    id: String(r.id),
    objective: str(r.objective, ""),
    coordinator_handle: str(r.coordinator_handle, ""),
    coordinator_pane_key: str(r.coordinator_pane_key, coord ? paneKey(coord) : ""),
    consumer_generation: Number(r.consumer_generation ?? 1),
    legacy: Number(r.legacy ?? 0),
    created_at: created,
    updated_at: str(r.updated_at, created),
  };
}

export function normalizeTask(t: Raw, runs: SimRun[], at: string): TaskRow {
  const deps = Array.isArray(t.deps) ? JSON.stringify(t.deps) : str(t.deps, "[]");
  return {
    id: String(t.id),
    run_id: str(t.run_id, runs[0]?.id ?? ""),
    parent_id: strOrNull(t.parent_id),
    created_by_terminal_handle: strOrNull(t.created_by_terminal_handle),
    created_by_pane_key: strOrNull(t.created_by_pane_key),
    created_by_process_incarnation: strOrNull(t.created_by_process_incarnation),
    created_by_run_generation: t.created_by_run_generation === undefined ? 1 : (t.created_by_run_generation as number | null),
    task_title: strOrNull(t.task_title),
    display_name: strOrNull(t.display_name),
    spec: str(t.spec, ""),
    status: str(t.status, "ready"),
    deps,
    result: strOrNull(t.result),
    created_at: str(t.created_at, at),
    completed_at: strOrNull(t.completed_at),
  };
}

export function normalizeDispatch(d: Raw, tasks: TaskRow[], terminals: SimTerminal[], at: string): DispatchRow {
  const term = terminals.find((t) => t.handle === d.assignee_handle);
  const task = tasks.find((t) => t.id === d.task_id);
  const created = str(d.created_at, at);
  return {
    id: String(d.id),
    run_id: str(d.run_id, task?.run_id ?? ""),
    task_id: String(d.task_id),
    contract_version: Number(d.contract_version ?? 1),
    launch_token_hash: str(d.launch_token_hash, randomHash()),
    assignee_handle: str(d.assignee_handle, ""),
    assignee_pane_key: str(d.assignee_pane_key, term ? paneKey(term) : ""),
    capability_hash: str(d.capability_hash, randomHash()),
    process_incarnation: str(d.process_incarnation, term ? incarnationOf(term) : ""),
    capability_revoked_at: strOrNull(d.capability_revoked_at),
    status: str(d.status, "dispatched"),
    failure_count: Number(d.failure_count ?? 0),
    last_failure: strOrNull(d.last_failure),
    dispatched_at: d.dispatched_at === undefined ? created : strOrNull(d.dispatched_at),
    completed_at: strOrNull(d.completed_at),
    created_at: created,
    last_heartbeat_at: strOrNull(d.last_heartbeat_at),
  };
}

export function normalizeMessage(m: Raw, index: number, at: string): MessageRow {
  const contract = m.delivery_contract === "legacy_direct" || m.delivery_contract === "audit_only" ? m.delivery_contract : "current_delivery";
  return {
    id: str(m.id, orchId("msg")),
    run_id: strOrNull(m.run_id),
    delivery_contract: contract,
    from_handle: str(m.from_handle, ""),
    to_handle: str(m.to_handle, ""),
    subject: str(m.subject, ""),
    body: str(m.body, ""),
    type: str(m.type, "status"),
    priority: str(m.priority, "normal"),
    thread_id: strOrNull(m.thread_id),
    payload: strOrNull(m.payload),
    read: Number(m.read ?? 0),
    sequence: Number(m.sequence ?? index + 1),
    created_at: str(m.created_at, at),
    delivered_at: strOrNull(m.delivered_at),
    sender_pane_key: strOrNull(m.sender_pane_key),
  };
}
