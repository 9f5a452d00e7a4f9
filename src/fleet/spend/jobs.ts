/**
 * Which transcripts a job has and the checked append to the spend ledger: what `spend record`, `spend watch` and the
 * follow loop share (moved unchanged from the spend commands' CLI helpers).
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { errorMessage, UsageError } from "../../lib/errors.ts";
import { boundedWarnings, checkLedger, type LedgerWarning } from "../../lib/ledger.ts";
import { loadTierPolicy, type TierPolicy } from "../../lib/config/tier-policy.ts";
import { ledgerPath as jobsLedgerPath } from "../../workers/worker/jobs.ts";
import { gateJobWorktree, TranscriptLocator } from "./locate.ts";
import { gateLedgerPath } from "../../dispatch/gate/paths.ts";
import { jobWorktrees, recordSpend, type JobTranscripts, type RecordSummary } from "./record.ts";

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
    // A directory (or any non-file) is a usage error, never an internal EISDIR (issue 24 §3).
    for (const p of paths) if (!statSync(p).isFile()) throw new UsageError(`--transcript ${p} is not a file (a transcript is one .jsonl file)`, `spend ${cmd}`);
    return { jobs: [{ job_id: jobs[0]!, transcripts: paths }], missing: [] };
  }
  const ledger = jobsLedgerPath(ctx, jobsLedgerFlag);
  const worktrees = await jobWorktrees(ledger);
  const ids = jobs.length ? jobs : [...worktrees.keys()];
  const locator = new TranscriptLocator(ctx);
  const out: Resolved = { jobs: [], missing: [] };
  for (const id of ids) {
    // D41: a job only the gate registered is found through the worktree Orca recorded for it.
    const wt = worktrees.get(id) ?? (await gateJobWorktree(ctx, gateLedgerPath(ctx), id)) ?? undefined;
    if (wt === undefined) fail("unknownJob", `spend ${cmd}: no job ${id} in ${ledger} nor registered at the gate with a worktree Orca knows (name its transcript with --transcript)`);
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
