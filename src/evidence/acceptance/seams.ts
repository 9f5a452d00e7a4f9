/**
 * The proposer and the evaluator as they run for real: the proposer is a sync agent CLI (profile chosen by name
 * from src/adapter, prompt = task.md as ONE argv element, cwd = the workspace root); the evaluator runs each
 * case's argv in the workspace root with a timeout. Both change the workspace in place.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildProposerArgv } from "../adapter/profile.ts";
import type { Ctx } from "../../lib/context.ts";
import type { VerificationCase } from "./casebook.ts";
import { candidateLabel, readCandidate, type Candidate } from "./candidate.ts";
import type { AcceptanceConfig } from "./config.ts";
import { TASK_FILENAME, atomicWrite, jsonText } from "./layout.ts";
import { processDict, returnCode, tail } from "./process.ts";
import type { RawResult, Scorecard } from "./verdict.ts";

const DEFAULT_EVALUATOR_TIMEOUT_MS = 900_000;

interface ProposerContext {
  iteration: number;
  workspaceDir: string;
  current: Scorecard;
}

export type Proposer = ((p: ProposerContext) => Promise<Candidate | null>) & { mutatesWorkspaceInPlace?: boolean; describe?: string };

interface EvalHooks {
  label: string;
  onResult?: (index: number, total: number, r: RawResult) => void;
}

export type Evaluator = ((cases: readonly VerificationCase[], hooks: EvalHooks) => Promise<RawResult[]>) & { mutatesWorkspaceInPlace?: boolean };

export function markInPlace<T extends object>(fn: T): T & { mutatesWorkspaceInPlace: true } {
  return Object.assign(fn, { mutatesWorkspaceInPlace: true as const });
}

export function cliProposer(ctx: Pick<Ctx, "runner" | "env">, config: AcceptanceConfig, warn: (m: string) => void = () => {}): Proposer {
  const fn = async (p: ProposerContext): Promise<Candidate | null> => {
    const prompt = readFileSync(join(p.workspaceDir, TASK_FILENAME), "utf8");
    const argv = buildProposerArgv(config.proposerRuntime, prompt, config.proposerModel);
    const timeoutMs = config.proposerTimeoutSeconds * 1000;
    const r = await ctx.runner(argv, { cwd: config.workspaceRoot, env: ctx.env, timeoutMs });
    atomicWrite(join(p.workspaceDir, "proposer_result.json"), jsonText(processDict(r)));
    atomicWrite(join(p.workspaceDir, "proposer_stdout.log"), r.stdout);
    atomicWrite(join(p.workspaceDir, "proposer_stderr.log"), r.stderr);
    if (returnCode(r) !== 0) {
      warn(`proposer ${argv[0]} failed (exit ${returnCode(r)}${tail(r, timeoutMs) ? `: ${tail(r, timeoutMs)}` : ""}); no candidate`);
      return null;
    }
    const c = readCandidate(p.workspaceDir, candidateLabel(p.iteration));
    if (!c) warn(`proposer ${argv[0]} wrote no valid candidate.json; no candidate`);
    return c;
  };
  return Object.assign(markInPlace(fn), { describe: config.proposerRuntime });
}

export function commandEvaluator(ctx: Pick<Ctx, "runner" | "env" | "now">, workspaceRoot: string, timeoutMs = DEFAULT_EVALUATOR_TIMEOUT_MS): Evaluator {
  const fn = async (cases: readonly VerificationCase[], hooks: EvalHooks): Promise<RawResult[]> => {
    const out: RawResult[] = [];
    for (const [i, c] of cases.entries()) {
      let r: RawResult;
      if (c.command.length === 0) r = { caseId: c.caseId, passed: false, detail: "case has no command", durationS: 0 };
      else {
        const t0 = ctx.now();
        const res = await ctx.runner(c.command, { cwd: workspaceRoot, env: ctx.env, timeoutMs });
        const rc = returnCode(res);
        const durationS = Math.max(0, (ctx.now() - t0) / 1000);
        r = { caseId: c.caseId, passed: rc === 0, detail: rc === 0 ? "" : tail(res, timeoutMs) || `exit ${rc}`, durationS };
      }
      out.push(r);
      hooks.onResult?.(i + 1, cases.length, r);
    }
    return out;
  };
  return markInPlace(fn);
}
