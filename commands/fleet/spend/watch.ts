import { defineCommand } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { checkedRecord, JOBS_LEDGER_ARG, policyOrNull, resolveJobs, SPEND_EXITS, SPEND_LEDGER_ARG } from "./_shared.ts";
import { spendLedgerPath } from "../../../src/dispatch/gate/spend-paths.ts";
import { jobTokens, loadState } from "../../../src/fleet/spend/record.ts";
import { ARGS } from "../../../src/lib/args.ts";

export default defineCommand({
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
    "max-tokens": { type: "int", min: 0, max: Number.MAX_SAFE_INTEGER, required: true, valueHint: "N", description: "Exit 3 once the job's measured tokens pass N" },
    transcript: { type: "string", valueHint: "path", multiple: true, description: "The job's transcript (instead of finding it)" },
    ...SPEND_LEDGER_ARG,
    ...JOBS_LEDGER_ARG,
    json: { ...ARGS.json, description: "Print one compact JSON document (keys sorted)" },
  },
  exits: {
    ok: { code: 0, meaning: "the job's measured tokens are at or under --max-tokens" },
    ...SPEND_EXITS,
    transcriptNotFound: { code: 2, meaning: "the job's transcript cannot be found, or a named --transcript does not exist (TRANSCRIPT_NOT_FOUND)" },
    over: { code: 3, meaning: "the job's measured tokens passed --max-tokens" },
  },
  examples: ["mogui spend watch --job job-7 --max-tokens 2000000", "while mogui spend watch --job job-7 --max-tokens 2000000; do sleep 60; done"],
  async run({ ctx, args, fail }) {
    const log = logger(ctx, "spend watch");
    const job = args.job;
    const max = args["max-tokens"];
    const ledger = spendLedgerPath(ctx, args["spend-ledger"]);
    const r = await resolveJobs(ctx, "watch", [job], args.transcript, args["jobs-ledger"], fail);
    if (r.jobs.length === 0) return fail("transcriptNotFound", `spend watch: TRANSCRIPT_NOT_FOUND: no transcript found for job ${job}`);
    const policy = policyOrNull(ctx, (m) => log.warn(m));
    await checkedRecord(ledger, r.jobs, policy, Math.floor(ctx.now() / 1000), (m) => log.warn(m));
    const { tokens } = jobTokens(loadState(ledger), job);
    const over = tokens > max;
    if (args.json) printDoc(ctx, { job_id: job, tokens, max_tokens: max, over }, true);
    else printLines(ctx, [`job=${job} tokens=${tokens} max_tokens=${max} ${over ? "OVER" : "under"}`]);
    return over ? "over" : "ok";
  },
});
