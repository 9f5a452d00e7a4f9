/** `mogui acceptance-loop run`: the deterministic acceptance loop (reference §13, D26), progress on stderr. */
import { ACCEPTANCE_EXIT, exposureWarnings, loadForCli, prepareRunDir } from "../../../src/evidence/acceptance/cli.ts";
import { BASELINE_LABEL, type Candidate } from "../../../src/evidence/acceptance/candidate.ts";
import { RestoreError, runAcceptanceLoop } from "../../../src/evidence/acceptance/loop.ts";
import { returnCode, tail } from "../../../src/evidence/acceptance/process.ts";
import { RegressionLog } from "../../../src/evidence/acceptance/regression-log.ts";
import { renderReportMarkdown } from "../../../src/evidence/acceptance/report.ts";
import { cliProposer, commandEvaluator } from "../../../src/evidence/acceptance/seams.ts";
import { ShlexError, shlexSplit } from "../../../src/evidence/acceptance/shlex.ts";
import { isComplete } from "../../../src/evidence/acceptance/verdict.ts";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { ExitError, UsageError, errorMessage } from "../../../src/lib/errors.ts";
import { checkLedger, LedgerError } from "../../../src/lib/ledger.ts";

const CMD = "acceptance-loop run";
export const RESTORE_TIMEOUT_MS = 300_000;

function maxIterations(raw: string | undefined, hasRestore: boolean, configured: number): number {
  if (raw === undefined) return hasRestore ? configured : 1;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--max-iterations must be an integer (got '${raw}')`, CMD);
  const n = Number(raw);
  if (n < 1) throw new UsageError("--max-iterations must be at least 1", CMD);
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

/** The appender contract (D18): the regression log is checked whole before anything runs. */
async function checkRegressionLog(path: string, say: (m: string) => void): Promise<void> {
  try {
    await checkLedger(path, { onWarning: (w) => say(`warning: ${w.path}:${w.line}: ${w.message}`) });
  } catch (e) {
    if (e instanceof LedgerError) throw new ExitError(ACCEPTANCE_EXIT.CONFIG, `acceptance-loop: LEDGER_UNAVAILABLE: ${e.message}`);
    throw e;
  }
}

export default defineMoguiCommand({
  meta: {
    name: CMD,
    description: [
      "Run the acceptance loop: evaluate the baseline, then per iteration let the proposer CLI see ONLY the visible",
      "(train) failures, evaluate its candidate on train + holdout, accept it only on a strict increase of the",
      "combined pass count, and restore the workspace (--restore-cmd) after a rejection. Writes report.json and",
      "report.md into the run dir and prints the report markdown. Progress goes to stderr.",
    ].join("\n"),
  },
  usage: ["acceptance-loop run --config <path> [--max-iterations <n>] [--baseline-ref <ref>] [--restore-cmd <cmd>]"],
  args: {
    config: { type: "string", valueHint: "path", required: true, description: "The acceptance config JSON" },
    "max-iterations": { type: "string", valueHint: "n", description: "Iterations to run (default 1; with --restore-cmd, the config's max_iterations)" },
    "baseline-ref": { type: "string", valueHint: "ref", description: "What the baseline is (shown to the proposer; default: the current workspace)" },
    "restore-cmd": { type: "string", valueHint: "cmd", description: "Run in workspace_root after every rejected candidate (split like a shell, never run by one)" },
  },
  notes: [
    "The proposer is the config's sync CLI runtime (claude -p, codex exec, cursor-agent -p), run in workspace_root\n" +
      "with the task prompt as one argument. Each case command runs in workspace_root (timeout 900 s); exit 0 = pass.",
    "Both change the workspace in place, so --max-iterations 2 or more needs --restore-cmd (for example\n" +
      "'git checkout -- .'). Keep the config and run_dir outside workspace_root: the proposer can read that tree.",
  ],
  examples: [
    "mogui acceptance-loop run --config acceptance.json",
    "mogui acceptance-loop run --config acceptance.json --max-iterations 3 --restore-cmd 'git checkout -- .'",
  ],
  async run(ctx, args) {
    const { config: loaded, casebook } = loadForCli(ctx, args.config as string);
    const restore = restoreArgv(args["restore-cmd"] as string | undefined);
    const config = { ...loaded, maxIterations: maxIterations(args["max-iterations"] as string | undefined, restore !== undefined, loaded.maxIterations) };
    const say = (m: string) => ctx.io.stderr(`acceptance-loop: ${m}\n`);
    for (const w of exposureWarnings(config)) say(`warning: ${w}`);
    prepareRunDir(config.runDir);
    if (config.regressionLog) await checkRegressionLog(config.regressionLog, say);
    const baseline: Candidate = { label: BASELINE_LABEL, ref: (args["baseline-ref"] as string | undefined) ?? "", surfaces: [], summary: "" };
    const { report, error } = await runAcceptanceLoop({
      config,
      casebook,
      baseline,
      proposer: cliProposer(ctx, config, (m) => say(`warning: ${m}`)),
      evaluator: commandEvaluator(ctx, config.workspaceRoot),
      regressionLog: config.regressionLog ? new RegressionLog(config.regressionLog, ctx.now, (w) => say(`warning: ${w.path}: ${w.message}`)) : null,
      onReject: restore ? restorer(ctx, restore, config.workspaceRoot, say) : undefined,
      clock: ctx.now,
      progress: say,
    });
    ctx.io.stdout(renderReportMarkdown(report));
    say(`report: ${config.runDir}/report.json`);
    if (error !== undefined) {
      if (error instanceof RestoreError) throw new ExitError(ACCEPTANCE_EXIT.INCOMPLETE, `acceptance-loop: ${error.message}`);
      throw new ExitError(ACCEPTANCE_EXIT.INCOMPLETE, `acceptance-loop: ${errorMessage(error)}`);
    }
    return isComplete(report.finalScore) ? ACCEPTANCE_EXIT.OK : ACCEPTANCE_EXIT.INCOMPLETE;
  },
});
