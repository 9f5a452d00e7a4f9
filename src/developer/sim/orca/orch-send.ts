/**
 * `orchestration send` (docs/orca-cli.md §6 "Messaging"). `--outcome` is required with `--type worker_done` and
 * refused anywhere else; a valid worker_done settles the dispatch and task (see orch-lifecycle.ts).
 */
import { optString, reqString } from "./argv.ts";
import { type Call, type CommandTable, now } from "./call.ts";
import { invalidArgument, SimError, terminalNotFound } from "./errors.ts";
import { paneKey } from "./normalize-orch.ts";
import { activeDispatchFor, boundRun, findRun, liveCaller, MESSAGE_TYPES, PRIORITIES, pushMessage, requireCaller } from "./orch-common.ts";
import { recordHeartbeat, settleWorkerDone, type Report } from "./orch-lifecycle.ts";
import type { Outcome } from "./output.ts";
import type { MessageRow, SimState } from "./types.ts";

interface Route {
  runId: string | null;
  to: string[];
  group: boolean;
}

function checkFlags(call: Call): { type: string; outcome?: "succeeded" | "failed"; priority: string; payload: string | null } {
  const type = optString(call.flags, "type") ?? "status";
  if (!MESSAGE_TYPES.includes(type)) throw invalidArgument(`invalid type '${type}', expected one of: ${MESSAGE_TYPES.join(", ")}`);
  const priority = optString(call.flags, "priority") ?? "normal";
  if (!PRIORITIES.includes(priority)) throw invalidArgument(`invalid priority '${priority}', expected one of: ${PRIORITIES.join(", ")}`);
  const outcome = optString(call.flags, "outcome");
  if (outcome !== undefined && type !== "worker_done") throw invalidArgument("--outcome is only valid with --type worker_done");
  if (type === "worker_done" && outcome === undefined) throw invalidArgument("worker_done requires --outcome succeeded or --outcome failed");
  if (outcome !== undefined && outcome !== "succeeded" && outcome !== "failed") throw invalidArgument(`invalid outcome '${outcome}', expected one of: succeeded, failed`);
  const payload = optString(call.flags, "payload") ?? null;
  if (payload !== null) {
    try {
      JSON.parse(payload);
    } catch {
      throw invalidArgument("--payload must be valid JSON");
    }
  }
  const to = optString(call.flags, "to");
  if (to?.startsWith("@") && (type === "worker_done" || type === "heartbeat")) {
    throw invalidArgument(`${type} is an exact-Dispatch signal and cannot target a group; omit --to to use the Dispatch's Run mailbox.`);
  }
  return { type, outcome: outcome as "succeeded" | "failed" | undefined, priority, payload };
}

function groupMembers(s: SimState, group: string, sender: string): string[] {
  const live = s.terminals.filter((t) => t.alive && t.handle !== sender);
  if (group === "@all") return live.map((t) => t.handle);
  if (group === "@idle") return live.filter((t) => !activeDispatchFor(s, t.handle)).map((t) => t.handle);
  if (group.startsWith("@worktree:")) return live.filter((t) => t.worktreeId === group.slice(10)).map((t) => t.handle);
  return live.filter((t) => t.agent === group.slice(1)).map((t) => t.handle);
}

function route(call: Call, s: SimState, sender: string, dispatchId: string | undefined): Route {
  const to = optString(call.flags, "to");
  const explicitRun = optString(call.flags, "run");
  const own = dispatchId ? s.dispatches.find((d) => d.id === dispatchId) : activeDispatchFor(s, sender);
  const runId = explicitRun ?? own?.run_id ?? boundRun(s, sender)?.id ?? null;
  if (to === undefined) {
    if (!own) throw invalidArgument("Missing --to: only a sender with an active Dispatch may omit it (its Run mailbox).");
    return { runId: own.run_id, to: [findRun(s, own.run_id).coordinator_handle], group: false };
  }
  if (to.startsWith("run:")) return { runId: to.slice(4), to: [findRun(s, to.slice(4)).coordinator_handle], group: false };
  if (to.startsWith("dispatch:")) {
    const d = s.dispatches.find((x) => x.id === to.slice(9));
    if (!d) throw new SimError("unknown_dispatch", `Unknown dispatch ${to.slice(9)}.`);
    return { runId: d.run_id, to: [d.assignee_handle], group: false };
  }
  if (to.startsWith("@")) return { runId, to: groupMembers(s, to, sender), group: true };
  if (!s.terminals.some((t) => t.handle === to)) throw terminalNotFound(to);
  return { runId, to: [to], group: false };
}

function send(call: Call): Outcome {
  const subject = reqString(call.flags, "subject");
  const f = checkFlags(call);
  const handle = requireCaller(call);
  const body = optString(call.flags, "body") ?? "";
  const taskId = optString(call.flags, "task-id");
  const dispatchId = optString(call.flags, "dispatch-id");
  const out = call.store.tx((s) => {
    const sender = liveCaller(s, handle);
    const report: Report = { sender: handle, senderPaneKey: paneKey(sender), taskId, dispatchId, outcome: f.outcome, summary: body || subject };
    const lifecycle = f.type === "worker_done" ? settleWorkerDone(s, report, now(call)) : undefined;
    if (f.type === "heartbeat") recordHeartbeat(s, report, now(call));
    const r = route(call, s, handle, dispatchId ?? (lifecycle?.dispatchId as string | undefined));
    const lifecyclePayload = taskId || dispatchId || f.outcome ? { taskId: lifecycle?.taskId ?? taskId, dispatchId: lifecycle?.dispatchId ?? dispatchId, outcome: f.outcome } : null;
    const payload = f.payload ?? (lifecyclePayload ? JSON.stringify(lifecyclePayload) : null);
    const messages: MessageRow[] = r.to.map((to) =>
      pushMessage(
        s,
        { run_id: r.runId, delivery_contract: "current_delivery", from_handle: handle, to_handle: to, subject, body, type: f.type, priority: f.priority, thread_id: optString(call.flags, "thread-id") ?? null, payload, sender_pane_key: paneKey(sender) },
        now(call),
      ),
    );
    return { r, messages, lifecycle };
  });
  if (out.r.group) return { result: { messages: out.messages, recipients: out.messages.length }, text: `Sent ${out.messages.length} message(s).` };
  const message = out.messages[0]!;
  return { result: { message, ...(out.lifecycle ? { lifecycle: out.lifecycle } : {}) }, text: `Sent ${message.id}` };
}

export const SEND_COMMANDS: CommandTable = {
  "orchestration send": {
    flags: ["to", "run", "from", "subject", "body", "type", "priority", "thread-id", "payload", "task-id", "dispatch-id", "dispatch-capability", "retry-request", "outcome", "files-modified", "report-path", "phase"],
    usage: "orca orchestration send --subject <text> [--to <run:id|dispatch:id|handle|@group>] [--from <handle>] [--body <text>] [--type <type>] [--task-id <id>] [--dispatch-id <id>] [--outcome succeeded|failed] [--json]",
    run: send,
  },
};
