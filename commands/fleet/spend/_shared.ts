/** Arg fragments and helpers the `mogui spend ...` commands share: which transcripts a job has, --since parsing. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Ctx } from "../../../src/lib/context.ts";
import { errorMessage, UsageError } from "../../../src/lib/errors.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { boundedWarnings, checkLedger, type LedgerWarning } from "../../../src/lib/ledger.ts";
import { loadTierPolicy, type TierPolicy } from "../../../src/dispatch/gate/tier-policy.ts";
import { ledgerPath as jobsLedgerPath, LEDGER_ENV as JOBS_ENV } from "../../../src/workers/worker/jobs.ts";
import { SPEND_LEDGER_ENV } from "../../../src/dispatch/gate/spend-paths.ts";
import { TranscriptLocator } from "../../../src/fleet/spend/locate.ts";
import { jobWorktrees, recordSpend, type JobTranscripts, type RecordSummary } from "../../../src/fleet/spend/record.ts";

export const SPEND_LEDGER_ARG = {
  "spend-ledger": { type: "string", valueHint: "path", description: `Spend ledger (default $${SPEND_LEDGER_ENV}, else $MOGUI_HOME/spend-ledger.jsonl)` },
} as const;
export const JOBS_LEDGER_ARG = {
  "jobs-ledger": { type: "string", valueHint: "path", description: `Jobs ledger that maps a job to its worktree (default $${JOBS_ENV}, else $MOGUI_HOME/jobs-ledger.jsonl)` },
} as const;

const SPEND_FAULT = "spend ledger or its state unreadable, unwritable, corrupt (a line before the last, checked before anything is read or appended) or locked (LEDGER_UNAVAILABLE)";

/** Rows of the commands that find a job's transcripts and append to the spend ledger (record, watch). */
export const SPEND_EXITS = {
  ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: SPEND_FAULT },
  unknownJob: { code: 2, meaning: "usage (a bad flag or value); a --job the jobs ledger does not know (name its transcript with --transcript)" },
  transcriptNotFound: { code: 2, meaning: "a named --transcript that does not exist (TRANSCRIPT_NOT_FOUND)" },
} as const;

/** The tier policy for tagging rows; a policy that does not load tags nothing (the gate re-derives by model). */
export function policyOrNull(ctx: Ctx, warn: (m: string) => void): TierPolicy | null {
  try {
    return loadTierPolicy(ctx);
  } catch (e) {
    warn(`tier policy not loaded, rows carry no tier: ${errorMessage(e)}`);
    return null;
  }
}

export interface Resolved {
  jobs: JobTranscripts[];
  /** Jobs with a worktree but no transcript found. */
  missing: string[];
}

type JobFail = (name: "unknownJob" | "transcriptNotFound", message: string) => never;

/**
 * `--transcript` names transcripts of the one `--job`; otherwise each job's worktree (from the jobs ledger) leads
 * to its transcripts. No `--job` = every job the jobs ledger knows.
 */
export async function resolveJobs(ctx: Ctx, cmd: string, jobs: readonly string[], transcripts: readonly string[], jobsLedgerFlag: string | undefined, fail: JobFail): Promise<Resolved> {
  if (transcripts.length) {
    if (jobs.length !== 1) throw new UsageError("--transcript needs exactly one --job", `spend ${cmd}`);
    const paths = transcripts.map((t) => resolve(ctx.cwd, t));
    for (const p of paths) if (!existsSync(p)) fail("transcriptNotFound", `spend ${cmd}: TRANSCRIPT_NOT_FOUND: ${p}`);
    return { jobs: [{ job_id: jobs[0]!, transcripts: paths }], missing: [] };
  }
  const ledger = jobsLedgerPath(ctx, jobsLedgerFlag);
  const worktrees = await jobWorktrees(ledger);
  const ids = jobs.length ? jobs : [...worktrees.keys()];
  const locator = new TranscriptLocator(ctx);
  const out: Resolved = { jobs: [], missing: [] };
  for (const id of ids) {
    const wt = worktrees.get(id);
    if (wt === undefined) fail("unknownJob", `spend ${cmd}: no job ${id} in ${ledger} (name its transcript with --transcript)`);
    const found = locator.forWorktree(wt);
    if (found.length) out.jobs.push({ job_id: id, transcripts: found });
    else out.missing.push(id);
  }
  return out;
}

/**
 * The appender contract for the spend ledger: check the whole ledger (a corrupt line before the last is
 * LEDGER_UNAVAILABLE, nothing read, no offset moved), then record; a torn tail is set aside with a warning.
 */
export async function checkedRecord(ledger: string, jobs: readonly JobTranscripts[], policy: TierPolicy | null, nowSec: number, warn: (m: string) => void): Promise<RecordSummary[]> {
  const sink = boundedWarnings((w: LedgerWarning) => warn(`${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}`));
  try {
    await checkLedger(ledger, { onWarning: sink.warn });
    return recordSpend(ledger, jobs, policy, nowSec, sink.warn);
  } finally {
    sink.flush();
  }
}

/** --since: epoch seconds, an ISO date/time, or a duration back from now (`90m`, `24h`, `7d`). */
export function parseSince(raw: string | undefined, nowSec: number, cmd: string): number | null {
  if (raw === undefined) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const d = /^(\d+)([smhd])$/.exec(raw);
  if (d) return nowSec - Number(d[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[d[2] as "s" | "m" | "h" | "d"];
  const ms = Date.parse(raw);
  if (/^\d{4}-\d{2}-\d{2}/.test(raw) && Number.isFinite(ms)) return ms / 1000;
  throw new UsageError(`--since must be epoch seconds, an ISO date, or a duration like 24h (got '${raw}')`, `spend ${cmd}`);
}
