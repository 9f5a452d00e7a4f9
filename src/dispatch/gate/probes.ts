/**
 * register's three probes (reference §3.8): the orchestration probe against Orca's real envelope (D4, D5), the
 * model probe and the job probe. The last two are user-given SHELL COMMANDS by contract (`--probe-cmd`,
 * `--model-probe-cmd`): each string is handed to /bin/sh as ONE argv element, never interpolated, with a timeout.
 */
import type { Ctx } from "../../lib/context.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";
import { JOB_PROBE_TIMEOUT_MS, MODEL_PROBE_TIMEOUT_MS, ORCHESTRATION_PROBE_TIMEOUT_MS, type ProbeFailure } from "./reasons.ts";

/** The shell the contract names for --probe-cmd / --model-probe-cmd. */
const SHELL = "/bin/sh";

export interface OrchestrationProbe {
  failure?: ProbeFailure;
  /** The dispatch's status as Orca reports it (lowercased), when the probe passed. */
  status?: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Classify a dispatch-show reply: the real envelope, or the legacy flat shape (D4). */
function classifyDispatchShow(stdout: string): OrchestrationProbe {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    return { failure: "probe_unparseable" };
  }
  if (!isObject(json)) return { failure: "probe_unparseable" };
  if (!("ok" in json)) {
    const id = json.dispatch_id;
    if (typeof id === "string" && id !== "") return { status: typeof json.status === "string" ? json.status.toLowerCase() : undefined };
    return { failure: "task_not_found" };
  }
  if (json.ok !== true) return { failure: "task_not_found" };
  if (!isObject(json.result)) return { failure: "probe_unparseable" };
  const d = json.result.dispatch;
  if (!isObject(d)) return { failure: "task_not_found" };
  return { status: typeof d.status === "string" ? d.status.toLowerCase() : undefined };
}

export async function probeOrchestration(ctx: Ctx, taskId: string | undefined): Promise<OrchestrationProbe> {
  if (taskId === undefined || taskId.trim() === "") return { failure: "task_omitted" };
  const exe = resolveOrcaExecutable(ctx.env);
  const r = await ctx.runner([exe, "orchestration", "dispatch-show", "--task", taskId, "--json"], {
    cwd: ctx.cwd,
    env: ctx.env,
    timeoutMs: ORCHESTRATION_PROBE_TIMEOUT_MS,
  });
  if (r.missing) return { failure: "orca_missing" };
  if (r.timedOut) return { failure: "probe_timeout" };
  if (r.code !== 0) return { failure: "task_not_found" };
  return classifyDispatchShow(r.stdout);
}

async function runShell(ctx: Ctx, command: string, timeoutMs: number) {
  return ctx.runner([SHELL, "-c", command], { cwd: ctx.cwd, env: ctx.env, timeoutMs });
}

/** (measured model, probe failed): the last non-blank stdout line of a successful probe. */
export async function measureModel(ctx: Ctx, command: string | undefined): Promise<{ measured: string | null; failed: boolean }> {
  if (command === undefined) return { measured: null, failed: false };
  const r = await runShell(ctx, command, MODEL_PROBE_TIMEOUT_MS);
  if (r.missing || r.timedOut || r.code !== 0) return { measured: null, failed: true };
  const lines = r.stdout
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length === 0) return { measured: null, failed: true };
  return { measured: lines[lines.length - 1]!, failed: false };
}

/** The job is verified iff the probe exits 0 and prints the job id somewhere on stdout. */
export async function probeJob(ctx: Ctx, command: string, jobId: string): Promise<boolean> {
  if (jobId === "") return false;
  const r = await runShell(ctx, command, JOB_PROBE_TIMEOUT_MS);
  return r.code === 0 && !r.timedOut && !r.missing && r.stdout.includes(jobId);
}
