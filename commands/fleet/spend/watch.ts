import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError, UsageError } from "../../../src/lib/errors.ts";
import { printJson, printLines } from "../../../src/lib/output.ts";
import { JSON_ARG, list, str } from "../../../src/workers/worker/cli.ts";
import { JOBS_LEDGER_ARG, policyOrNull, resolveJobs, SPEND_LEDGER_ARG, withSpendFaults } from "../../../src/fleet/spend/cli.ts";
import { spendLedgerPath } from "../../../src/fleet/spend/paths.ts";
import { jobTokens, loadState, recordSpend } from "../../../src/fleet/spend/record.ts";

export default defineMoguiCommand({
  meta: {
    name: "spend watch",
    description: [
      "Record a job's new transcript lines, then compare its measured tokens (input + output + cache read +",
      "cache write, all transcripts) with --max-tokens: exit 3 once they pass it, 0 while under. For a hook or a",
      "loop that stops a runaway worker.",
    ].join("\n"),
  },
  usage: ["spend watch --job <id> --max-tokens <N> [--transcript <path>...] [--spend-ledger <path>] [--jobs-ledger <path>] [--json]"],
  args: {
    job: { type: "string", valueHint: "id", required: true, description: "The job to watch" },
    "max-tokens": { type: "string", valueHint: "N", required: true, description: "Exit 3 once the job's measured tokens pass N" },
    transcript: { type: "string", valueHint: "path", multiple: true, description: "The job's transcript (instead of finding it)" },
    ...SPEND_LEDGER_ARG,
    ...JOBS_LEDGER_ARG,
    ...JSON_ARG,
  },
  examples: ["mogui spend watch --job job-7 --max-tokens 2000000", "while mogui spend watch --job job-7 --max-tokens 2000000; do sleep 60; done"],
  async run(ctx, args) {
    const job = str(args, "job")!;
    const rawMax = str(args, "max-tokens")!;
    if (!/^\d+$/.test(rawMax)) throw new UsageError(`--max-tokens must be a whole number (got '${rawMax}')`, "spend watch");
    const max = Number(rawMax);
    const ledger = spendLedgerPath(ctx, str(args, "spend-ledger"));
    const r = await resolveJobs(ctx, "watch", [job], list(args, "transcript"), str(args, "jobs-ledger"));
    if (r.jobs.length === 0) throw new ExitError(2, `spend watch: TRANSCRIPT_NOT_FOUND: no transcript found for job ${job}`);
    const policy = policyOrNull(ctx, (m) => ctx.io.stderr(`spend watch: warning: ${m}\n`));
    await withSpendFaults("watch", () => recordSpend(ledger, r.jobs, policy, Math.floor(ctx.now() / 1000)));
    const { tokens } = jobTokens(loadState(ledger), job);
    const over = tokens > max;
    if (args.json) printJson(ctx, { job_id: job, tokens, max_tokens: max, over }, true);
    else printLines(ctx, [`job=${job} tokens=${tokens} max_tokens=${max} ${over ? "OVER" : "under"}`]);
    return over ? 3 : 0;
  },
});
