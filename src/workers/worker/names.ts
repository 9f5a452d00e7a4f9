/**
 * The worker-name rule under concurrency (issue 24 §3): "an agent name (or job id) is taken" is decided and claimed
 * in one step, inside a lock. A spawn cannot hold the jobs ledger's lock while it makes a worktree and starts an
 * agent (seconds to minutes), so the claim is a reservation row in a sidecar ledger, `<jobs ledger>.names.jsonl`,
 * appended under that sidecar's lock after the check: the jobs ledger (uncollected jobs), the live reservations and
 * the host's live agents are all read while the lock is held. A reservation lives until its job's `job_spawned`
 * row is in the jobs ledger, a `name_released` row (the spawn failed), or RESERVATION_TTL_S (a spawn that died).
 */
import { appendIf, appendRow, readRows } from "../../lib/ledger.ts";
import type { Ctx } from "../../lib/context.ts";
import type { Host } from "../../lib/host/types.ts";
import { workerNow } from "../../lib/clock.ts";
import { type Job, loadJobs } from "./jobs.ts";

/** A reservation older than this no longer holds its name (the spawn that made it died). */
const RESERVATION_TTL_S = 600;

function namesPath(jobsLedger: string): string {
  return `${jobsLedger}.names.jsonl`;
}

interface Reservation {
  job_id: string;
  agent_name: string;
  owner: string;
  ts: number;
}

async function liveReservations(path: string, jobs: Map<string, Job>, nowSec: number): Promise<Reservation[]> {
  const held = new Map<string, Reservation>();
  for await (const { row } of readRows(path)) {
    const id = typeof row.job_id === "string" ? row.job_id : null;
    if (!id) continue;
    if (row.event === "name_reserved" && typeof row.agent_name === "string" && typeof row.ts === "number") {
      held.set(id, { job_id: id, agent_name: row.agent_name, owner: String(row.owner ?? "?"), ts: row.ts });
    } else if (row.event === "name_released") held.delete(id);
  }
  // Spawned (the jobs ledger now decides) or expired reservations hold nothing.
  return [...held.values()].filter((r) => !jobs.has(r.job_id) && nowSec - r.ts < RESERVATION_TTL_S);
}

export type Claim = { ok: true } | { ok: false; message: string; holder?: string };

/**
 * Check that `jobId` and `name` are free and reserve them, as one step under the sidecar's lock. `holderOf` is the
 * spawn's own reading of the jobs ledger and the host (uncollected jobs, live agents).
 */
export async function claimName(ctx: Ctx, jobsLedger: string, inp: { jobId: string; name: string; owner: string }, host: Host, holderOf: (jobs: Map<string, Job>, host: Host, name: string) => Promise<string | null>): Promise<Claim> {
  const path = namesPath(jobsLedger);
  const nowSec = Math.floor(workerNow(ctx) / 1000);
  return appendIf<Claim>(path, async () => {
    const jobs = await loadJobs(ctx, jobsLedger, "spawn");
    if (jobs.has(inp.jobId)) return { rows: [], result: { ok: false, message: `job id ${inp.jobId} is already in the ledger (owner ${jobs.get(inp.jobId)!.spawn.owner})` } };
    const live = await liveReservations(path, jobs, nowSec);
    const sameJob = live.find((r) => r.job_id === inp.jobId);
    if (sameJob) return { rows: [], result: { ok: false, message: `job id ${inp.jobId} is being spawned (owner ${sameJob.owner})` } };
    const res = live.find((r) => r.agent_name === inp.name);
    const holder = res ? `job ${res.job_id} (owner ${res.owner}, being spawned)` : await holderOf(jobs, host, inp.name);
    if (holder) return { rows: [], result: { ok: false, message: `agent name ${inp.name} is taken by ${holder}`, holder } };
    return { rows: [{ event: "name_reserved", ts: nowSec, job_id: inp.jobId, agent_name: inp.name, owner: inp.owner }], result: { ok: true } };
  });
}

/** The spawn failed after its claim: the name is free again at once (not only after the TTL). */
export function releaseName(ctx: Ctx, jobsLedger: string, jobId: string): void {
  try {
    appendRow(namesPath(jobsLedger), { event: "name_released", ts: Math.floor(workerNow(ctx) / 1000), job_id: jobId });
  } catch {
    // The TTL frees it; the spawn's own error is what the caller reports.
  }
}
