/**
 * The deterministic acceptance loop (reference §13.5): evaluate the baseline, then per iteration hand the proposer
 * ONLY visible data, evaluate what it changed on the gated splits, accept on a strict pass-count increase, restore
 * the workspace after a rejection. The outcome is data (the report); nothing here decides by judgement.
 */
import { join } from "node:path";
import { GATED_SPLITS, renderSplitMarkdown, type CaseBook, type Split } from "./casebook.ts";
import { candidateChanged, type Candidate } from "./candidate.ts";
import { configToDict, type AcceptanceConfig } from "./config.ts";
import { AcceptanceRunLayout, iterationName } from "./layout.ts";
import type { RegressionLog } from "./regression-log.ts";
import { renderDecisionMarkdown, writeReport, type AcceptanceReport, type IterationRecord } from "./report.ts";
import type { Evaluator, Proposer } from "./seams.ts";
import { combinedPassed, combinedTotal, decide, failedCases, isComplete, resultDict, scoreResults, splitScoreDict, verdictDelta, decisionLabel, type Scorecard } from "./verdict.ts";
import { buildProposerWorkspace, type HistoryEntry } from "./workspace.ts";

export class LoopConfigError extends Error {
  override name = "LoopConfigError";
}

/** Thrown by on_reject when the workspace could not be restored: iterating on would evaluate the rejected tree. */
export class RestoreError extends Error {
  override name = "RestoreError";
}

export interface LoopDeps {
  config: AcceptanceConfig;
  casebook: CaseBook;
  baseline: Candidate;
  proposer: Proposer;
  evaluator: Evaluator;
  regressionLog?: RegressionLog | null;
  onReject?: (candidate: Candidate) => Promise<void>;
  clock: () => number;
  progress?: (message: string) => void;
  /** Per-stage case progress (the command's progress line); without it every case is one `progress` message. */
  caseProgress?: (stage: string) => CaseProgress;
}

/** What the loop needs of a progress display (src/lib/log.ts `progress` fits). */
interface CaseProgress {
  update(done: number, total?: number, item?: string): void;
  end(summary: string): void;
}

export function inPlaceGuard(maxIterations: number, proposer: Proposer, evaluator: Evaluator, hasOnReject: boolean): void {
  if (maxIterations < 1) throw new LoopConfigError("max_iterations must be at least 1");
  if (maxIterations < 2 || hasOnReject) return;
  const p = Boolean(proposer.mutatesWorkspaceInPlace);
  const e = Boolean(evaluator.mutatesWorkspaceInPlace);
  if (!p && !e) return;
  const who = p && e ? "proposer and evaluator mutate" : p ? "proposer mutates" : "evaluator mutates";
  throw new LoopConfigError(`${who} the workspace in place; pass on_reject to restore it after a rejected candidate, or set max_iterations=1. Iterating past a rejection without restoring would evaluate the rejected tree.`);
}

class Run {
  readonly layout: AcceptanceRunLayout;
  readonly history: HistoryEntry[] = [];
  readonly iterations: IterationRecord[] = [];
  book: CaseBook;

  constructor(readonly d: LoopDeps) {
    this.layout = new AcceptanceRunLayout(d.config.runDir);
    this.book = d.casebook;
  }

  say(m: string): void {
    this.d.progress?.(m);
  }

  async evaluate(label: string, splits: readonly Split[], stage: string): Promise<Scorecard> {
    const cases = this.book.cases.filter((c) => splits.includes(c.split));
    this.say(`${stage}: evaluating ${cases.length} case(s) of ${label}`);
    let passed = 0;
    const bar = this.d.caseProgress?.(stage);
    const raw = await this.d.evaluator(cases, {
      label,
      onResult: (i, n, r) => {
        if (r.passed) passed++;
        const item = `${r.passed ? "pass" : "FAIL"} (${passed} passing so far)`;
        if (bar) bar.update(i, n, item);
        else this.say(`${stage}: case ${i}/${n} ${item}`);
      },
    });
    bar?.end(`${passed}/${cases.length} case(s) of ${label} passing`);
    const card = scoreResults(label, cases, raw);
    for (const [split, s] of Object.entries(card.splits)) {
      const results = card.results.filter((r) => r.split === split).map(resultDict);
      this.layout.writeJson(this.layout.resultPath(split as Split, label), { ...splitScoreDict(s), label, results });
    }
    return card;
  }

  promote(card: Scorecard, iteration: number): string[] {
    if (!this.d.regressionLog) return [];
    return this.d.regressionLog.promote(failedCases(this.book.gatedCases(), card), iteration);
  }

  writeDecision(rec: IterationRecord): void {
    const v = rec.verdict!;
    const c = rec.candidate!;
    const visibleIds = new Set(this.book.visibleCases().map((x) => x.caseId));
    // history/visible may be handed to a proposer: private case ids never go in it, only their count.
    const visiblePins = rec.promotedRegressions.filter((id) => visibleIds.has(id));
    const decision = {
      iteration: rec.iteration,
      starting_label: rec.startingLabel,
      candidate_label: c.label,
      candidate_ref: c.ref,
      decision: decisionLabel(v),
      reason: v.reason,
      changed_surfaces: [...c.surfaces],
      current_combined: v.currentCombined,
      candidate_combined: v.candidateCombined,
      delta: verdictDelta(v),
      promoted_regressions: visiblePins,
      promoted_private_regressions: rec.promotedRegressions.length - visiblePins.length,
      summary: c.summary,
    };
    const dir = this.layout.iterationDir(rec.iteration);
    this.layout.writeJson(join(dir, "decision.json"), decision);
    this.layout.writeText(join(dir, "decision.md"), renderDecisionMarkdown(decision));
  }
}

async function iterate(run: Run, current: Candidate, score: Scorecard, max: number): Promise<{ current: Candidate; score: Scorecard; error?: unknown }> {
  const { d } = run;
  for (let i = 1; i <= max; i++) {
    const stage = `iteration ${i}/${max}`;
    if (isComplete(score)) {
      run.say(`${stage}: current candidate ${current.label} passes every gated case; stopping`);
      break;
    }
    const dir = buildProposerWorkspace(run.layout, { iteration: i, current, score, casebook: run.book, history: run.history });
    run.say(`${stage}: proposing${d.proposer.describe ? ` (${d.proposer.describe})` : ""} in ${iterationName(i)}`);
    const candidate = await d.proposer({ iteration: i, workspaceDir: dir, current: score });
    const rec: IterationRecord = { iteration: i, startingLabel: current.label, candidate, verdict: null, promotedRegressions: [] };
    run.iterations.push(rec);
    if (!candidate) {
      run.say(`${stage}: no candidate produced; stopping`);
      break;
    }
    if (!candidateChanged(candidate)) {
      rec.verdict = decide(score, score, false);
      run.writeDecision(rec);
      run.history.push({ iteration: i, decision: "rejected", reason: rec.verdict.reason, changed_surfaces: [] });
      run.say(`${stage}: candidate ${candidate.label} changed nothing (NO_CANDIDATE_CHANGE); stopping`);
      break;
    }
    const card = await run.evaluate(candidate.label, GATED_SPLITS, stage);
    rec.promotedRegressions = run.promote(card, i);
    rec.verdict = decide(score, card, true);
    run.writeDecision(rec);
    run.history.push({ iteration: i, decision: decisionLabel(rec.verdict), reason: rec.verdict.reason, changed_surfaces: [...candidate.surfaces] });
    run.say(`${stage}: ${decisionLabel(rec.verdict)} ${candidate.label} ${rec.verdict.reason} (combined ${rec.verdict.currentCombined} -> ${rec.verdict.candidateCombined})`);
    if (rec.verdict.accepted) {
      current = candidate;
      score = card;
    } else if (d.onReject) {
      try {
        await d.onReject(candidate);
      } catch (e) {
        return { current, score, error: e };
      }
    }
    run.say(`${stage}: current ${current.label}, combined ${combinedPassed(score)}/${combinedTotal(score)}`);
  }
  return { current, score };
}

export async function runAcceptanceLoop(d: LoopDeps): Promise<{ report: AcceptanceReport; error?: unknown }> {
  inPlaceGuard(d.config.maxIterations, d.proposer, d.evaluator, Boolean(d.onReject));
  d.casebook.validate();
  const run = new Run(d);
  if (d.regressionLog) run.book = d.regressionLog.apply(d.casebook);
  run.layout.writeJson(run.layout.manifest, configToDict(d.config));
  run.layout.writeJson(run.layout.split, run.book.manifest());
  run.layout.writeText(run.layout.splitMd, renderSplitMarkdown(run.book));
  const baselineScore = await run.evaluate(d.baseline.label, GATED_SPLITS, "baseline");
  run.promote(baselineScore, 0);
  run.say(`baseline: combined ${combinedPassed(baselineScore)}/${combinedTotal(baselineScore)}`);
  const hasScorecard = run.book.casesForSplit("scorecard").length > 0;
  const baselineScorecard = hasScorecard ? await run.evaluate(`${d.baseline.label}-scorecard`, ["scorecard"], "baseline scorecard") : null;
  const out = await iterate(run, d.baseline, baselineScore, d.config.maxIterations);
  let finalScorecard = baselineScorecard;
  // A restore that failed leaves the rejected tree: scoring it as "final" would be a lie.
  if (hasScorecard && out.current !== d.baseline && !out.error) {
    finalScorecard = await run.evaluate(`${out.current.label}-scorecard`, ["scorecard"], "final scorecard");
  }
  const report: AcceptanceReport = {
    createdAt: new Date(d.clock()).toISOString(),
    config: d.config,
    baseline: d.baseline,
    final: out.current,
    baselineScore,
    finalScore: out.score,
    baselineScorecard,
    finalScorecard,
    iterations: run.iterations,
  };
  writeReport(run.layout, report);
  return out.error === undefined ? { report } : { report, error: out.error };
}
