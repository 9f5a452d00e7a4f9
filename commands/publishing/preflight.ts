import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import type { Ctx } from "../../src/lib/context.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { makeHost } from "../../src/publishing/preflight/checks.ts";
import { decide, parseWaivers, renderJson, renderText, runChecks } from "../../src/publishing/preflight/report.ts";

/** One line from stdin (the answer to a --fix question); end of input means no. */
async function readAnswer(): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of Bun.stdin.stream()) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0]!.trim();
}

function confirmer(ctx: Ctx, yes: boolean): (q: string) => Promise<boolean> {
  return async (question) => {
    if (yes) return true;
    // A prompt (no newline; the answer follows on the same line), not a diagnostic.
    ctx.io.stderr(`preflight: ${question} [y/N] `);
    const answer = await readAnswer();
    const go = /^y(es)?$/i.test(answer);
    if (!go) logger(ctx, "preflight").log("left unchanged");
    return go;
  };
}

export default defineCommand({
  meta: {
    name: "preflight",
    description: [
      "Host readiness gate for onboarding: Orca and its orchestration RPC, skills, the agent and worker",
      "runtimes, bd, the organisation redaction rules, mogui's own state (MOGUI_HOME, instance config, the",
      "dispatch ledger), git/gh and more. READY or READY WITH WAIVERS exit 0; BLOCKED (any FAIL) exits 1.",
    ].join("\n"),
  },
  usage: ["preflight [--fix [--yes]] [--json]"],
  args: {
    fix: { type: "boolean", description: "Offer to install what can be installed (the Orca skills); asks first" },
    yes: { type: "boolean", description: "With --fix: do not ask" },
    json: { ...ARGS.json, description: "Print the report as one compact JSON document (keys sorted)" },
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: true, readsStdin: [["fix", true, "yes"]] },
  exits: {
    ok: { code: 0, meaning: "READY, or READY WITH WAIVERS (PREFLIGHT_WAIVE downgraded some FAILs)" },
    blocked: { code: 1, meaning: "BLOCKED: at least one check FAILed and was not waived" },
    usage: { code: 2, meaning: "usage error" },
  },
  notes: [
    "PREFLIGHT_WAIVE=label,label downgrades those FAILs to WAIVED (the verdict says so); a waiver that names no\n" +
      "check that ran is reported, and stays enforced. The organisation rules file ($REDACTION_EXTRA_PATTERNS,\n" +
      "default ~/.config/redaction-extra.txt) is read for counts only. The Orca CLI is resolved as every command\n" +
      "does: $ORCA_CLI_COMMAND > orca-dev when $ORCA_DEV_REPO_ROOT is set > orca.",
  ],
  examples: ["mogui preflight", "PREFLIGHT_WAIVE=ctx,gh-auth mogui preflight", "mogui preflight --fix", "mogui preflight --json"],
  async run({ ctx, args }) {
    if (args.yes && !args.fix) logger(ctx, "preflight").warn("--yes has no effect without --fix");
    const host = makeHost(ctx, args.fix, confirmer(ctx, args.yes));
    const { orca, lines } = await runChecks(host);
    const report = decide(orca, lines, parseWaivers(ctx.env.PREFLIGHT_WAIVE));
    if (args.json) printDoc(ctx, renderJson(report), true);
    else printLines(ctx, renderText(report));
    return report.verdict === "BLOCKED" ? "blocked" : "ok";
  },
});
