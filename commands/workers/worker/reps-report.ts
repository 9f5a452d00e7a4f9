import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { LedgerError, readRows, type LedgerRow } from "../../../src/lib/ledger.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { JSON_ARG, LEDGER_ARG, paths, str } from "../../../src/workers/worker/cli.ts";
import { ledgerFail, warnLedger } from "../../../src/workers/worker/jobs.ts";
import { aggregate } from "../../../src/workers/worker/reps.ts";

export default defineMoguiCommand({
  meta: {
    name: "worker reps report",
    description: [
      "Aggregate recorded runs by launch profile `model@effort` (never a normalised profile name that merges",
      "efforts): runs, completion rate, rounds, blockers found, and tokens over the runs that measured them.",
    ].join("\n"),
  },
  usage: ["worker reps report [--tier T] [--role r] [--grade G] [--json]"],
  args: {
    tier: { type: "string", valueHint: "T", description: "Only runs of this T" },
    role: { type: "string", valueHint: "role", description: "Only this role (impl, verify, fix, orch)" },
    grade: { type: "string", valueHint: "G", description: "Only this grade" },
    ...LEDGER_ARG,
    ...JSON_ARG,
  },
  examples: ["mogui worker reps report", "mogui worker reps report --role impl --json"],
  async run(ctx, args) {
    const ledger = paths(ctx, args).ledger;
    const want = (r: LedgerRow) => (["tier", "role", "grade"] as const).every((k) => str(args, k) === undefined || r[k] === str(args, k));
    const rows: LedgerRow[] = [];
    try {
      for await (const { row } of readRows(ledger, { onWarning: warnLedger(ctx, "reps report") })) if (row.event === "rep" && want(row)) rows.push(row);
    } catch (e) {
      if (e instanceof LedgerError) throw ledgerFail("reps report", e);
      throw e;
    }
    const stats = aggregate(rows);
    if (args.json) {
      printJson(ctx, sortKeys({ ledger, runs: rows.length, profiles: stats }), true);
      return 0;
    }
    if (stats.length === 0) {
      printLines(ctx, [`No recorded runs in ${ledger}.`]);
      return 0;
    }
    const head = "launch_profile\truns\tcompleted\trate\tavg_rounds\tblockers\ttokens(in/out, runs measured)";
    printLines(ctx, [head, ...stats.map((s) => `${s.launch_profile}\t${s.runs}\t${s.completed}\t${s.completion_rate}\t${s.avg_rounds}\t${s.blockers_found}\t${s.token_runs ? `${s.input_tokens}/${s.output_tokens} (${s.token_runs})` : "unknown"}`)]);
    return 0;
  },
});
