import { defineMoguiCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { ExitError, UsageError } from "../../src/lib/errors.ts";
import { LedgerError } from "../../src/lib/ledger.ts";
import { printLines } from "../../src/lib/output.ts";
import { localDay, renderDay } from "../../src/hooks/ops/workstream.ts";

const LEDGER_ENV = "DISPATCH_GATE_LEDGER";

export default defineMoguiCommand({
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
    ledger: { type: "string", valueHint: "path", description: `Dispatch ledger (default $${LEDGER_ENV}, else $MOGUI_HOME/dispatch-ledger.jsonl)` },
  },
  notes: ["Days are local (the TZ of the process). A day without rows prints the header only and says so on stderr."],
  examples: ["mogui workstream-render", "mogui workstream-render 2026-03-14 >> docs/workstream/2026-03.md"],
  async run(ctx, args) {
    const day = (args.date as string | undefined) ?? localDay(new Date(ctx.now()));
    const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
    if (!d || localDay(new Date(Number(d[1]), Number(d[2]) - 1, Number(d[3]))) !== day) {
      throw new UsageError(`date must be a real day as YYYY-MM-DD (got '${day}')`, "workstream-render");
    }
    const ledger = resolveStatePath(ctx, args.ledger as string | undefined, LEDGER_ENV, "dispatch-ledger.jsonl");
    let out;
    try {
      out = await renderDay(ledger, day, { onWarning: (w) => ctx.io.stderr(`workstream-render: warning: ${w.path}:${w.line}: ${w.message}\n`) });
    } catch (e) {
      if (e instanceof LedgerError) throw new ExitError(2, `workstream-render: ${e.message}`);
      throw e;
    }
    printLines(ctx, out.lines);
    if (out.rows === 0) ctx.io.stderr(`workstream-render: no ledger rows on ${day} in ${ledger}\n`);
    return 0;
  },
});
