import { defineCommand } from "../../../src/lib/command.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { boundedWarnings, type LedgerWarning } from "../../../src/lib/ledger.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { parseSince, SPEND_LEDGER_ARG } from "./_shared.ts";
import { pricesPath, spendLedgerPath } from "../../../src/dispatch/gate/spend-paths.ts";
import { buildSpendReport, GROUP_BY, loadPrices, PriceTableError, renderSpendReport } from "../../../src/fleet/spend/report.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { QUOTA_WINDOW_NAMES, QUOTA_WINDOWS } from "../../../src/lib/config/tier-policy.ts";

export default defineCommand({
  meta: {
    name: "spend report",
    description: [
      "Input, output and cache tokens per job, model, tier or day from the spend ledger. With a user price table",
      "($MOGUI_HOME/config/prices.json; none is built in) it adds cost; a group with an unpriced model has no cost.",
      "--window 5h|7d reports the rolling window subscription plans count (the last 5 hours, the last 7 days), per",
      "provider unless --by says otherwise.",
    ].join("\n"),
  },
  usage: ["spend report [--since <T> | --window 5h|7d] [--by job|model|tier|day|provider] [--prices <path>] [--spend-ledger <path>] [--json]"],
  args: {
    since: { type: "string", valueHint: "T", description: "Only rows recorded since T: epoch seconds, an ISO date, or a duration (24h, 7d)" },
    window: { type: "enum", options: QUOTA_WINDOW_NAMES, valueHint: "5h|7d", description: "The rolling quota window: rows of the last 5 hours or 7 days, grouped by provider by default" },
    by: { type: "enum", options: GROUP_BY, valueHint: "job|model|tier|day|provider", description: "Group rows by (default job; provider with --window)" },
    prices: { type: "string", valueHint: "path", description: "Price table (default $MOGUI_HOME/config/prices.json when present)" },
    ...SPEND_LEDGER_ARG,
    json: { ...ARGS.json, description: "Print one compact JSON document (keys sorted)" },
  },
  rules: { exclusive: [["since", "window"]] },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "report printed (a missing ledger is an empty report)" },
    invalidPrices: { code: 2, meaning: "usage (a bad flag or value, --since unreadable); the price table is present but not valid JSON or not a price table" },
    ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "spend ledger unreadable or corrupt (LEDGER_UNAVAILABLE)" },
  },
  notes: ["cache_read = tokens read from the prompt cache; cache_write = tokens written to it. Prices are per million tokens."],
  examples: ["mogui spend report --by model", "mogui spend report --since 24h --by tier --json", "mogui spend report --window 5h"],
  async run({ ctx, args, fail }) {
    const log = logger(ctx, "spend report");
    const nowSec = ctx.now() / 1000;
    const since = args.window ? nowSec - QUOTA_WINDOWS[args.window] : parseSince(args.since, nowSec, "report");
    const by = args.by ?? (args.window ? "provider" : "job");
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
      r = await buildSpendReport(ledger, by, since, prices, { onWarning: sink.warn });
    } finally {
      sink.flush();
    }
    if (args.json) printDoc(ctx, { ledger, ...r, ...(args.window ? { window: args.window, window_seconds: QUOTA_WINDOWS[args.window] } : {}) }, true);
    else ctx.io.stdout(`${args.window ? `window ${args.window}: since ${new Date(since! * 1000).toISOString()}\n` : ""}${renderSpendReport(r)}`);
    return "ok";
  },
});
