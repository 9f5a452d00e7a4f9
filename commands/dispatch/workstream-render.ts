import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { SHARED_EXITS } from "../../src/lib/exits.ts";
import { logger } from "../../src/lib/log.ts";
import { printLines } from "../../src/lib/output.ts";
import { localDay, renderDay } from "../../src/dispatch/workstream/workstream.ts";

const LEDGER_ENV = "DISPATCH_GATE_LEDGER";

export default defineCommand({
  meta: {
    name: "workstream-render",
    description: [
      "Render one local day of the dispatch ledger as a markdown table:",
      "| time | kind | decision | runtime | model (tier) | agents | cost proxy | job/task | note |",
      "kind is check, register, audit (host diversity) or the lifecycle event (dispatch_submitted, reap ...).",
    ].join("\n"),
  },
  usage: ["workstream-render [YYYY-MM-DD] [--ledger <path>]"],
  args: {
    date: { type: "positional", required: false, valueHint: "YYYY-MM-DD", description: "The local day to render (default today)" },
    ledger: { ...ARGS.ledger, description: `Dispatch ledger (default $${LEDGER_ENV}, else $MOGUI_HOME/dispatch-ledger.jsonl)` },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "table printed (header only when the day has no rows)" },
    usage: { code: 2, meaning: "usage error (not a real YYYY-MM-DD day)" },
    ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "the ledger is unreadable or has a corrupt line (`workstream-render: LEDGER_UNAVAILABLE: <why>`)" },
  },
  notes: ["Days are local (the TZ of the process). A day without rows prints the header only and says so on stderr."],
  examples: ["mogui workstream-render", "mogui workstream-render 2026-03-14 >> docs/workstream/2026-03.md"],
  async run({ ctx, args }) {
    const day = args.date ?? localDay(new Date(ctx.now()));
    const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
    if (!d || localDay(new Date(Number(d[1]), Number(d[2]) - 1, Number(d[3]))) !== day) {
      throw new UsageError(`date must be a real day as YYYY-MM-DD (got '${day}')`, "workstream-render");
    }
    const ledger = resolveStatePath(ctx, args.ledger, LEDGER_ENV, "dispatch-ledger.jsonl");
    const log = logger(ctx, "workstream-render");
    // A LedgerError maps to ledgerUnavailable once, in main (SHARED_ERRORS).
    const out = await renderDay(ledger, day, { onWarning: (w) => log.warn(`${w.path}:${w.line}: ${w.message}`) });
    printLines(ctx, out.lines);
    if (out.rows === 0) log.log(`no ledger rows on ${day} in ${ledger}`);
    return "ok";
  },
});
