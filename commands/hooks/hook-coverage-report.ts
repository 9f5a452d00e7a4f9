import { defineMoguiCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { ExitError } from "../../src/lib/errors.ts";
import { LedgerError } from "../../src/lib/ledger.ts";
import { printJson, printLines, sortKeys } from "../../src/lib/output.ts";
import { coverage, KNOWN_HOOKS, opsHookNames, renderCoverage } from "../../src/hooks/session/coverage.ts";
import { FIRE_LOG_ENV, FIRE_LOG_FILE } from "../../src/hooks/session/firelog.ts";
import { OPS_ENV } from "../../src/hooks/session/ops-repo.ts";
import { resolve } from "node:path";

export default defineMoguiCommand({
  meta: {
    name: "hook-coverage-report",
    description: [
      "Aggregate the hook fire log into a hook x runtime|session matrix: how often each hook fired for each",
      "runtime hint and session kind, and when it last fired (UTC). Lists the hooks that never fired: mogui's",
      "own hooks plus any <ops>/scripts/hooks/*.sh.",
    ].join("\n"),
  },
  usage: ["hook-coverage-report [--log <path>] [--ops <path>] [--json]"],
  args: {
    log: { type: "string", valueHint: "path", description: `Fire log (default $${FIRE_LOG_ENV}, else $MOGUI_HOME/${FIRE_LOG_FILE})` },
    ops: { type: "string", valueHint: "path", description: `Ops repository whose scripts/hooks/*.sh count as expected hooks (default $${OPS_ENV})` },
    json: { type: "boolean", description: "Print {log, total, rows:[{hook, runtime, session, count, last_fired}], never_fired}" },
  },
  examples: ["mogui hook-coverage-report", "mogui hook-coverage-report --json"],
  async run(ctx, args) {
    const log = resolveStatePath(ctx, args.log as string | undefined, FIRE_LOG_ENV, FIRE_LOG_FILE);
    const opsRaw = (args.ops as string | undefined) ?? ctx.env[OPS_ENV];
    const expected = [...KNOWN_HOOKS, ...opsHookNames(opsRaw ? resolve(ctx.cwd, opsRaw) : undefined)];
    let c;
    try {
      c = await coverage(log, expected, { onWarning: (w) => ctx.io.stderr(`hook-coverage-report: warning: ${w.path}:${w.line}: ${w.message}\n`) });
    } catch (e) {
      if (e instanceof LedgerError) throw new ExitError(2, `hook-coverage-report: ${e.message}`);
      throw e;
    }
    if (args.json) printJson(ctx, sortKeys({ log, ...c }), true);
    else printLines(ctx, renderCoverage(c, log));
    return 0;
  },
});
