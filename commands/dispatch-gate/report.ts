import { defineMoguiCommand } from "../../src/lib/command.ts";
import { sortedJson } from "../../src/lib/output.ts";
import { gateWarn, LEDGER_FLAG, withLedgerFaults } from "../../src/gate/cli.ts";
import { gatePaths } from "../../src/gate/paths.ts";
import { buildReport, renderReport } from "../../src/gate/report.ts";

export default defineMoguiCommand({
  meta: {
    name: "dispatch-gate report",
    description: [
      "Summarise the gate ledger: time span, dispatches and estimated cost per model, denials per reason, agents",
      "per tier, the tier policies decisions were made under, tier overrides, and registrations per runtime.",
    ].join("\n"),
  },
  usage: ["dispatch-gate report [--today] [--json] [--ledger <path>]"],
  args: {
    today: { type: "boolean", description: "Only rows whose ts falls on today's UTC date" },
    json: { type: "boolean", description: "Print one compact JSON document instead of the text report" },
    ledger: LEDGER_FLAG,
  },
  notes: [
    "A missing ledger is an empty report. A ledger that cannot be read, or has a corrupt line (other than a torn\n" +
      "last line, which is skipped with a warning), is exit 2 with `dispatch-gate: LEDGER_UNAVAILABLE: <why>`.",
  ],
  examples: ["mogui dispatch-gate report --today", "mogui dispatch-gate report --json --ledger ~/.mogui/dispatch-ledger.jsonl"],
  async run(ctx, args) {
    const { ledger } = gatePaths(ctx, args.ledger as string | undefined);
    const data = await withLedgerFaults(async () => buildReport(ledger, Boolean(args.today), ctx.now(), gateWarn(ctx)));
    ctx.io.stdout(args.json ? `${sortedJson({ ledger, ...data })}\n` : renderReport(data));
    return 0;
  },
});
