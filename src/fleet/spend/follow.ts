/**
 * `spend watch --follow` (D44): the spend brake for hosts without hooks (Codex, Cursor, any agent in a herdr pane
 * or an Orca terminal). Every interval it records the job's new transcript bytes (the same incremental recorder as
 * `spend record`, so nothing is counted twice) and compares the job's measured tokens with its cap:
 * - at 80% it warns the operator once (stderr and a spend-ledger row);
 * - past the cap it interrupts the agent through its host (interrupt.ts), records the interrupt (spend ledger),
 *   marks the job `escalated` in the jobs ledger (a `job_decision` row) and ends with exit 3. It never kills a
 *   process and never reaps;
 * - it ends with exit 0 once the job settles under its cap: the jobs ledger records it collected or decided, the
 *   host says its pane is gone or exited, or (with --idle-s) its transcripts grew no byte for that long.
 * No transcript found within --wait-transcript-s is exit 2.
 */
import { statSync } from "node:fs";
import type { Ctx } from "../../lib/context.ts";
import { errorMessage } from "../../lib/errors.ts";
import { makeHost } from "../../lib/host/index.ts";
import { HOST_KINDS, type HostKind } from "../../lib/host/types.ts";
import { appendRow, readRows } from "../../lib/ledger.ts";
import { ledgerPath as jobsLedgerPath } from "../../workers/worker/jobs.ts";
import { pause, workerNow } from "../../lib/clock.ts";
import { brakeAction, percentOf } from "./brake.ts";
import { checkedRecord, policyOrNull, resolveJobs, type Resolved } from "./jobs.ts";
import { interruptAgent, type InterruptResult } from "./interrupt.ts";
import { jobTokens, loadState } from "./record.ts";

export interface FollowRequest {
  job: string;
  /** null: take the cap the job's spawn row recorded (max_tokens). */
  maxTokens: number | null;
  transcripts: readonly string[];
  jobsLedger: string | undefined;
  spendLedger: string;
  intervalMs: number;
  idleMs: number | null;
  waitTranscriptMs: number;
  host: HostKind | undefined;
  pane: string | undefined;
}

export interface FollowOutcome {
  exit: "ok" | "over" | "transcriptNotFound" | "noCap";
  doc: Record<string, unknown>;
  message?: string;
}

/** What the jobs ledger says about the job: where it runs, its recorded cap, whether it settled. */
interface JobFacts {
  host: HostKind | null;
  pane: string | null;
  maxTokens: number | null;
  settled: string | null;
}

async function jobFacts(path: string, job: string): Promise<JobFacts> {
  const f: JobFacts = { host: null, pane: null, maxTokens: null, settled: null };
  try {
    for await (const { row } of readRows(path)) {
      if (row.job_id !== job) continue;
      if (row.event === "job_spawned") {
        f.host = typeof row.host === "string" && (HOST_KINDS as readonly string[]).includes(row.host) ? (row.host as HostKind) : null;
        f.pane = typeof row.pane_id === "string" ? row.pane_id : null;
        f.maxTokens = typeof row.max_tokens === "number" ? row.max_tokens : null;
      } else if (row.event === "job_collected") f.settled = "collected";
      else if (row.event === "job_decision" && typeof row.state === "string" && row.state !== "running") f.settled = `decided ${row.state}`;
    }
  } catch {
    // no jobs ledger (a job named by --transcript only): nothing known
  }
  return f;
}

function bytesOf(r: Resolved): number {
  let n = 0;
  for (const j of r.jobs)
    for (const t of j.transcripts) {
      try {
        n += statSync(t).size;
      } catch {
        // gone between finding and measuring
      }
    }
  return n;
}

export async function followJob(ctx: Ctx, req: FollowRequest, warn: (m: string) => void, say: (m: string) => void, fail: (name: "unknownJob" | "transcriptNotFound", message: string) => never): Promise<FollowOutcome> {
  const jobsPath = jobsLedgerPath(ctx, req.jobsLedger);
  const start = workerNow(ctx);
  let warned = false;
  let lastBytes = -1;
  let lastGrowth = start;
  let polls = 0;
  const policy = policyOrNull(ctx, warn);
  const row = (fields: Record<string, unknown>) => {
    try {
      appendRow(req.spendLedger, { event: "spend_brake", job_id: req.job, source: "watch", ts: Math.floor(workerNow(ctx) / 1000), ...fields });
    } catch (e) {
      warn(`the ${String(fields.action)} row was not recorded: ${errorMessage(e)}`);
    }
  };
  for (;;) {
    polls++;
    const facts = await jobFacts(jobsPath, req.job);
    const max = req.maxTokens ?? facts.maxTokens;
    if (max === null) return { exit: "noCap", doc: {}, message: `no --max-tokens, and job ${req.job} has no recorded cap (max_tokens on its spawn row)` };
    const r = await resolveJobs(ctx, "watch", [req.job], req.transcripts, req.jobsLedger, fail);
    if (r.jobs.length === 0) {
      if (workerNow(ctx) - start >= req.waitTranscriptMs) {
        return { exit: "transcriptNotFound", doc: {}, message: `TRANSCRIPT_NOT_FOUND: no transcript found for job ${req.job} within ${req.waitTranscriptMs / 1000} s` };
      }
    } else {
      await checkedRecord(req.spendLedger, r.jobs, policy, Math.floor(workerNow(ctx) / 1000), warn);
      const { tokens } = jobTokens(loadState(req.spendLedger), req.job);
      const percent = percentOf(tokens, max);
      const base = { job_id: req.job, tokens, max_tokens: max, percent, polls };
      const action = brakeAction(tokens, max, warned);
      if (action === "warn") {
        warned = true;
        warn(`job ${req.job} has used ${tokens} of its ${max} tokens (${percent}%): it is interrupted once it passes the cap`);
        row({ action: "warn", tokens, max_tokens: max, percent });
      }
      if (action === "deny") {
        const host = req.host ?? facts.host;
        const pane = req.pane ?? facts.pane;
        let sent: InterruptResult | null = null;
        if (host && pane) sent = await interruptAgent(ctx, host, pane);
        else warn(`job ${req.job} is over its cap but no host pane is known to interrupt (pass --host and --pane)`);
        if (sent && !sent.ok) warn(`the interrupt did not reach ${host} ${pane}: ${sent.error}`);
        row({ action: "interrupt", tokens, max_tokens: max, percent, host: host ?? null, pane: pane ?? null, delivered: sent?.ok ?? false, via: sent?.via ?? null });
        let escalated = false;
        if (facts.host !== null) {
          try {
            appendRow(jobsPath, { event: "job_decision", job_id: req.job, state: "escalated", reason: `spend cap: ${tokens} tokens over ${max}`, by: "spend watch --follow", ts: Math.floor(workerNow(ctx) / 1000) });
            escalated = true;
          } catch (e) {
            warn(`job ${req.job} not marked escalated: ${errorMessage(e)}`);
          }
        }
        say(`job=${req.job} tokens=${tokens} max_tokens=${max} OVER: interrupted${sent?.ok ? ` (${sent.via})` : " (not delivered)"}${escalated ? "; marked escalated" : ""}`);
        return { exit: "over", doc: { ...base, over: true, interrupted: sent?.ok ?? false, via: sent?.via ?? null, escalated } };
      }
      const bytes = bytesOf(r);
      if (bytes !== lastBytes) {
        lastBytes = bytes;
        lastGrowth = workerNow(ctx);
      }
      let settled = facts.settled;
      if (!settled && req.idleMs !== null && workerNow(ctx) - lastGrowth >= req.idleMs) settled = `idle for ${Math.round(req.idleMs / 1000)} s`;
      const host = req.host ?? facts.host;
      const pane = req.pane ?? facts.pane;
      if (!settled && host && pane) {
        try {
          const s = await makeHost(ctx, host).status(pane);
          if (s.status === "gone" || s.status === "exited") settled = `${host} pane ${s.status}`;
        } catch {
          // a host that does not answer settles nothing
        }
      }
      if (settled) {
        say(`job=${req.job} tokens=${tokens} max_tokens=${max} under (settled: ${settled})`);
        return { exit: "ok", doc: { ...base, over: false, settled } };
      }
    }
    await pause(ctx, req.intervalMs);
  }
}
