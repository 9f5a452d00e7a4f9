import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { SHARED_EXITS } from "../../src/lib/exits.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { coverage, KNOWN_HOOKS, opsHookNames, renderCoverage } from "../../src/hooks/session/coverage.ts";
import { FIRE_LOG_ENV, FIRE_LOG_FILE } from "../../src/hooks/session/firelog.ts";
import { OPS_ENV } from "../../src/hooks/session/ops-repo.ts";
import { resolve } from "node:path";

export default defineCommand({
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
    ops: { ...ARGS.ops, description: `Ops repository whose scripts/hooks/*.sh count as expected hooks (default $${OPS_ENV})` },
    json: { ...ARGS.json, description: "Print {log, total, rows:[{hook, runtime, session, count, last_fired}], never_fired}" },
  },
  examples: ["mogui hook-coverage-report", "mogui hook-coverage-report --json"],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "report printed (an absent fire log is an empty report)" },
    ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "usage error; the fire log is unreadable or has a corrupt line (named with its line number)" },
  },
  async run({ ctx, args }) {
    const log = resolveStatePath(ctx, args.log, FIRE_LOG_ENV, FIRE_LOG_FILE);
    const opsRaw = args.ops ?? ctx.env[OPS_ENV];
    const expected = [...KNOWN_HOOKS, ...opsHookNames(opsRaw ? resolve(ctx.cwd, opsRaw) : undefined)];
    const warn = logger(ctx, "hook-coverage-report");
    // A LedgerError (unreadable log, corrupt line) maps to ledgerUnavailable once, in main (SHARED_ERRORS).
    const c = await coverage(log, expected, { onWarning: (w) => warn.warn(`${w.path}:${w.line}: ${w.message}`) });
    if (args.json) printDoc(ctx, { log, ...c }, true);
    else printLines(ctx, renderCoverage(c, log));
    return "ok";
  },
});
