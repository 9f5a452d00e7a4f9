/** Runs and tasks: `run-create`, `run-current`, `run-show`, `run-list`, `task-create`, `task-list`, retired verbs. */
import { optBool, optString, reqString } from "./argv.ts";
import { type Call, type CommandTable, now } from "./call.ts";
import { invalidArgument, SimError } from "./errors.ts";
import { iso, orchId } from "./ids.ts";
import { incarnationOf, paneKey } from "./normalize-orch.ts";
import { findRun, latestDispatch, liveCaller, publicRun, readRun, requireCaller, resolveRun, TASK_STATUSES } from "./orch-common.ts";
import type { Outcome } from "./output.ts";
import type { SimRun, TaskRow } from "./types.ts";

function runCreate(call: Call): Outcome {
  const objective = reqString(call.flags, "objective");
  const handle = requireCaller(call);
  const run = call.store.tx((s) => {
    const coord = liveCaller(s, handle);
    const at = iso(now(call));
    const r: SimRun = { id: orchId("run"), objective, coordinator_handle: handle, coordinator_pane_key: paneKey(coord), consumer_generation: 1, legacy: 0, created_at: at, updated_at: at };
    s.runs.push(r);
    s.boundRuns[handle] = r.id;
    return r;
  });
  return { result: { run: publicRun(run) }, text: `Run ${run.id} created and bound: ${objective}` };
}

function runCurrent(call: Call): Outcome {
  const handle = requireCaller(call);
  const s = call.store.read();
  const id = s.boundRuns[handle];
  const run = id ? s.runs.find((r) => r.id === id) : undefined;
  return { result: { run: run ? publicRun(run) : null }, text: run ? `${run.id} ${run.objective}` : "No Run is bound to this terminal." };
}

/** Bind an existing Run to the caller's pane (unbinding its previous one). */
function runUse(call: Call): Outcome {
  const id = reqString(call.flags, "id");
  const handle = requireCaller(call);
  const run = call.store.tx((s) => {
    liveCaller(s, handle);
    const r = s.runs.find((x) => x.id === id && !x.legacy);
    if (!r) throw new SimError("run_not_found", `Run ${id} was not found or is inspect-only.`, { runId: id });
    s.boundRuns[handle] = r.id;
    return r;
  });
  return { result: { run: publicRun(run) }, text: `Run ${run.id} bound: ${run.objective}` };
}

function runShow(call: Call): Outcome {
  const run = findRun(call.store.read(), reqString(call.flags, "id"));
  return { result: { run: publicRun(run) }, text: `${run.id} ${run.objective}` };
}

function runList(call: Call): Outcome {
  const runs = call.store.read().runs.map(publicRun);
  return { result: { runs, nextCursor: null }, text: runs.map((r) => `${r.id} ${r.objective}`).join("\n") || "No runs." };
}

function parseDepsFlag(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  try {
    const v = JSON.parse(raw);
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v;
  } catch {
    /* fall through */
  }
  throw invalidArgument(`--deps must be a JSON array of task ids (got '${raw}')`);
}

function taskCreate(call: Call): Outcome {
  const spec = reqString(call.flags, "spec");
  const deps = parseDepsFlag(optString(call.flags, "deps"));
  const parent = optString(call.flags, "parent") ?? null;
  const handle = requireCaller(call);
  const task = call.store.tx((s) => {
    const creator = liveCaller(s, handle);
    const run = resolveRun(call, s, handle);
    for (const id of [...deps, ...(parent ? [parent] : [])]) {
      if (!s.tasks.some((t) => t.id === id && t.run_id === run.id)) throw new SimError("task_not_found", `Task not found: ${id}`, { taskId: id, runId: run.id });
    }
    const done = deps.every((d) => s.tasks.find((t) => t.id === d)?.status === "completed");
    const row: TaskRow = {
      id: orchId("task"),
      run_id: run.id,
      parent_id: parent,
      created_by_terminal_handle: handle,
      created_by_pane_key: paneKey(creator),
      created_by_process_incarnation: incarnationOf(creator),
      created_by_run_generation: run.consumer_generation,
      task_title: optString(call.flags, "task-title") ?? null,
      display_name: optString(call.flags, "display-name") ?? null,
      spec,
      status: done ? "ready" : "pending",
      deps: JSON.stringify(deps),
      result: null,
      created_at: iso(now(call)),
      completed_at: null,
    };
    s.tasks.push(row);
    return row;
  });
  return { result: { task }, text: `Created ${task.id} [${task.status}]` };
}

function brief(spec: string): { spec: string; spec_truncated: boolean } {
  const one = spec.replace(/\s+/g, " ").trim();
  return one.length > 160 ? { spec: one.slice(0, 160), spec_truncated: true } : { spec: one, spec_truncated: false };
}

function taskList(call: Call): Outcome {
  const s = call.store.read();
  const status = optString(call.flags, "status");
  if (status !== undefined && !TASK_STATUSES.includes(status)) {
    throw invalidArgument(`invalid status '${status}', expected one of: ${TASK_STATUSES.join(", ")}`);
  }
  const run = readRun(call, s);
  const want = optBool(call.flags, "ready") ? "ready" : status;
  const rows = s.tasks
    .filter((t) => (!run || t.run_id === run.id) && (!want || t.status === want))
    .map((t) => {
      const d = latestDispatch(s, t.id);
      const row = { ...t, assignee_handle: d?.assignee_handle ?? null, dispatch_id: d?.id ?? null };
      return call.flags.has("brief") ? { ...row, ...brief(t.spec) } : row;
    });
  const text = rows.map((t) => `${t.id} [${t.status}] ${t.task_title ?? t.spec.slice(0, 60)}`).join("\n");
  return { result: { tasks: rows, count: rows.length, ...(run ? { runId: run.id } : {}) }, text: text || "No tasks." };
}

function retired(): Outcome {
  throw new SimError("orchestration_migration_required", "The legacy automatic coordinator command is retired. No effects were applied.", {
    reason: "command_retired",
    requiredContractVersion: 2,
    effectsApplied: false,
    guide: { topic: "orchestration", full: true },
    nextCommandArgs: ["skills", "get", "orchestration", "--full"],
    nextSteps: ["Using this same Orca CLI executable, run: skills get orchestration --full", "Read the returned guide completely and do not retry the previous command unchanged."],
  });
}

const RETIRED_START = { flags: ["spec", "from", "poll-interval-ms", "max-concurrent", "worktree"], usage: "orca orchestration coordinator-start (retired)", run: retired };
const RETIRED_STOP = { flags: [], usage: "orca orchestration coordinator-stop (retired)", run: retired };

export const RUN_COMMANDS: CommandTable = {
  "orchestration run-create": { flags: ["objective", "from", "retry-request"], usage: "orca orchestration run-create --objective <text> [--from <handle>] [--json]", run: runCreate },
  "orchestration run-current": { flags: ["from"], usage: "orca orchestration run-current [--from <handle>] [--json]", run: runCurrent },
  "orchestration run-use": { flags: ["id", "takeover-legacy", "from", "retry-request"], usage: "orca orchestration run-use --id <run_id> [--from <handle>] [--json]", run: runUse },
  "orchestration run-show": { flags: ["id"], usage: "orca orchestration run-show --id <run_id> [--json]", run: runShow },
  "orchestration run-list": { flags: ["limit", "cursor"], usage: "orca orchestration run-list [--json]", run: runList },
  "orchestration task-create": {
    flags: ["spec", "task-title", "display-name", "deps", "parent", "run", "from", "retry-request"],
    usage: "orca orchestration task-create --spec <text> [--task-title <t>] [--deps <json_array>] [--run <run_id>] [--from <handle>] [--json]",
    run: taskCreate,
  },
  "orchestration task-list": {
    flags: ["status", "ready", "brief", "run", "from"],
    usage: "orca orchestration task-list [--status <status>] [--ready] [--brief] [--run <run_id>] [--from <handle>] [--json]",
    run: taskList,
  },
  "orchestration coordinator-start": RETIRED_START,
  "orchestration run": RETIRED_START,
  "orchestration coordinator-stop": RETIRED_STOP,
  "orchestration run-stop": RETIRED_STOP,
};
