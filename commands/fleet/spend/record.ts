import { defineCommand } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { JOBS_LEDGER_ARG, SPEND_EXITS, SPEND_LEDGER_ARG } from "./_shared.ts";
import { checkedRecord, policyOrNull, resolveJobs } from "../../../src/fleet/spend/jobs.ts";
import { spendLedgerPath } from "../../../src/dispatch/gate/spend-paths.ts";
import { ARGS } from "../../../src/lib/args.ts";

export default defineCommand({
  meta: {
    name: "spend record",
    description: [
      "Read the workers' own Claude Code and Codex transcripts from where the last run stopped and append the",
      "measured token usage to the spend ledger: one row per job, transcript and model. Each model response counts",
      "once; malformed lines are skipped and counted. Running it again without new transcript lines appends nothing.",
    ].join("\n"),
  },
  usage: ["spend record [--job <id>...] [--transcript <path>...] [--spend-ledger <path>] [--jobs-ledger <path>] [--json]"],
  args: {
    job: { type: "string", valueHint: "id", multiple: true, description: "Only this job (repeatable); default every job in the jobs ledger" },
    transcript: { type: "string", valueHint: "path", multiple: true, description: "Read this transcript for the one --job (instead of finding it)" },
    ...SPEND_LEDGER_ARG,
    ...JOBS_LEDGER_ARG,
    json: { ...ARGS.json, description: "Print one compact JSON document (keys sorted)" },
  },
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "recorded (nothing new to record is also 0; jobs without a transcript are warned about)" },
    ...SPEND_EXITS,
  },
  notes: [
    "A job's transcripts are found from its worktree (the jobs ledger's job_spawned row): Claude Code sessions in\n" +
      "$CLAUDE_CONFIG_DIR/projects/<worktree, non-alphanumerics as '-'>/ (default ~/.claude), Codex rollouts under\n" +
      "$CODEX_HOME/sessions/ (default ~/.codex) whose session_meta names that cwd. How far each transcript was read\n" +
      "is kept in <spend ledger>.state.json. Rows carry the model's tier from the tier policy.",
  ],
  examples: ["mogui spend record", "mogui spend record --job job-7 --transcript ./session.jsonl --json"],
  async run({ ctx, args, fail }) {
    const log = logger(ctx, "spend record");
    const warn = (m: string) => log.warn(m);
    const ledger = spendLedgerPath(ctx, args["spend-ledger"]);
    const r = await resolveJobs(ctx, "record", args.job, args.transcript, args["jobs-ledger"], fail);
    for (const id of r.missing) warn(`job ${id}: no transcript found`);
    const policy = policyOrNull(ctx, warn);
    const summary = await checkedRecord(ledger, r.jobs, policy, Math.floor(ctx.now() / 1000), warn);
    for (const s of summary) if (s.malformed) warn(`${s.transcript}: ${s.malformed} malformed line(s) skipped`);
    if (args.json) {
      printDoc(ctx, { ledger, transcripts: summary, jobs_without_transcript: r.missing }, true);
      return "ok";
    }
    printLines(ctx, summary.length ? summary.map((s) => `${s.job_id}\t${s.transcript}\tresponses=${s.responses}\ttokens=${s.tokens}\tmalformed=${s.malformed}`) : ["No transcripts to read."]);
    return "ok";
  },
});
