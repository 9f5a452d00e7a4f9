import { defineCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { HOST_KINDS } from "../../../src/lib/host/types.ts";
import { followJob } from "../../../src/fleet/spend/follow.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { JOBS_LEDGER_ARG, SPEND_EXITS, SPEND_LEDGER_ARG } from "./_shared.ts";
import { checkedRecord, policyOrNull, resolveJobs } from "../../../src/fleet/spend/jobs.ts";
import { spendLedgerPath } from "../../../src/dispatch/gate/spend-paths.ts";
import { jobTokens, loadState } from "../../../src/fleet/spend/record.ts";
import { ARGS } from "../../../src/lib/args.ts";

export default defineCommand({
  meta: {
    name: "spend watch",
    description: [
      "Record a job's new transcript lines, then compare its measured tokens (input + output + cache read +",
      "cache write, all transcripts) with --max-tokens: exit 3 once they pass it, 0 while under. With --follow it",
      "keeps watching (the spend brake for hosts without hooks, D44): a warning at 80%, and past the cap it interrupts",
      "the agent through its host (herdr send-keys esc, Orca terminal send --interrupt), records the interrupt, marks",
      "the job escalated and exits 3; it exits 0 once the job settles under its cap. It never kills or reaps.",
    ].join("\n"),
  },
  usage: [
    "spend watch --job <id> --max-tokens <N> [--transcript <path>...] [--spend-ledger <path>] [--jobs-ledger <path>] [--json]",
    "spend watch --follow --job <id> [--max-tokens <N>] [--interval-s <s>] [--idle-s <s>] [--wait-transcript-s <s>] [--host herdr|orca --pane <id>] [--json]",
  ],
  args: {
    job: { type: "string", valueHint: "id", required: true, description: "The job to watch" },
    "max-tokens": { type: "int", min: 0, max: Number.MAX_SAFE_INTEGER, valueHint: "N", description: "Exit 3 once the job's measured tokens pass N (required, except with --follow for a job whose spawn row recorded its cap)" },
    follow: { type: "boolean", description: "Keep watching: warn at 80%, interrupt the agent through its host past the cap (exit 3), exit 0 once the job settles" },
    "interval-s": { type: "int", min: 1, max: 86_400, default: 30, valueHint: "s", description: "--follow: seconds between reads (default 30)" },
    "idle-s": { type: "int", min: 1, max: 30 * 86_400, valueHint: "s", description: "--follow: the job settles when its transcripts grew no byte for this long" },
    "wait-transcript-s": { type: "int", min: 0, max: 86_400, default: 300, valueHint: "s", description: "--follow: how long to wait for the job's first transcript (default 300; then exit 2)" },
    host: { type: "enum", options: HOST_KINDS, valueHint: "herdr|orca", description: "--follow: the host to interrupt through (default: the job's spawn row)" },
    pane: { type: "string", valueHint: "id", description: "--follow: the herdr pane or Orca terminal handle to interrupt (default: the job's spawn row)" },
    transcript: { type: "string", valueHint: "path", multiple: true, description: "The job's transcript (instead of finding it)" },
    ...SPEND_LEDGER_ARG,
    ...JOBS_LEDGER_ARG,
    json: { ...ARGS.json, description: "Print one compact JSON document (keys sorted)" },
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the job's measured tokens are at or under --max-tokens" },
    ...SPEND_EXITS,
    transcriptNotFound: { code: 2, meaning: "the job's transcript cannot be found, or a named --transcript does not exist (TRANSCRIPT_NOT_FOUND)" },
    over: { code: 3, meaning: "the job's measured tokens passed --max-tokens (--follow: after the interrupt)" },
  },
  notes: [
    [
      "--follow rows: each warning and interrupt is a spend-ledger row (event spend_brake, source watch, action",
      "warn|interrupt); the escalation is a job_decision row (state escalated) in the jobs ledger. The job settles",
      "when the jobs ledger records it collected or decided, its pane is gone or exited, or (--idle-s) its",
      "transcripts stopped growing.",
    ].join("\n"),
  ],
  examples: ["mogui spend watch --job job-7 --max-tokens 2000000", "mogui spend watch --follow --job job-7 --max-tokens 2000000 --interval-s 60"],
  async run({ ctx, args, fail }) {
    const log = logger(ctx, "spend watch");
    const job = args.job;
    const ledger = spendLedgerPath(ctx, args["spend-ledger"]);
    if (args.follow) {
      const out = await followJob(
        ctx,
        {
          job,
          maxTokens: args["max-tokens"] ?? null,
          transcripts: args.transcript,
          jobsLedger: args["jobs-ledger"],
          spendLedger: ledger,
          intervalMs: args["interval-s"] * 1000,
          idleMs: args["idle-s"] === undefined ? null : args["idle-s"] * 1000,
          waitTranscriptMs: args["wait-transcript-s"] * 1000,
          host: args.host,
          pane: args.pane,
        },
        (m) => log.warn(m),
        (m) => {
          if (!args.json) printLines(ctx, [m]);
        },
        fail,
      );
      if (out.exit === "noCap") throw new UsageError(out.message!, "spend watch");
      if (out.exit === "transcriptNotFound") return fail("transcriptNotFound", `spend watch: ${out.message}`);
      if (args.json) printDoc(ctx, out.doc, true);
      return out.exit;
    }
    if (args.pane || args.host || args["idle-s"] !== undefined) throw new UsageError("--host, --pane and --idle-s need --follow", "spend watch");
    const max = args["max-tokens"];
    if (max === undefined) throw new UsageError("--max-tokens is required (or use --follow for a job whose spawn row recorded its cap)", "spend watch");
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
