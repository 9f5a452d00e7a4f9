/**
 * Shared orchestration rules (docs/orca-cli.md §6): who the caller is, which Run applies, and the row helpers.
 * Every mutation must come from a live Orca terminal: `--from` (or `--terminal` for `check`) or
 * ORCA_TERMINAL_HANDLE.
 */
import { optString } from "./argv.ts";
import type { Call } from "./call.ts";
import { noSender, SimError } from "./errors.ts";
import { iso, orchId } from "./ids.ts";
import { normalizeMessage } from "./normalize-orch.ts";
import type { DispatchRow, MessageRow, SimRun, SimState, SimTerminal } from "./types.ts";

export const TASK_STATUSES = ["pending", "ready", "dispatched", "completed", "failed", "blocked"];
export const MESSAGE_TYPES = ["status", "dispatch", "worker_done", "merge_ready", "escalation", "handoff", "decision_gate", "question", "heartbeat"];
export const PRIORITIES = ["normal", "high", "urgent"];
const OPEN_DISPATCH = ["pending", "dispatched"];

export function callerOf(call: Call, flag = "from"): string | undefined {
  return optString(call.flags, flag) ?? (call.ctx.env.ORCA_TERMINAL_HANDLE || undefined);
}

export function requireCaller(call: Call, flag = "from"): string {
  const h = callerOf(call, flag);
  if (!h) throw noSender();
  return h;
}

export function liveCaller(s: SimState, handle: string): SimTerminal {
  const t = s.terminals.find((x) => x.handle === handle && x.alive);
  if (t) return t;
  throw new SimError("stable_pane_required", `Terminal ${handle} is not a live Orca pane. Run this command inside a live Orca terminal.`, {
    handle,
    effectsApplied: false,
  });
}

function runRequired(): SimError {
  return new SimError("run_required", "No Run is bound. Use orchestration run-create or run-use first. No effects were applied.", {
    effectsApplied: false,
    guide: { topic: "orchestration", full: true },
    nextCommandArgs: ["skills", "get", "orchestration", "--full"],
    nextSteps: ["Create a Run: orca orchestration run-create --objective <text> --json", "Or bind an existing one: orca orchestration run-use --id <run_id> --json"],
  });
}

export function findRun(s: SimState, id: string): SimRun {
  const r = s.runs.find((x) => x.id === id);
  if (!r) throw new SimError("run_not_found", `Run ${id} was not found or is inspect-only.`, { runId: id });
  return r;
}

export function boundRun(s: SimState, handle: string | undefined): SimRun | undefined {
  const id = handle ? s.boundRuns[handle] : undefined;
  return id ? s.runs.find((r) => r.id === id) : undefined;
}

/** `--run <id>` wins; else the Run bound to the caller; else `run_required`. */
export function resolveRun(call: Call, s: SimState, handle: string | undefined): SimRun {
  const explicit = optString(call.flags, "run");
  if (explicit) return findRun(s, explicit);
  const r = boundRun(s, handle);
  if (!r) throw runRequired();
  return r;
}

/** The run to filter reads by, when there is one (reads never demand a Run). */
export function readRun(call: Call, s: SimState): SimRun | undefined {
  const explicit = optString(call.flags, "run");
  return explicit ? findRun(s, explicit) : boundRun(s, callerOf(call));
}

export function publicRun(r: SimRun): Record<string, unknown> {
  const { coordinator_pane_key: _internal, ...rest } = r;
  return rest;
}

export function latestDispatch(s: SimState, taskId: string): DispatchRow | undefined {
  return s.dispatches.filter((d) => d.task_id === taskId).at(-1);
}

export function isOpen(d: DispatchRow): boolean {
  return OPEN_DISPATCH.includes(d.status);
}

export function activeDispatchFor(s: SimState, handle: string): DispatchRow | undefined {
  return s.dispatches.find((d) => d.assignee_handle === handle && isOpen(d));
}

export function parseDeps(deps: string): string[] {
  try {
    const v = JSON.parse(deps);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** pending -> ready once every dependency has completed. */
export function promoteReady(s: SimState, runId: string): void {
  const done = new Set(s.tasks.filter((t) => t.status === "completed").map((t) => t.id));
  for (const t of s.tasks) {
    if (t.run_id === runId && t.status === "pending" && parseDeps(t.deps).every((d) => done.has(d))) t.status = "ready";
  }
}

export function pushMessage(s: SimState, m: Omit<MessageRow, "id" | "sequence" | "read" | "delivered_at" | "created_at">, now: number): MessageRow {
  const sequence = Math.max(0, ...s.messages.map((x) => x.sequence)) + 1;
  // Through the normaliser so the printed row has the same key order as a reloaded one.
  const row = normalizeMessage({ id: orchId("msg"), ...m, read: 0, sequence, created_at: iso(now), delivered_at: null }, 0, iso(now));
  s.messages.push(row);
  return row;
}
