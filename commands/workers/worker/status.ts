import { makeHost, hostKind } from "../../../src/lib/host/index.ts";
import type { HostKind } from "../../../src/lib/host/types.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { errorMessage } from "../../../src/lib/errors.ts";
import { isHostError, jobsRun, paths, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { loadJobs } from "../../../src/workers/worker/jobs.ts";
import { observeJob, type StatusItem } from "../../../src/workers/worker/status.ts";

export default defineCommand({
  meta: {
    name: "worker status",
    description: [
      "The owner's jobs with their host status, stuck detection (no output change 5 minutes after spawn) and",
      "working -> not-working transitions, which count only once held for 2 minutes (a flap back to working resets",
      "the hold). Observations are recorded in the jobs ledger when they change.",
    ].join("\n"),
  },
  usage: ["worker status --owner <session> [--all] [--json]"],
  args: {
    owner: { type: "string", valueHint: "session", required: true, description: "The spawner (as given to spawn --owner)" },
    all: { type: "boolean", description: "Also list collected jobs (without asking the host)" },
    host: WORKER_ARGS.host,
    ledger: WORKER_ARGS.ledger,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "status printed" },
    hostFailed: WORKER_EXITS.hostFailed,
    ledgerUnavailable: WORKER_EXITS.ledgerUnavailable,
  },
  examples: ["mogui worker status --owner orch-a", "mogui worker status --owner orch-a --json"],
  run: jobsRun(async ({ ctx, args }) => {
    const owner = args.owner;
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    const fallback = hostKind(ctx, args.host, "worker status");
    const mine = [...(await loadJobs(ctx, ledger, "status")).values()].filter((j) => j.spawn.owner === owner);
    const items: (StatusItem | { job_id: string; state: string; collected: true })[] = [];
    for (const j of mine) {
      if (j.collected) {
        if (args.all) items.push({ job_id: j.id, state: j.state, collected: true });
        continue;
      }
      try {
        items.push(await observeJob(ctx, makeHost(ctx, (j.spawn.host as HostKind) ?? fallback), j, ledger));
      } catch (e) {
        // One unreachable host must not hide the other jobs: report it on this job and exit 1 at the end.
        if (!isHostError(e)) throw e;
        items.push({ job_id: j.id, state: j.state, pane_id: j.spawn.pane_id, status: "error", raw: "", report: false, stuck: false, not_working_since: null, held: false, summary: `host error: ${errorMessage(e)}` });
      }
    }
    if (args.json) printDoc(ctx, { owner, ledger, jobs: items }, true);
    else if (items.length === 0) printLines(ctx, [`No jobs for owner ${owner} in ${ledger}.`]);
    else
      printLines(
        ctx,
        items.map((i) => ("collected" in i ? `${i.job_id}\t${i.state}\tcollected` : `${i.job_id}\t${i.state}\t${i.pane_id}\t${i.summary}${i.report ? "\treport in inbox" : ""}`)),
      );
    return items.some((i) => "status" in i && i.status === "error") ? "hostFailed" : "ok";
  }),
});
