import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError, UsageError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { grade, JSON_ARG, LEDGER_ARG, paths, str } from "../../../src/workers/worker/cli.ts";
import { checkJobsLedger, getJob, record } from "../../../src/workers/worker/jobs.ts";
import { repRefusals, repRow } from "../../../src/workers/worker/reps.ts";
import { isTier } from "../../../src/workers/worker/tiers.ts";

export const REPS_ADD_EXIT = { OK: 0, USAGE: 2, REFUSED: 3 } as const;
const ROLES = ["impl", "verify", "fix", "orch"];

function count(raw: string | undefined, name: string): number | null {
  if (raw === undefined) return null;
  // An exact count only: `~5000`, `5k` or `4.2e3` are estimates, and estimates are refused.
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be an exact whole number (got '${raw}'); omit it when unknown`, "worker reps add");
  return Number(raw);
}

export default defineMoguiCommand({
  meta: {
    name: "worker reps add",
    description: [
      "Record one measured run honestly: completed 0/1 (failures are data), the real rounds and blockers found; token",
      "counts only when measured (with --tokens-source), otherwise omitted and the notes say 'tokens unknown'. With",
      "--job, rounds and blockers must match what the jobs ledger recorded.",
    ].join("\n"),
  },
  usage: ["worker reps add --profile <p> --model <m> --task <issue> --tier T0..T3 --role impl|verify|fix|orch --rounds <n> --blockers-found <n> --completed 0|1 [--effort <e>] [--grade G] [--input-tokens <n> --output-tokens <n> --tokens-source <where>] [--notes <text>] [--job <id>]"],
  args: {
    profile: { type: "string", valueHint: "p", required: true, description: "The profile name the run was assigned" },
    model: { type: "string", valueHint: "m", required: true, description: "The model" },
    effort: { type: "string", valueHint: "e", description: "The effort level (part of the launch profile model@effort)" },
    task: { type: "string", valueHint: "issue", required: true, description: "The task / issue" },
    tier: { type: "string", valueHint: "T", required: true, description: "T0 | T1 | T2 | T3" },
    role: { type: "enum", options: ROLES, valueHint: "role", required: true, description: "impl | verify | fix | orch" },
    grade: { type: "string", valueHint: "G", description: "Grade S+|S|A+|A|B|C" },
    rounds: { type: "string", valueHint: "n", required: true, description: "Rework rounds that really ran" },
    "blockers-found": { type: "string", valueHint: "n", required: true, description: "BLOCKER findings" },
    completed: { type: "enum", options: ["0", "1"], valueHint: "0|1", required: true, description: "1 completed, 0 not (record failures too)" },
    "input-tokens": { type: "string", valueHint: "n", description: "Measured input tokens (omit when unknown)" },
    "output-tokens": { type: "string", valueHint: "n", description: "Measured output tokens (omit when unknown)" },
    "tokens-source": { type: "string", valueHint: "where", description: "Where the token counts were measured (required with them)" },
    notes: { type: "string", valueHint: "text", description: "One line" },
    job: { type: "string", valueHint: "id", description: "The job this run was: rounds and blockers are checked against the ledger" },
    ...LEDGER_ARG,
    ...JSON_ARG,
  },
  examples: ["mogui worker reps add --profile grok-med --model grok-4 --effort medium --task rob1 --tier T1 --role impl --rounds 0 --blockers-found 0 --completed 1"],
  async run(ctx, args) {
    const cmd = "worker reps add";
    const ledger = paths(ctx, args).ledger;
    const tier = str(args, "tier")!;
    if (!isTier(tier)) throw new UsageError(`--tier must be T0, T1, T2 or T3 (got '${tier}')`, cmd);
    const rounds = count(str(args, "rounds"), "rounds")!;
    const blockersFound = count(str(args, "blockers-found"), "blockers-found")!;
    // The appender contract: the whole ledger is read (getJob folds it) or checked before anything is recorded.
    const job = str(args, "job") ? await getJob(ctx, ledger, str(args, "job")!, "reps add") : null;
    if (!job) await checkJobsLedger(ctx, ledger, "reps add");
    const inp = {
      profile: str(args, "profile")!, model: str(args, "model")!, effort: str(args, "effort") ?? null, task: str(args, "task")!, tier,
      role: str(args, "role")!, grade: grade(args, "grade", "reps add") ?? null, rounds, blockersFound, completed: Number(str(args, "completed")) as 0 | 1,
      inputTokens: count(str(args, "input-tokens"), "input-tokens"), outputTokens: count(str(args, "output-tokens"), "output-tokens"),
      tokensSource: str(args, "tokens-source") ?? null, notes: str(args, "notes") ?? null, job,
    };
    const refusals = repRefusals(inp);
    if (refusals.length) throw new ExitError(REPS_ADD_EXIT.REFUSED, `worker reps add: refused: ${refusals.join("; ")}`);
    const row = repRow(inp);
    record(ctx, ledger, "reps add", row);
    if (args.json) printJson(ctx, sortKeys(row), true);
    else printLines(ctx, [`recorded ${String(row.launch_profile)} ${inp.task} ${tier} ${inp.role} completed=${inp.completed} rounds=${rounds}${row.notes ? ` (${String(row.notes)})` : ""}`]);
    return REPS_ADD_EXIT.OK;
  },
});
