/**
 * The jobs ledger: one JSONL file under MOGUI_HOME that is the canonical record of every worker job (never the
 * spawner's memory). Rows are events; a job's state is the fold of its rows. Resolution per D2:
 * --ledger > MOGUI_JOBS_LEDGER > $MOGUI_HOME/jobs-ledger.jsonl. Inboxes: --inbox-root > MOGUI_INBOX_ROOT >
 * $MOGUI_HOME/inbox, one directory per job at <root>/jobs/<job_id>/.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { resolveStatePath, type Ctx } from "../../lib/context.ts";
import { logger } from "../../lib/log.ts";
import { appendRow, checkLedger, LedgerError, readRows, type LedgerRow } from "../../lib/ledger.ts";
import { workerNow } from "../../lib/clock.ts";
import type { Tier } from "./tiers.ts";

export const LEDGER_ENV = "MOGUI_JOBS_LEDGER";
const LEDGER_FILE = "jobs-ledger.jsonl";
const INBOX_ENV = "MOGUI_INBOX_ROOT";

export type JobState = "running" | "merged" | "closed" | "escalated";
export const TERMINAL_STATES: readonly JobState[] = ["merged", "closed", "escalated"];

export function ledgerPath(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): string {
  return resolveStatePath(ctx, flag, LEDGER_ENV, LEDGER_FILE);
}

export function inboxRoot(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): string {
  return resolveStatePath(ctx, flag, INBOX_ENV, "inbox");
}

export function inboxDir(root: string, jobId: string): string {
  return join(root, "jobs", jobId);
}

export interface SpawnRow extends LedgerRow {
  event: "job_spawned";
  job_id: string;
  owner: string;
  agent_name: string;
  model: string;
  effort: string | null;
  profile: string;
  provider: string | null;
  kind: string;
  tier: Tier;
  spawn_mode: string;
  host: string;
  workspace: string | null;
  pane_id: string;
  repo: string;
  worktree: string;
  branch: string;
  inbox: string;
  marker: string;
}

export interface Job {
  id: string;
  spawn: SpawnRow;
  landing: LedgerRow | null;
  pushes: LedgerRow[];
  verdicts: LedgerRow[];
  state: JobState;
  decision: LedgerRow | null;
  collected: LedgerRow | null;
  observations: LedgerRow[];
}

/**
 * The jobs ledger failed a `worker` command (unreadable, unwritable, corrupt or locked) or lacks the job asked for.
 * `kind` is the row of every command that reads the ledger; the message is the command's whole line
 * (`worker <cmd>: ...`), `detail` the part after it. Not SHARED_ERRORS: the line names the whole command path. The
 * commands map it in one line (commands/workers/worker/_shared.ts, jobsExit).
 */
export class JobsLedgerError extends Error {
  readonly kind = "ledgerUnavailable";
  constructor(
    cmd: string,
    readonly detail: string,
  ) {
    super(`worker ${cmd}: ${detail}`);
    this.name = "JobsLedgerError";
  }
}

export function ledgerFail(cmd: string, e: LedgerError): JobsLedgerError {
  return new JobsLedgerError(cmd, `LEDGER_UNAVAILABLE: ${e.message}`);
}

export function warnLedger(ctx: Ctx, cmd: string) {
  const log = logger(ctx, `worker ${cmd}`);
  return (w: { path: string; line: number; message: string }) => log.warn(`${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}`);
}

/** Every job in the ledger, folded from its rows, in spawn order. */
export async function loadJobs(ctx: Ctx, path: string, cmd: string): Promise<Map<string, Job>> {
  const jobs = new Map<string, Job>();
  try {
    for await (const { row } of readRows(path, { onWarning: warnLedger(ctx, cmd) })) {
      const id = typeof row.job_id === "string" ? row.job_id : null;
      if (!id) continue;
      if (row.event === "job_spawned") {
        jobs.set(id, { id, spawn: row as SpawnRow, landing: null, pushes: [], verdicts: [], state: "running", decision: null, collected: null, observations: [] });
        continue;
      }
      const j = jobs.get(id);
      if (!j) continue;
      if (row.event === "job_landing") j.landing = row;
      else if (row.event === "push_verified") j.pushes.push(row);
      else if (row.event === "verdict") {
        j.verdicts.push(row);
        if (row.outcome === "escalated") j.state = "escalated";
      } else if (row.event === "job_decision" && typeof row.state === "string") {
        j.decision = row;
        j.state = row.state as JobState;
      } else if (row.event === "job_collected") j.collected = row;
      else if (row.event === "host_observed") j.observations.push(row);
    }
  } catch (e) {
    if (e instanceof LedgerError) throw ledgerFail(cmd, e);
    throw e;
  }
  return jobs;
}

export async function getJob(ctx: Ctx, path: string, id: string, cmd: string): Promise<Job> {
  const j = (await loadJobs(ctx, path, cmd)).get(id);
  if (!j) throw new JobsLedgerError(cmd, `no job ${id} in ${path}`);
  return j;
}

/**
 * The appender contract for a command that appends without folding the ledger first (loadJobs already reads every
 * line): writable, no corrupt line but a torn last one (a warning), checked before the command acts.
 */
export async function checkJobsLedger(ctx: Ctx, path: string, cmd: string): Promise<void> {
  try {
    await checkLedger(path, { onWarning: warnLedger(ctx, cmd) });
  } catch (e) {
    if (e instanceof LedgerError) throw ledgerFail(cmd, e);
    throw e;
  }
}

export function record(ctx: Ctx, path: string, cmd: string, row: LedgerRow): void {
  try {
    // A torn tail left by a dead writer is set aside to <ledger>.torn, and the command says so.
    appendRow(path, { ts: Math.floor(workerNow(ctx) / 1000), ...row }, { onWarning: warnLedger(ctx, cmd) });
  } catch (e) {
    if (e instanceof LedgerError) throw ledgerFail(cmd, e);
    throw e;
  }
}

/** Rework rounds opened so far: verdicts whose BLOCKERs sent the job back. */
export function roundsOpened(j: Job): number {
  return j.verdicts.filter((v) => v.outcome === "rework").length;
}

export function reportPath(j: Job, reportFile: string): string {
  return join(j.spawn.inbox, reportFile);
}

export function hasReport(j: Job, reportFile: string): boolean {
  return existsSync(reportPath(j, reportFile));
}
