import { defineCommand } from "../../../src/lib/command.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { boundedWarnings, type LedgerWarning } from "../../../src/lib/ledger.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { parseSince, SPEND_LEDGER_ARG } from "./_shared.ts";
import { pricesPath, spendLedgerPath } from "../../../src/dispatch/gate/spend-paths.ts";
import { buildSpendReport, GROUP_BY, loadPrices, PriceTableError, renderSpendReport } from "../../../src/fleet/spend/report.ts";
import { ARGS } from "../../../src/lib/args.ts";

export default defineCommand({
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
    by: { type: "enum", options: GROUP_BY, default: "job", valueHint: "job|model|tier|day", description: "Group rows by (default job)" },
    prices: { type: "string", valueHint: "path", description: "Price table (default $MOGUI_HOME/config/prices.json when present)" },
    ...SPEND_LEDGER_ARG,
    json: { ...ARGS.json, description: "Print one compact JSON document (keys sorted)" },
  },
  exits: {
    ok: { code: 0, meaning: "report printed (a missing ledger is an empty report)" },
    invalidPrices: { code: 2, meaning: "usage (a bad flag or value, --since unreadable); the price table is present but not valid JSON or not a price table" },
    ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "spend ledger unreadable or corrupt (LEDGER_UNAVAILABLE)" },
  },
  notes: ["cache_read = tokens read from the prompt cache; cache_write = tokens written to it. Prices are per million tokens."],
  examples: ["mogui spend report --by model", "mogui spend report --since 24h --by tier --json"],
  async run({ ctx, args, fail }) {
    const log = logger(ctx, "spend report");
    const since = parseSince(args.since, ctx.now() / 1000, "report");
    const ledger = spendLedgerPath(ctx, args["spend-ledger"]);
    let prices;
    try {
      prices = loadPrices(pricesPath(ctx, args.prices));
    } catch (e) {
      if (e instanceof PriceTableError) return fail("invalidPrices", e.message);
      throw e;
    }
    const sink = boundedWarnings((w: LedgerWarning) => log.warn(`${w.path}:${w.line}: ${w.message}`));
    let r;
    try {
      r = await buildSpendReport(ledger, args.by, since, prices, { onWarning: sink.warn });
    } finally {
      sink.flush();
    }
    if (args.json) printDoc(ctx, { ledger, ...r }, true);
    else ctx.io.stdout(renderSpendReport(r));
    return "ok";
  },
});
