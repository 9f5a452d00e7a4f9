import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { psProbe } from "../../src/succession/bootstrap/dual.ts";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath, type Ctx } from "../../src/lib/context.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { pgrepProbe } from "../../src/succession/recovery/monitors.ts";
import { recover } from "../../src/succession/recovery/recover.ts";
import { WORK_LEDGER_ENV, WORK_LEDGER_FILE } from "../../src/succession/tracks/ledger.ts";

/** D2: --ledger > $MOGUI_WORK_LEDGER > $MOGUI_HOME/work-ledger.jsonl when it exists (else step 1-ledger is SKIP). */
function ledgerPath(ctx: Ctx, flag: string | undefined): string | undefined {
  const path = resolveStatePath(ctx, flag, WORK_LEDGER_ENV, WORK_LEDGER_FILE);
  return flag || ctx.env[WORK_LEDGER_ENV] || existsSync(path) ? path : undefined;
}

export default defineCommand({
  meta: {
    name: "master-recover",
    description: [
      "Recovery Flow 0-6 for a successor, strictly read-only (no file written, no process signalled): charter and",
      "Role State (0), handoff and work ledger (1), repository baselines (2-3), misses (4), running monitors (5),",
      "and the verification checklist (6). Its --json report is what `master-succeed verify-successor` grades.",
    ].join("\n"),
  },
  usage: ["master-recover --charter <file> --handoff <file> [--ledger <path>] [--repo <path>]... [--monitor-pattern <pat>]...", "    [--session-id <id>] [--json]"],
  args: {
    charter: { type: "string", valueHint: "file", required: true, description: "The charter (step 0)" },
    handoff: { type: "string", valueHint: "file", required: true, description: "The predecessor's handoff (step 1)" },
    ledger: { ...ARGS.ledger, description: `Work ledger (default $${WORK_LEDGER_ENV}, else $MOGUI_HOME/${WORK_LEDGER_FILE} if present)` },
    repo: { type: "string", valueHint: "path", multiple: true, description: "A repository to observe (HEAD, branch, dirty)" },
    "monitor-pattern": { type: "string", valueHint: "pat", multiple: true, description: "A monitor script that must not still be running" },
    "session-id": { type: "string", valueHint: "id", description: "Session id for the dual-instance check" },
    json: { ...ARGS.json, description: "One compact JSON report (default: '<step> <status>: <evidence>' lines)" },
  },
  notes: ["Statuses: OK, MISS, WARN, SKIP. A step-0 MISS fails closed: steps 1, 2-3 and 5 are SKIP. Exit 0 whatever the verdict."],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "report printed, whatever the step statuses" },
    usage: { code: 2, meaning: "usage: unknown flag, missing or conflicting flags, a malformed value" },
  },
  examples: ["mogui master-recover --charter MASTER-OPERATIONS.md --handoff handoffs/latest.md --repo ../product --json > report.json"],
  async run({ ctx, args }) {
    const report = await recover(
      ctx,
      {
        charter: resolve(ctx.cwd, args.charter),
        handoff: resolve(ctx.cwd, args.handoff),
        ledger: ledgerPath(ctx, args.ledger),
        repos: args.repo.map((p) => resolve(ctx.cwd, p)),
        monitorPatterns: args["monitor-pattern"],
        sessionId: args["session-id"],
      },
      { process: psProbe(ctx), monitor: pgrepProbe(ctx) },
    );
    if (args.json) printDoc(ctx, report, true);
    else
      printLines(
        ctx,
        report.steps.map((s) => `${s.step} ${s.status}: ${s.evidence}`),
      );
    return "ok";
  },
});
