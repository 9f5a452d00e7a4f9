/** `mogui acceptance-loop run`: the deterministic acceptance loop (reference §13, D26), progress on stderr. */
import { ACCEPTANCE_USAGE, exposureWarnings, loadForCli, prepareRunDir } from "./_shared.ts";
import { BASELINE_LABEL, candidateDict, type Candidate } from "../../../src/evidence/acceptance/candidate.ts";
import { RestoreError, runAcceptanceLoop } from "../../../src/evidence/acceptance/loop.ts";
import { returnCode, tail } from "../../../src/evidence/acceptance/process.ts";
import { RegressionLog } from "../../../src/evidence/acceptance/regression-log.ts";
import { renderReportMarkdown } from "../../../src/evidence/acceptance/report.ts";
import { cliProposer, commandEvaluator } from "../../../src/evidence/acceptance/seams.ts";
import { ShlexError, shlexSplit } from "../../../src/evidence/acceptance/shlex.ts";
import { isComplete, scorecardDict } from "../../../src/evidence/acceptance/verdict.ts";
import { ARGS, UNBOUNDED_MAX } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { UsageError, errorMessage } from "../../../src/lib/errors.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { checkLedger } from "../../../src/lib/ledger.ts";
import { logger, progress } from "../../../src/lib/log.ts";
import { printDoc } from "../../../src/lib/output.ts";

const CMD = "acceptance-loop run";
export const RESTORE_TIMEOUT_MS = 300_000;

function maxIterations(n: number | undefined, hasRestore: boolean, configured: number): number {
  if (n === undefined) return hasRestore ? configured : 1;
  if (n >= 2 && !hasRestore) {
    throw new UsageError(
      `--max-iterations ${n} needs --restore-cmd: proposer and evaluator mutate the workspace in place; pass --restore-cmd to restore it after a rejected candidate, or set --max-iterations 1. Iterating past a rejection without restoring would evaluate the rejected tree.`,
      CMD,
    );
  }
  return n;
}

function restoreArgv(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  try {
    const argv = shlexSplit(raw);
    if (argv.length === 0) throw new UsageError("--restore-cmd is empty", CMD);
    return argv;
  } catch (e) {
    if (e instanceof ShlexError) throw new UsageError(`--restore-cmd: ${e.message}`, CMD);
    throw e;
  }
}

function restorer(ctx: Ctx, argv: string[], cwd: string, say: (m: string) => void) {
  return async (c: Candidate) => {
    say(`restoring the workspace after rejecting ${c.label}: ${argv.join(" ")}`);
    const r = await ctx.runner(argv, { cwd, env: ctx.env, timeoutMs: RESTORE_TIMEOUT_MS });
    const rc = returnCode(r);
    if (rc !== 0) throw new RestoreError(`restore command failed (exit ${rc}${tail(r, RESTORE_TIMEOUT_MS) ? `: ${tail(r, RESTORE_TIMEOUT_MS)}` : ""}); stopped with the rejected tree in place`);
  };
}

export default defineCommand({
  meta: {
    name: CMD,
    description: [
      "Run the acceptance loop: evaluate the baseline, then per iteration let the proposer CLI see ONLY the visible",
      "(train) failures, evaluate its candidate on train + holdout, accept it only on a strict increase of the",
      "combined pass count, and restore the workspace (--restore-cmd) after a rejection. Writes report.json and",
      "report.md into the run dir and prints the report markdown. Progress goes to stderr.",
    ].join("\n"),
  },
  usage: ["acceptance-loop run --config <path> [--max-iterations <n>] [--baseline-ref <ref>] [--restore-cmd <cmd>] [--json]"],
  args: {
    config: { type: "string", valueHint: "path", required: true, description: "The acceptance config JSON" },
    // The original: `--max-iterations INT`, `< 1` refused; no upper bound (issue 26 §3).
    "max-iterations": { type: "int", min: 1, max: UNBOUNDED_MAX, valueHint: "n", description: "Iterations to run (default 1; with --restore-cmd, the config's max_iterations)" },
    "baseline-ref": { type: "string", valueHint: "ref", description: "What the baseline is (shown to the proposer; default: the current workspace)" },
    "restore-cmd": { type: "string", valueHint: "cmd", description: "Run in workspace_root after every rejected candidate (split like a shell, never run by one)" },
    json: {
      ...ARGS.json,
      description: "Print one compact JSON document of the final scorecard {complete, final, final_score, final_scorecard, report} instead of the report markdown",
    },
  },
  mcp: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  exits: {
    ok: { code: 0, meaning: "the final gated scorecard is complete: every train and holdout case passes" },
    incomplete: { code: 1, meaning: "the run ended with failing gated cases, or the restore command failed" },
    usage: {
      ...ACCEPTANCE_USAGE,
      meaning: `${ACCEPTANCE_USAGE.meaning}; --max-iterations >= 2 without --restore-cmd; the run folder cannot be created or written`,
    },
    ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "the regression log is unwritable or has a corrupt line (LEDGER_UNAVAILABLE)" },
  },
  notes: [
    "The proposer is the config's sync CLI runtime (claude -p, codex exec, cursor-agent -p), run in workspace_root\n" + "with the task prompt as one argument. Each case command runs in workspace_root (timeout 900 s); exit 0 = pass.",
    "Both change the workspace in place, so --max-iterations 2 or more needs --restore-cmd (for example\n" + "'git checkout -- .'). Keep the config and run_dir outside workspace_root: the proposer can read that tree.",
  ],
  examples: ["mogui acceptance-loop run --config acceptance.json", "mogui acceptance-loop run --config acceptance.json --max-iterations 3 --restore-cmd 'git checkout -- .'", "mogui acceptance-loop run --config acceptance.json --json"],
  async run({ ctx, args, fail }) {
    const { config: loaded, casebook } = loadForCli(ctx, args.config);
    const restore = restoreArgv(args["restore-cmd"]);
    const config = { ...loaded, maxIterations: maxIterations(args["max-iterations"], restore !== undefined, loaded.maxIterations) };
    const say = (m: string) => logger(ctx, "acceptance-loop").log(m);
    const log = logger(ctx, "acceptance-loop");
    for (const w of exposureWarnings(config)) log.warn(w);
    prepareRunDir(config.runDir);
    // The appender contract (D18): the regression log is checked whole before anything runs; a LedgerError is
    // ledgerUnavailable (SHARED_ERRORS: `acceptance-loop: LEDGER_UNAVAILABLE: ...`).
    if (config.regressionLog) await checkLedger(config.regressionLog, { onWarning: (w) => log.warn(`${w.path}:${w.line}: ${w.message}`) });
    const baseline: Candidate = { label: BASELINE_LABEL, ref: args["baseline-ref"] ?? "", surfaces: [], summary: "" };
    const { report, error } = await runAcceptanceLoop({
      config,
      casebook,
      baseline,
      proposer: cliProposer(ctx, config, (m) => log.warn(m)),
      evaluator: commandEvaluator(ctx, config.workspaceRoot),
      regressionLog: config.regressionLog ? new RegressionLog(config.regressionLog, ctx.now, (w) => log.warn(`${w.path}: ${w.message}`)) : null,
      onReject: restore ? restorer(ctx, restore, config.workspaceRoot, say) : undefined,
      clock: ctx.now,
      progress: say,
      caseProgress: (stage) => progress(ctx, `acceptance-loop: ${stage} cases`),
    });
    const complete = isComplete(report.finalScore);
    const reportJson = `${config.runDir}/report.json`;
    if (args.json) {
      const finalScorecard = report.finalScorecard ? scorecardDict(report.finalScorecard) : null;
      printDoc(ctx, { complete, final: candidateDict(report.final), final_score: scorecardDict(report.finalScore), final_scorecard: finalScorecard, report: reportJson }, true);
    } else ctx.io.stdout(renderReportMarkdown(report));
    say(`report: ${reportJson}`);
    if (error !== undefined) return fail("incomplete", `acceptance-loop: ${error instanceof RestoreError ? error.message : errorMessage(error)}`);
    return complete ? "ok" : "incomplete";
  },
});
