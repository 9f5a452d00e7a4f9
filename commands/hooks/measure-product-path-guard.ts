import { defineMoguiCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { ExitError } from "../../src/lib/errors.ts";
import { LedgerError } from "../../src/lib/ledger.ts";
import { printJson, printLines, sortKeys } from "../../src/lib/output.ts";
import { EVENT_LOG_ENV, EVENT_LOG_FILE } from "../../src/hooks/session/firelog.ts";
import { guardStats, renderGuardStats } from "../../src/hooks/ops/measure.ts";

export default defineMoguiCommand({
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
    json: { type: "boolean", description: "Print {log, bash_command_observations, guard_rejections, rejection_rate} (rate 0..1 or null)" },
  },
  examples: ["mogui measure-product-path-guard"],
  async run(ctx, args) {
    const log = resolveStatePath(ctx, args.log as string | undefined, EVENT_LOG_ENV, EVENT_LOG_FILE);
    let s;
    try {
      s = await guardStats(log, { onWarning: (w) => ctx.io.stderr(`measure-product-path-guard: warning: ${w.path}:${w.line}: ${w.message}\n`) });
    } catch (e) {
      if (e instanceof LedgerError) throw new ExitError(2, `measure-product-path-guard: ${e.message}`);
      throw e;
    }
    if (args.json) printJson(ctx, sortKeys({ bash_command_observations: s.bash_command_observations, guard_rejections: s.guard_rejections, log, rejection_rate: s.rejection_rate }), true);
    else printLines(ctx, renderGuardStats(s));
    return 0;
  },
});
