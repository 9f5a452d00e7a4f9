import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { GRADE_OPTIONS, jobsRun, paths, TIER_OPTIONS, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { checkJobsLedger, getJob, record } from "../../../src/workers/worker/jobs.ts";
import { repRefusals, repRow } from "../../../src/workers/worker/reps.ts";

// An exact count only: `~5000`, `5k` or `4.2e3` are estimates, and the int parser refuses them (exit 2).
const COUNT = { type: "int", min: 0, max: 1_000_000_000_000, valueHint: "n" } as const;

export default defineCommand({
  meta: {
    name: "worker reps add",
    description: [
      "Record one measured run honestly: completed 0/1 (failures are data), the real rounds and blockers found; token",
      "counts only when measured (with --tokens-source), otherwise omitted and the notes say 'tokens unknown'. With",
      "--job, rounds and blockers must match what the jobs ledger recorded.",
    ].join("\n"),
  },
  usage: [
    "worker reps add --profile <p> --model <m> --task <issue> --tier T0..T3 --role impl|verify|fix|orch --rounds <n> --blockers-found <n> --completed 0|1 [--effort <e>] [--grade G] [--input-tokens <n> --output-tokens <n> --tokens-source <where>] [--notes <text>] [--job <id>]",
  ],
  args: {
    profile: { type: "string", valueHint: "p", required: true, description: "The profile name the run was assigned" },
    model: { type: "string", valueHint: "m", required: true, description: "The model" },
    effort: { type: "string", valueHint: "e", description: "The effort level (part of the launch profile model@effort)" },
    task: { type: "string", valueHint: "issue", required: true, description: "The task / issue" },
    tier: { type: "enum", options: TIER_OPTIONS, valueHint: "T", required: true, description: "T0 | T1 | T2 | T3" },
    role: { type: "enum", options: ["impl", "verify", "fix", "orch"], valueHint: "role", required: true, description: "impl | verify | fix | orch" },
    grade: { type: "enum", options: GRADE_OPTIONS, valueHint: "G", description: "Grade S+|S|A+|A|B|C" },
    rounds: { ...COUNT, required: true, description: "Rework rounds that really ran" },
    "blockers-found": { ...COUNT, required: true, description: "BLOCKER findings" },
    completed: { type: "enum", options: ["0", "1"], valueHint: "0|1", required: true, description: "1 completed, 0 not (record failures too)" },
    "input-tokens": { ...COUNT, description: "Measured input tokens, an exact count (omit when unknown)" },
    "output-tokens": { ...COUNT, description: "Measured output tokens, an exact count (omit when unknown)" },
    "tokens-source": { type: "string", valueHint: "where", description: "Where the token counts were measured (required with them)" },
    notes: { type: "string", valueHint: "text", description: "One line" },
    job: { type: "string", valueHint: "id", description: "The job this run was: rounds and blockers are checked against the ledger" },
    ledger: WORKER_ARGS.ledger,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "recorded" },
    ledgerUnavailable: WORKER_EXITS.ledgerUnavailable,
    refused: { code: 3, meaning: "refused by the honesty rules: token counts without a source, rounds or blockers that disagree with the ledger" },
  },
  examples: ["mogui worker reps add --profile grok-med --model grok-4 --effort medium --task rob1 --tier T1 --role impl --rounds 0 --blockers-found 0 --completed 1"],
  run: jobsRun(async ({ ctx, args, fail }) => {
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    const tier = args.tier;
    const rounds = args.rounds;
    const blockersFound = args["blockers-found"];
    // The appender contract: the whole ledger is read (getJob folds it) or checked before anything is recorded.
    const job = args.job ? await getJob(ctx, ledger, args.job, "reps add") : null;
    if (!job) await checkJobsLedger(ctx, ledger, "reps add");
    const inp = {
      profile: args.profile,
      model: args.model,
      effort: args.effort ?? null,
      task: args.task,
      tier,
      role: args.role,
      grade: args.grade ?? null,
      rounds,
      blockersFound,
      completed: args.completed === "1" ? (1 as const) : (0 as const),
      inputTokens: args["input-tokens"] ?? null,
      outputTokens: args["output-tokens"] ?? null,
      tokensSource: args["tokens-source"] ?? null,
      notes: args.notes ?? null,
      job,
    };
    const refusals = repRefusals(inp);
    if (refusals.length) return fail("refused", `worker reps add: refused: ${refusals.join("; ")}`);
    const row = repRow(inp);
    record(ctx, ledger, "reps add", row);
    if (args.json) printDoc(ctx, row, true);
    else printLines(ctx, [`recorded ${String(row.launch_profile)} ${inp.task} ${tier} ${inp.role} completed=${inp.completed} rounds=${rounds}${row.notes ? ` (${String(row.notes)})` : ""}`]);
    return "ok";
  }),
});
