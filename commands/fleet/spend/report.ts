import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { printJson } from "../../../src/lib/output.ts";
import { JSON_ARG, str } from "../../../src/workers/worker/cli.ts";
import { parseSince, SPEND_LEDGER_ARG, withSpendFaults } from "../../../src/fleet/spend/cli.ts";
import { pricesPath, spendLedgerPath } from "../../../src/fleet/spend/paths.ts";
import { buildSpendReport, GROUP_BY, loadPrices, renderSpendReport, type GroupBy } from "../../../src/fleet/spend/report.ts";

export default defineMoguiCommand({
  meta: {
    name: "spend report",
    description: [
      "Input, output and cache tokens per job, model, tier or day from the spend ledger. With a user price table",
      "($MOGUI_HOME/config/prices.json; none is built in) it adds cost; a group with an unpriced model has no cost.",
    ].join("\n"),
  },
  usage: ["spend report [--since <T>] [--by job|model|tier|day] [--prices <path>] [--spend-ledger <path>] [--json]"],
  args: {
    since: { type: "string", valueHint: "T", description: "Only rows recorded since T: epoch seconds, an ISO date, or a duration (24h, 7d)" },
    by: { type: "string", valueHint: "job|model|tier|day", default: "job", description: "Group rows by" },
    prices: { type: "string", valueHint: "path", description: "Price table (default $MOGUI_HOME/config/prices.json when present)" },
    ...SPEND_LEDGER_ARG,
    ...JSON_ARG,
  },
  notes: ["cache_read = tokens read from the prompt cache; cache_write = tokens written to it. Prices are per million tokens."],
  examples: ["mogui spend report --by model", "mogui spend report --since 24h --by tier --json"],
  async run(ctx, args) {
    const by = (str(args, "by") ?? "job") as GroupBy;
    if (!GROUP_BY.includes(by)) throw new UsageError(`--by must be one of ${GROUP_BY.join(", ")} (got '${by}')`, "spend report");
    const since = parseSince(str(args, "since"), ctx.now() / 1000, "report");
    const ledger = spendLedgerPath(ctx, str(args, "spend-ledger"));
    const prices = loadPrices(pricesPath(ctx, str(args, "prices")));
    const warn = (w: { path: string; line: number; message: string }) => ctx.io.stderr(`spend report: warning: ${w.path}:${w.line}: ${w.message}\n`);
    const r = await withSpendFaults("report", () => buildSpendReport(ledger, by, since, prices, { onWarning: warn }));
    if (args.json) printJson(ctx, { ledger, ...r }, true);
    else ctx.io.stdout(renderSpendReport(r));
    return 0;
  },
});
