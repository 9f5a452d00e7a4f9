import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { JSON_ARG, LEDGER_ARG, paths, str } from "../../../src/workers/worker/cli.ts";
import { getJob, record, TERMINAL_STATES } from "../../../src/workers/worker/jobs.ts";
import { mergeGate } from "../../../src/workers/worker/verdict.ts";

export const DECIDE_EXIT = { OK: 0, USAGE: 2, REFUSED: 3, SETTLED: 5 } as const;

export default defineMoguiCommand({
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
    ...LEDGER_ARG,
    ...JSON_ARG,
  },
  examples: ["mogui worker decide --job rob1-impl-20260801-0930 --state merged --note 'PR #12 squash-merged'"],
  async run(ctx, args) {
    const ledger = paths(ctx, args).ledger;
    const job = await getJob(ctx, ledger, str(args, "job")!, "decide");
    if (TERMINAL_STATES.includes(job.state)) throw new ExitError(DECIDE_EXIT.SETTLED, `worker decide: job ${job.id} is already ${job.state}`);
    const state = str(args, "state")!;
    if (state === "merged") {
      const why = mergeGate(job);
      if (why) throw new ExitError(DECIDE_EXIT.REFUSED, `worker decide: merged refused for ${job.id}: ${why}`);
    }
    const row = { event: "job_decision", job_id: job.id, state, note: str(args, "note") ?? null };
    record(ctx, ledger, "decide", row);
    if (args.json) printJson(ctx, sortKeys(row), true);
    else printLines(ctx, [`${job.id}\t${state}`]);
    return DECIDE_EXIT.OK;
  },
});
