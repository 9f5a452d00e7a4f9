import { makeHost, hostKind } from "../../../src/lib/host/index.ts";
import type { HostKind } from "../../../src/lib/host/types.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { errorMessage } from "../../../src/lib/errors.ts";
import { isHostError, jobsRun, paths, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { type CollectItem, collectJob } from "../../../src/workers/worker/collect.ts";
import { loadJobs } from "../../../src/workers/worker/jobs.ts";

export default defineCommand({
  meta: {
    name: "worker collect",
    description: [
      "Collect the owner's workers. A pane is closed only when all three hold: the job is terminal (merged / closed /",
      "escalated), its final report exists as a file in the inbox, and the pane is not working across several",
      "readings. A non-working pane whose job awaits a decision is kept, and said so. Dry run unless --execute.",
    ].join("\n"),
  },
  usage: ["worker collect --owner <session> [--execute] [--readings <n>] [--interval-ms <ms>] [--json]"],
  args: {
    owner: { type: "string", valueHint: "session", required: true, description: "The spawner whose jobs to collect (as given to spawn --owner)" },
    readings: WORKER_ARGS.readings,
    "interval-ms": WORKER_ARGS["interval-ms"],
    execute: WORKER_ARGS.execute,
    host: WORKER_ARGS.host,
    ledger: WORKER_ARGS.ledger,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: true, idempotent: true, openWorld: false, confirmWith: { remove: "execute" } },
  exits: {
    ok: { code: 0, meaning: "every job was kept or closed (or would be, in a dry run) as its rules say" },
    failed: { code: 1, meaning: "a pane close failed, or the host failed" },
    ledgerUnavailable: WORKER_EXITS.ledgerUnavailable,
  },
  notes: ["The job list comes from the jobs ledger (never from memory); each job's host is the one it was spawned on."],
  examples: ["mogui worker collect --owner orch-a", "mogui worker collect --owner orch-a --execute --json"],
  run: jobsRun(async ({ ctx, args }) => {
    const owner = args.owner;
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    const execute = args.execute;
    const readings = args.readings;
    const intervalMs = args["interval-ms"];
    const fallback = hostKind(ctx, args.host, "worker collect");
    const jobs = [...(await loadJobs(ctx, ledger, "collect")).values()].filter((j) => j.spawn.owner === owner && !j.collected);
    const items: CollectItem[] = [];
    for (const j of jobs) {
      const host = makeHost(ctx, (j.spawn.host as HostKind) ?? fallback);
      try {
        items.push(await collectJob(ctx, host, j, { execute, readings, intervalMs, ledger, cmd: "collect" }));
      } catch (e) {
        // One unreachable host must not hide the other jobs: report it on this job and exit 1 at the end.
        if (!isHostError(e)) throw e;
        items.push({ job_id: j.id, state: j.state, pane_id: j.spawn.pane_id, status: "error", readings: [], report: null, action: "error", reasons: [errorMessage(e)], worktree: null });
      }
    }
    if (args.json) printDoc(ctx, { owner, execute, ledger, jobs: items }, true);
    else if (items.length === 0) printLines(ctx, [`No uncollected jobs for owner ${owner} in ${ledger}.`]);
    else
      printLines(
        ctx,
        items.map((i) => `${i.job_id}\t${i.action}${execute || i.action !== "close" ? "" : " (dry run)"}\t${i.pane_id}\t${i.status}${i.reasons.length ? `\t${i.reasons.join("; ")}` : ""}${i.worktree ? `\tworktree ${i.worktree}` : ""}`),
      );
    return items.some((i) => i.action === "close_failed" || i.action === "error") ? "failed" : "ok";
  }),
});
