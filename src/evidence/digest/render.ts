/** The digest markdown (reference §12): fixed sections in a fixed order, each followed by a blank line. */
import type { Snapshot } from "./sense.ts";
import type { TriageItem } from "./triage.ts";

const SHORT_INTERVAL_SECONDS = 600;
const LONG_INTERVAL_SECONDS = 1800;
const LEDGER_SUMMARY_KEYS = ["job_id", "decision", "reason", "repo", "repo_path", "new_head"];

export function suggestNextIntervalSeconds(snap: Snapshot): number {
  const busy = snap.jobs.some((j) => j.status === "running" || j.status === "stalled") || snap.processes.some((p) => p.status === "running");
  return busy ? SHORT_INTERVAL_SECONDS : LONG_INTERVAL_SECONDS;
}

function ledgerLine(row: Record<string, unknown>): string {
  const keys = LEDGER_SUMMARY_KEYS.filter((k) => row[k] !== undefined && row[k] !== null);
  if (!keys.length) return `- ${JSON.stringify(row)}`;
  return `- ${keys.map((k) => `${k}=${typeof row[k] === "string" ? row[k] : JSON.stringify(row[k])}`).join(" ")}`;
}

export function renderDigest(snap: Snapshot, items: readonly TriageItem[], nowMs: number): string {
  const unexplained = items.filter((i) => i.classification === "unexplained");
  const jobs = [...snap.jobs.map((j) => `- ${j.name}: ${j.status}${j.idleSeconds !== null ? ` (idle ${j.idleSeconds}s)` : ""}`), ...snap.processes.map((p) => `- process ${p.pattern}: ${p.status}${p.error ? ` (${p.error})` : ""}`)];
  const sections: [string, string[]][] = [
    ["## Unexplained", unexplained.length ? unexplained.map((i) => `- ${i.summary}`) : ["- None"]],
    ["## Job Status", jobs.length ? jobs : ["- No running or stalled jobs observed."]],
    ["## Repo Drift", items.length ? items.map((i) => `- [${i.classification}] ${i.summary}`) : ["- None"]],
    ["## Ledger Summary", snap.ledgerTail.length ? snap.ledgerTail.slice(-5).map(ledgerLine) : ["- No ledger entries observed."]],
    ["## Next Observation Interval", [`- ${suggestNextIntervalSeconds(snap)} seconds`]],
  ];
  const generated = `${new Date(Math.floor(nowMs / 1000) * 1000).toISOString().slice(0, 19)}Z`;
  const out = ["# L1 Digest", "", `Generated: ${generated}`, ""];
  for (const [h, lines] of sections) out.push(h, ...lines, "");
  return out.join("\n");
}
