import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { jobsRun, paths, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { getJob, record, TERMINAL_STATES } from "../../../src/workers/worker/jobs.ts";
import { mergeGate } from "../../../src/workers/worker/verdict.ts";

export default defineCommand({
  meta: {
    name: "worker decide",
    description: [
      "Record the spawner's decision that ends a job: merged, closed or escalated. `merged` is refused without a",
      "passing `verify-push` (and, for T2/T3, an independent verifier's pass after the last rework round). Only a",
      "terminal job can be collected.",
    ].join("\n"),
  },
  usage: ["worker decide --job <id> --state merged|closed|escalated [--note <text>] [--json]"],
  args: {
    job: { type: "string", valueHint: "id", required: true, description: "The job" },
    state: { type: "enum", options: ["merged", "closed", "escalated"], valueHint: "state", required: true, description: "merged | closed | escalated" },
    note: { type: "string", valueHint: "text", description: "Why (recorded with the decision)" },
    ledger: WORKER_ARGS.ledger,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "decision recorded" },
    ledgerUnavailable: WORKER_EXITS.ledgerUnavailable,
    refused: { code: 3, meaning: "merged refused: no passing verify-push, an open rework round, or (T2/T3) no independent pass" },
    settled: { code: 5, meaning: "the job is already terminal" },
  },
  examples: ["mogui worker decide --job rob1-impl-20260801-0930 --state merged --note 'PR #12 squash-merged'"],
  run: jobsRun(async ({ ctx, args, fail }) => {
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    const job = await getJob(ctx, ledger, args.job, "decide");
    if (TERMINAL_STATES.includes(job.state)) return fail("settled", `worker decide: job ${job.id} is already ${job.state}`);
    const state = args.state;
    if (state === "merged") {
      const why = mergeGate(job);
      if (why) return fail("refused", `worker decide: merged refused for ${job.id}: ${why}`);
    }
    const row = { event: "job_decision", job_id: job.id, state, note: args.note ?? null };
    record(ctx, ledger, "decide", row);
    if (args.json) printDoc(ctx, row, true);
    else printLines(ctx, [`${job.id}\t${state}`]);
    return "ok";
  }),
});
