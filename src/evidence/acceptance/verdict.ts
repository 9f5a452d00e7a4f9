/**
 * The verdict (reference §13.4): a pure pass-count comparison over the gated splits. No model judgement, no
 * heuristic score: a missing result is a failure, split and stratum come from the case book (an evaluator cannot
 * move a case), and only a STRICT increase of a CHANGED candidate is accepted.
 */
import { GATED_SPLITS, isVisibleSplit, type Split, type VerificationCase } from "./casebook.ts";

const MISSING_RESULT_DETAIL = "missing result";

export interface CaseResult {
  caseId: string;
  split: Split;
  stratum: string;
  passed: boolean;
  detail: string;
  durationS: number;
}

/** What an evaluator reports: only the id and the outcome are trusted. */
export interface RawResult {
  caseId: string;
  passed: unknown;
  detail?: string;
  durationS?: number;
  split?: unknown;
  stratum?: unknown;
}

export interface SplitScore {
  split: Split;
  passed: number;
  total: number;
  failedCaseIds: string[];
}

export interface Scorecard {
  label: string;
  splits: Partial<Record<Split, SplitScore>>;
  results: CaseResult[];
}

const AcceptanceReason = {
  PASS_COUNT_INCREASED: "PASS_COUNT_INCREASED",
  NO_PASS_COUNT_INCREASE: "NO_PASS_COUNT_INCREASE",
  NO_CANDIDATE_CHANGE: "NO_CANDIDATE_CHANGE",
} as const;
type AcceptanceReason = (typeof AcceptanceReason)[keyof typeof AcceptanceReason];

export interface AcceptanceVerdict {
  accepted: boolean;
  reason: AcceptanceReason;
  currentCombined: number;
  candidateCombined: number;
}

function correctness(s: SplitScore): number {
  return s.total === 0 ? 0 : s.passed / s.total;
}

export function splitScore(card: Scorecard, split: Split): SplitScore {
  return card.splits[split] ?? { split, passed: 0, total: 0, failedCaseIds: [] };
}

export function combinedPassed(card: Scorecard): number {
  return GATED_SPLITS.reduce((n, s) => n + splitScore(card, s).passed, 0);
}

export function combinedTotal(card: Scorecard): number {
  return GATED_SPLITS.reduce((n, s) => n + splitScore(card, s).total, 0);
}

export function isComplete(card: Scorecard): boolean {
  const total = combinedTotal(card);
  return total > 0 && combinedPassed(card) === total;
}

function failedResults(card: Scorecard): CaseResult[] {
  return card.results.filter((r) => !r.passed);
}

export function visibleFailures(card: Scorecard): CaseResult[] {
  return failedResults(card).filter((r) => isVisibleSplit(r.split));
}

/** One result per case, in case order. */
export function scoreResults(label: string, cases: readonly VerificationCase[], raw: readonly RawResult[]): Scorecard {
  const byId = new Map<string, RawResult>();
  for (const r of raw) if (!byId.has(r.caseId)) byId.set(r.caseId, r);
  const results: CaseResult[] = cases.map((c) => {
    const r = byId.get(c.caseId);
    if (!r) return { caseId: c.caseId, split: c.split, stratum: c.stratum, passed: false, detail: MISSING_RESULT_DETAIL, durationS: 0 };
    return { caseId: c.caseId, split: c.split, stratum: c.stratum, passed: Boolean(r.passed), detail: r.detail ?? "", durationS: r.durationS ?? 0 };
  });
  const splits: Partial<Record<Split, SplitScore>> = {};
  for (const r of results) {
    const s = (splits[r.split] ??= { split: r.split, passed: 0, total: 0, failedCaseIds: [] });
    s.total++;
    if (r.passed) s.passed++;
    else s.failedCaseIds.push(r.caseId);
  }
  return { label, splits, results };
}

export function decide(current: Scorecard, candidate: Scorecard, candidateChanged = true): AcceptanceVerdict {
  const currentCombined = combinedPassed(current);
  const candidateCombined = combinedPassed(candidate);
  const base = { currentCombined, candidateCombined };
  if (!candidateChanged) return { accepted: false, reason: AcceptanceReason.NO_CANDIDATE_CHANGE, ...base };
  if (candidateCombined > currentCombined) return { accepted: true, reason: AcceptanceReason.PASS_COUNT_INCREASED, ...base };
  return { accepted: false, reason: AcceptanceReason.NO_PASS_COUNT_INCREASE, ...base };
}

export const verdictDelta = (v: AcceptanceVerdict) => v.candidateCombined - v.currentCombined;
export const decisionLabel = (v: AcceptanceVerdict) => (v.accepted ? "accepted" : "rejected");

/** Failures mapped back to their case book entries, in book order. */
export function failedCases(cases: readonly VerificationCase[], card: Scorecard): VerificationCase[] {
  const failed = new Set(failedResults(card).map((r) => r.caseId));
  return cases.filter((c) => failed.has(c.caseId));
}

export function splitScoreDict(s: SplitScore): Record<string, unknown> {
  return { split: s.split, passed: s.passed, total: s.total, failed_case_ids: [...s.failedCaseIds], correctness: correctness(s) };
}

export function resultDict(r: CaseResult): Record<string, unknown> {
  return { case_id: r.caseId, split: r.split, stratum: r.stratum, passed: r.passed, detail: r.detail, duration_s: r.durationS };
}

export function scorecardDict(card: Scorecard): Record<string, unknown> {
  const splits: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(card.splits)) splits[k] = splitScoreDict(s);
  return { label: card.label, combined_passed: combinedPassed(card), combined_total: combinedTotal(card), splits, results: card.results.map(resultDict) };
}

export function verdictDict(v: AcceptanceVerdict): Record<string, unknown> {
  return { accepted: v.accepted, reason: v.reason, current_combined: v.currentCombined, candidate_combined: v.candidateCombined, delta: verdictDelta(v), decision: decisionLabel(v) };
}
