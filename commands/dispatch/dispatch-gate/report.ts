import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { GATE_EXITS, gateWarn, LEDGER_FLAG } from "./_shared.ts";
import { gatePaths } from "../../../src/dispatch/gate/paths.ts";
import { buildReport, renderReport } from "../../../src/dispatch/gate/report.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { loadTierPolicy, type TierPolicy } from "../../../src/lib/config/tier-policy.ts";
import { spendPerTier } from "../../../src/dispatch/gate/spend-window.ts";

function policyOrNull(ctx: Ctx): TierPolicy | null {
  try {
    return loadTierPolicy(ctx);
  } catch {
    return null; // rows recorded with a tier still count; others show as unknown
  }
}

export default defineCommand({
  meta: {
    name: "dispatch-gate report",
    description: [
      "Summarise the gate ledger: time span, dispatches and estimated cost per model, denials per reason, agents",
      "per tier, the tier policies decisions were made under, tier overrides, registrations per runtime, and the",
      "tokens each tier spent as measured by `mogui spend record` (when the spend ledger has any).",
    ].join("\n"),
  },
  usage: ["dispatch-gate report [--today] [--json] [--ledger <path>]"],
  args: {
    today: { type: "boolean", description: "Only rows whose ts falls on today's UTC date" },
    json: { ...ARGS.json, description: "Print one compact JSON document instead of the text report" },
    ledger: LEDGER_FLAG,
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "report printed (a missing ledger is an empty report)" },
    usage: { code: 2, meaning: "usage error: an unknown flag, a missing value" },
    ...GATE_EXITS,
  },
  notes: ["A missing ledger is an empty report. A ledger that cannot be read, or has a corrupt line (other than a torn\n" + "last line, which is skipped with a warning), is exit 2 with `dispatch-gate: LEDGER_UNAVAILABLE: <why>`."],
  examples: ["mogui dispatch-gate report --today", "mogui dispatch-gate report --json --ledger ~/.mogui/dispatch-ledger.jsonl"],
  async run({ ctx, args }) {
    const { ledger, spendLedger } = gatePaths(ctx, args.ledger);
    const data = buildReport(ledger, args.today, ctx.now(), gateWarn(ctx));
    const day = Math.floor(ctx.now() / 86_400_000) * 86_400;
    const spend = spendPerTier(spendLedger, policyOrNull(ctx), args.today ? day : -Infinity, args.today ? day + 86_400 : Infinity, gateWarn(ctx));
    if (Object.keys(spend).length) data.spend_per_tier = spend;
    if (args.json) printDoc(ctx, { ledger, ...data }, true);
    else ctx.io.stdout(renderReport(data));
    return "ok";
  },
});
