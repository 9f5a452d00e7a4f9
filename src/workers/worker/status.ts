/**
 * `worker status` (spawn-worker §4): host status per job, stuck detection (no output change 5 minutes after
 * spawn) and working -> not-working transitions that only count once held for 2 minutes (a flap resets the hold).
 * Each call records an observation row when the status or the output changed, so the holds survive between
 * calls and the ledger stays the record.
 */
import { createHash } from "node:crypto";
import type { Ctx } from "../../lib/context.ts";
import type { Host } from "../../lib/host/types.ts";
import { workerNow } from "../../lib/clock.ts";
import { hasReport, type Job, record } from "./jobs.ts";
import { LANDING_READ_LINES } from "./landing.ts";

const STUCK_SECONDS = 5 * 60;
const HOLD_SECONDS = 2 * 60;

export interface StatusItem {
  job_id: string;
  state: string;
  pane_id: string;
  status: string;
  raw: string;
  report: boolean;
  stuck: boolean;
  not_working_since: number | null;
  held: boolean;
  summary: string;
}

export async function outputDigest(host: Host, pane: string): Promise<string | null> {
  try {
    return createHash("sha256")
      .update(await host.readRecent(pane, LANDING_READ_LINES))
      .digest("hex")
      .slice(0, 16);
  } catch {
    return null;
  }
}

interface Obs {
  ts: number;
  status: string;
  digest: string | null;
}

function summarise(i: Omit<StatusItem, "summary">, now: number, spawnTs: number): string {
  if (i.status === "gone") return "pane is gone";
  if (i.stuck) return `stuck: no output change ${Math.floor((now - spawnTs) / 60)} min after spawn (respawn or read the pane)`;
  if (i.status === "working") return "working";
  if (i.not_working_since === null) return `${i.status} (never observed working)`;
  const secs = now - i.not_working_since;
  return i.held ? `${i.status} for ${secs}s (held >= ${HOLD_SECONDS / 60} min: check the inbox and decide)` : `${i.status} for ${secs}s (not yet held ${HOLD_SECONDS / 60} min)`;
}

export async function observeJob(ctx: Ctx, host: Host, j: Job, ledger: string): Promise<StatusItem> {
  const now = Math.floor(workerNow(ctx) / 1000);
  const reading = await host.status(j.spawn.pane_id);
  const digest = reading.status === "gone" ? null : await outputDigest(host, j.spawn.pane_id);
  const history: Obs[] = j.observations.map((o) => ({ ts: Number(o.ts), status: String(o.status), digest: (o.digest as string | null) ?? null }));
  const last = history.at(-1);
  if (!last || last.status !== reading.status || last.digest !== digest) {
    record(ctx, ledger, "status", { event: "host_observed", job_id: j.id, status: reading.status, raw: reading.raw, digest });
    history.push({ ts: now, status: reading.status, digest });
  }
  const spawnTs = Number(j.spawn.ts);
  const baseline = (j.landing?.output_digest as string | undefined) ?? null;
  const changed = history.some((o) => o.digest !== null && o.digest !== baseline);
  const stuck = reading.status !== "gone" && baseline !== null && !changed && now - spawnTs >= STUCK_SECONDS;
  let since: number | null = null;
  if (reading.status !== "working" && reading.status !== "gone") {
    const lastWorking = history.map((o) => o.status).lastIndexOf("working");
    if (lastWorking >= 0) since = history.slice(lastWorking + 1).find((o) => o.status !== "working")?.ts ?? now;
  }
  const held = since !== null && now - since >= HOLD_SECONDS;
  const base = { job_id: j.id, state: j.state, pane_id: j.spawn.pane_id, status: reading.status, raw: reading.raw, report: hasReport(j, String(j.spawn.report_file ?? "report.md")), stuck, not_working_since: since, held };
  return { ...base, summary: summarise(base, now, spawnTs) };
}
