import { defineCommand } from "../../../src/lib/command.ts";
import { LedgerError, readRows, type LedgerRow } from "../../../src/lib/ledger.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { jobsRun, paths, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { ledgerFail, warnLedger } from "../../../src/workers/worker/jobs.ts";
import { aggregate } from "../../../src/workers/worker/reps.ts";

export default defineCommand({
  meta: {
    name: "worker reps report",
    description: ["Aggregate recorded runs by launch profile `model@effort` (never a normalised profile name that merges", "efforts): runs, completion rate, rounds, blockers found, and tokens over the runs that measured them."].join("\n"),
  },
  usage: ["worker reps report [--tier T] [--role r] [--grade G] [--json]"],
  args: {
    tier: { type: "string", valueHint: "T", description: "Only runs of this T" },
    role: { type: "string", valueHint: "role", description: "Only this role (impl, verify, fix, orch)" },
    grade: { type: "string", valueHint: "G", description: "Only this grade" },
    ledger: WORKER_ARGS.ledger,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "report printed" },
    ledgerUnavailable: WORKER_EXITS.ledgerUnavailable,
  },
  examples: ["mogui worker reps report", "mogui worker reps report --role impl --json"],
  run: jobsRun(async ({ ctx, args }) => {
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    const want = (r: LedgerRow) => (["tier", "role", "grade"] as const).every((k) => args[k] === undefined || r[k] === args[k]);
    const rows: LedgerRow[] = [];
    try {
      for await (const { row } of readRows(ledger, { onWarning: warnLedger(ctx, "reps report") })) if (row.event === "rep" && want(row)) rows.push(row);
    } catch (e) {
      if (e instanceof LedgerError) throw ledgerFail("reps report", e);
      throw e;
    }
    const stats = aggregate(rows);
    if (args.json) {
      printDoc(ctx, { ledger, runs: rows.length, profiles: stats }, true);
      return "ok";
    }
    if (stats.length === 0) {
      printLines(ctx, [`No recorded runs in ${ledger}.`]);
      return "ok";
    }
    const head = "launch_profile\truns\tcompleted\trate\tavg_rounds\tblockers\ttokens(in/out, runs measured)";
    printLines(ctx, [head, ...stats.map((s) => `${s.launch_profile}\t${s.runs}\t${s.completed}\t${s.completion_rate}\t${s.avg_rounds}\t${s.blockers_found}\t${s.token_runs ? `${s.input_tokens}/${s.output_tokens} (${s.token_runs})` : "unknown"}`)]);
    return "ok";
  }),
});
