/**
 * `orchestration dispatch` and `dispatch-show` (docs/orca-cli.md §6). dispatch-show takes ONLY `--task`; under the
 * `legacy` fault it prints the flat pre-envelope shape mogui's reference once parsed (and accepts `--dispatch`).
 */
import { optBool, optString, reqString } from "./argv.ts";
import { type Call, type CommandTable, now } from "./call.ts";
import { SimError, terminalNotFound } from "./errors.ts";
import { iso, orchId, randomHash } from "./ids.ts";
import { incarnationOf, paneKey } from "./normalize-orch.ts";
import { activeDispatchFor, boundRun, callerOf, latestDispatch, liveCaller, parseDeps, pushMessage, requireCaller, resolveRun } from "./orch-common.ts";
import type { Outcome } from "./output.ts";
import type { DispatchRow, SimState, SimTerminal, TaskRow } from "./types.ts";

function preamble(coordinator: string, worker: string, task: TaskRow, dispatchId: string): string {
  const ids = `--task-id ${task.id} --dispatch-id ${dispatchId}`;
  return [
    `You are an Orca worker. Your coordinator is ${coordinator}. You own task ${task.id} (dispatch ${dispatchId}).`,
    "Report exactly once when you finish (use --outcome failed if you could not do it):",
    `  orca orchestration send --from ${worker} --type worker_done --subject "<one line>" --body "<three sentence summary>" ${ids} --outcome succeeded`,
    `Heartbeat every 5 minutes: orca orchestration send --from ${worker} --type heartbeat --subject heartbeat ${ids}`,
    `Questions go to the coordinator: orca orchestration ask --from ${worker} --question "<text>"`,
    `Escalate a blocker: orca orchestration send --from ${worker} --type escalation --subject "<why>" ${ids}`,
    `Read your inbox: orca orchestration check --terminal ${worker}`,
    "=== TASK ===",
    task.spec,
  ].join("\n");
}

function startable(s: SimState, task: TaskRow, runId: string): void {
  if (task.status === "ready") return;
  const unmet = parseDeps(task.deps).filter((d) => s.tasks.find((t) => t.id === d)?.status !== "completed");
  throw new SimError("task_not_startable", `Task ${task.id} is ${task.status}; only ready tasks can be dispatched`, {
    taskId: task.id,
    runId,
    status: task.status,
    unmetDependencies: unmet,
    nextSteps: ["Only ready tasks can be dispatched; check 'orca orchestration task-list --json'."],
  });
}

function target(s: SimState, to: string, coordinator: string, inject: boolean): SimTerminal {
  const t = s.terminals.find((x) => x.handle === to);
  if (!t) throw terminalNotFound(to);
  if (to === coordinator) throw new SimError("terminal_is_coordinator", `Terminal ${to} is this Run's coordinator; dispatch to a worker terminal.`, { terminal: to });
  const busy = activeDispatchFor(s, to);
  if (busy) throw new SimError("runtime_error", `Terminal ${to} already has an active dispatch (${busy.id} for task ${busy.task_id})`);
  if (inject && !t.agent) {
    throw new SimError("inject_rejected", `Cannot dispatch --inject to terminal ${to}: no recognized agent detected. Start an agent in it first.`, {
      terminal: to,
      reason: "no_agent_detected",
      nextSteps: ["Start a coding agent in the terminal, or dispatch without --inject."],
    });
  }
  return t;
}

function newDispatch(s: SimState, task: TaskRow, t: SimTerminal, at: string): DispatchRow {
  const failures = Math.max(0, ...s.dispatches.filter((d) => d.task_id === task.id).map((d) => d.failure_count));
  return {
    id: orchId("ctx"),
    run_id: task.run_id,
    task_id: task.id,
    contract_version: 1,
    launch_token_hash: randomHash(),
    assignee_handle: t.handle,
    assignee_pane_key: paneKey(t),
    capability_hash: randomHash(),
    process_incarnation: incarnationOf(t),
    capability_revoked_at: null,
    status: "dispatched",
    failure_count: failures,
    last_failure: null,
    dispatched_at: at,
    completed_at: null,
    created_at: at,
    last_heartbeat_at: null,
  };
}

function dispatch(call: Call): Outcome {
  const taskId = reqString(call.flags, "task");
  const to = reqString(call.flags, "to");
  const inject = optBool(call.flags, "inject");
  const dryRun = optBool(call.flags, "dry-run");
  const handle = requireCaller(call);
  const out = call.store.tx((s) => {
    liveCaller(s, handle);
    const run = resolveRun(call, s, handle);
    const task = s.tasks.find((t) => t.id === taskId && t.run_id === run.id);
    if (!task) throw new SimError("task_not_found", `Task not found: ${taskId}`, { taskId, runId: run.id, nextSteps: ["Run 'orca orchestration task-list --json'."] });
    startable(s, task, run.id);
    const t = target(s, to, run.coordinator_handle, inject);
    if (dryRun) return { dispatch: null, injected: false, dryRun: true, preamble: preamble(run.coordinator_handle, to, task, "ctx_dryrun") };
    const row = newDispatch(s, task, t, iso(now(call)));
    s.dispatches.push(row);
    task.status = "dispatched";
    const text = preamble(run.coordinator_handle, to, task, row.id);
    if (inject) t.output.push(...text.split("\n"), ...(t.onInject ?? []));
    else
      pushMessage(
        s,
        {
          run_id: run.id,
          delivery_contract: "current_delivery",
          from_handle: handle,
          to_handle: to,
          subject: `Task ${task.id}`,
          body: text,
          type: "dispatch",
          priority: "normal",
          thread_id: null,
          payload: JSON.stringify({ taskId: task.id, dispatchId: row.id }),
          sender_pane_key: null,
        },
        now(call),
      );
    return { dispatch: row, injected: inject, ...(optBool(call.flags, "return-preamble") ? { preamble: text } : {}) };
  });
  const d = out.dispatch;
  return { result: out, text: d ? `Dispatched ${d.task_id} -> ${d.id} [${d.status}]` : String(out.preamble) };
}

/** The flat shape of the pre-envelope era: `dispatch_id`, `terminal_id`, `worktree_path`, UPPERCASE status. */
function legacyShape(s: SimState, d: DispatchRow): Record<string, unknown> {
  const t = s.terminals.find((x) => x.handle === d.assignee_handle);
  const fromIncarnation = d.process_incarnation.split("::")[1]?.split("@@")[0] ?? null;
  return { dispatch_id: d.id, task_id: d.task_id, terminal_id: d.assignee_handle, status: d.status.toUpperCase(), worktree_path: t?.worktreePath || fromIncarnation };
}

function dispatchShow(call: Call): Outcome {
  const s = call.store.read();
  const legacy = call.fault?.mode === "legacy";
  const byDispatch = legacy ? optString(call.flags, "dispatch") : undefined;
  const taskId = byDispatch ? undefined : reqString(call.flags, "task");
  const run = boundRun(s, callerOf(call));
  const task = s.tasks.find((t) => t.id === taskId && (!run || t.run_id === run.id));
  const d = byDispatch ? s.dispatches.find((x) => x.id === byDispatch) : task ? latestDispatch(s, task.id) : undefined;
  if (legacy) {
    if (!d) throw new SimError("task_not_found", `Dispatch not found for ${byDispatch ?? taskId}`);
    return { result: legacyShape(s, d), text: JSON.stringify(legacyShape(s, d)) };
  }
  const result: Record<string, unknown> = { dispatch: d ?? null };
  if (call.flags.has("preamble")) {
    if (!task) throw new SimError("task_not_found", `Task not found: ${taskId}`, { taskId });
    const coord = s.runs.find((r) => r.id === task.run_id)?.coordinator_handle ?? "";
    result.preamble = preamble(coord, d?.assignee_handle ?? "", task, d?.id ?? "ctx_preview");
  }
  return { result, text: d ? `${d.id} task=${d.task_id} [${d.status}]` : "No dispatch context found." };
}

export const DISPATCH_COMMANDS: CommandTable = {
  "orchestration dispatch": {
    flags: ["task", "to", "from", "run", "inject", "dry-run", "return-preamble", "retry-request"],
    usage: "orca orchestration dispatch --task <task_id> --to <handle> [--from <handle>] [--run <run_id>] [--inject] [--dry-run] [--return-preamble] [--json]",
    run: dispatch,
  },
  "orchestration dispatch-show": {
    flags: ["task", "preamble", "from"],
    usage: "orca orchestration dispatch-show --task <task_id> [--preamble] [--from <handle>] [--json]",
    run: dispatchShow,
  },
};
