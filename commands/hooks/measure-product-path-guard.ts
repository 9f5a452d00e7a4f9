import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { SHARED_EXITS } from "../../src/lib/exits.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { EVENT_LOG_ENV, EVENT_LOG_FILE } from "../../src/hooks/session/firelog.ts";
import { guardStats, renderGuardStats } from "../../src/hooks/measure/measure.ts";

export default defineCommand({
  meta: {
    name: "measure-product-path-guard",
    description: [
      "How often product-path-guard rejected a Bash command: counts the guard's bash observations and",
      "rejections in the event log and prints bash_command_observations=, guard_rejections= and",
      "rejection_rate=<pct> (<r>/<o>), or N/A when there were no observations.",
    ].join("\n"),
  },
  usage: ["measure-product-path-guard [--log <path>] [--json]"],
  args: {
    log: { type: "string", valueHint: "path", description: `Event log (default $${EVENT_LOG_ENV}, else $MOGUI_HOME/${EVENT_LOG_FILE})` },
    json: { ...ARGS.json, description: "Print {log, bash_command_observations, guard_rejections, rejection_rate} (rate 0..1 or null)" },
  },
  examples: ["mogui measure-product-path-guard"],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "figures printed (N/A when there were no observations)" },
    ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "usage error; the event log is unreadable or has a corrupt line" },
  },
  async run({ ctx, args }) {
    const log = resolveStatePath(ctx, args.log, EVENT_LOG_ENV, EVENT_LOG_FILE);
    const warn = logger(ctx, "measure-product-path-guard");
    // A LedgerError (unreadable log, corrupt line) maps to ledgerUnavailable once, in main (SHARED_ERRORS).
    const s = await guardStats(log, { onWarning: (w) => warn.warn(`${w.path}:${w.line}: ${w.message}`) });
    if (args.json) printDoc(ctx, { bash_command_observations: s.bash_command_observations, guard_rejections: s.guard_rejections, log, rejection_rate: s.rejection_rate }, true);
    else printLines(ctx, renderGuardStats(s));
    return "ok";
  },
});
