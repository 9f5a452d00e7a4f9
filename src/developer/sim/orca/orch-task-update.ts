/**
 * `orchestration task-update --id <task> --status <enum> [--result <json>] [--deps <json>]` (docs/orca-cli.md §6):
 * `{task:{id,status,...}}`; a bad status is `invalid_argument` "invalid status 'x', expected one of: ...". A task moved
 * to completed or failed takes its latest open dispatch along (what a worker_done does), so a test or a walkthrough
 * can settle a dispatch in Orca alone. Like every mutation it needs a live caller terminal.
 */
import { optString, reqString } from "./argv.ts";
import { type Call, type CommandTable, now } from "./call.ts";
import { invalidArgument, SimError } from "./errors.ts";
import { iso } from "./ids.ts";
import { latestDispatch, liveCaller, requireCaller, TASK_STATUSES } from "./orch-common.ts";
import type { Outcome } from "./output.ts";

function taskUpdate(call: Call): Outcome {
  const id = reqString(call.flags, "id");
  const status = reqString(call.flags, "status");
  if (!TASK_STATUSES.includes(status)) throw invalidArgument(`invalid status '${status}', expected one of: ${TASK_STATUSES.join(", ")}`);
  const result = optString(call.flags, "result");
  const deps = optString(call.flags, "deps");
  const handle = requireCaller(call);
  const task = call.store.tx((s) => {
    liveCaller(s, handle);
    const t = s.tasks.find((x) => x.id === id);
    if (!t) throw new SimError("task_not_found", `Task not found: ${id}`, { taskId: id });
    t.status = status;
    if (result !== undefined) t.result = result;
    if (deps !== undefined) t.deps = deps;
    const at = iso(now(call));
    if (status === "completed" || status === "failed") {
      t.completed_at = at;
      const d = latestDispatch(s, t.id);
      if (d && (d.status === "pending" || d.status === "dispatched")) Object.assign(d, { status, completed_at: at });
    }
    return t;
  });
  return { result: { task }, text: `Updated ${task.id} [${task.status}]` };
}

export const TASK_UPDATE_COMMANDS: CommandTable = {
  "orchestration task-update": {
    flags: ["id", "status", "result", "deps", "run", "from", "retry-request"],
    usage: "orca orchestration task-update --id <task_id> --status <status> [--result <json>] [--deps <json_array>] [--from <handle>] [--json]",
    run: taskUpdate,
  },
};
