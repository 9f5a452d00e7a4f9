/** The acceptance report (reference §13.6): report.json for machines, report.md for people, decision.md per iteration. */
import { candidateDict, type Candidate } from "./candidate.ts";
import { configToDict, type AcceptanceConfig } from "./config.ts";
import type { AcceptanceRunLayout } from "./layout.ts";
import { combinedPassed, combinedTotal, scorecardDict, splitScore, verdictDelta, decisionLabel, verdictDict, type AcceptanceVerdict, type Scorecard } from "./verdict.ts";

export interface IterationRecord {
  iteration: number;
  startingLabel: string;
  candidate: Candidate | null;
  verdict: AcceptanceVerdict | null;
  promotedRegressions: string[];
}

export interface AcceptanceReport {
  createdAt: string;
  config: AcceptanceConfig;
  baseline: Candidate;
  final: Candidate;
  baselineScore: Scorecard;
  finalScore: Scorecard;
  baselineScorecard: Scorecard | null;
  finalScorecard: Scorecard | null;
  iterations: IterationRecord[];
}

function reportDict(r: AcceptanceReport): Record<string, unknown> {
  return {
    created_at: r.createdAt,
    config: configToDict(r.config),
    baseline: candidateDict(r.baseline),
    final: candidateDict(r.final),
    baseline_score: scorecardDict(r.baselineScore),
    final_score: scorecardDict(r.finalScore),
    baseline_scorecard: r.baselineScorecard ? scorecardDict(r.baselineScorecard) : null,
    final_scorecard: r.finalScorecard ? scorecardDict(r.finalScorecard) : null,
    iterations: r.iterations.map((it) => ({
      iteration: it.iteration,
      starting_label: it.startingLabel,
      candidate: it.candidate ? candidateDict(it.candidate) : null,
      verdict: it.verdict ? verdictDict(it.verdict) : null,
      promoted_regressions: [...it.promotedRegressions],
    })),
  };
}

const frac = (card: Scorecard | null, split: "train" | "holdout" | "scorecard") => {
  if (!card) return "-";
  const s = splitScore(card, split);
  return `${s.passed}/${s.total}`;
};

const ticks = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(", ") : "none");

function iterationLines(it: IterationRecord): string[] {
  if (!it.candidate || !it.verdict) return [`- Iteration ${it.iteration}: no candidate produced`];
  const v = it.verdict;
  return [
    `- Iteration ${it.iteration}: ${decisionLabel(v)} \`${it.candidate.label}\``,
    `  - Reason: \`${v.reason}\``,
    `  - Combined: \`${v.currentCombined} -> ${v.candidateCombined}\` (delta \`${verdictDelta(v)}\`)`,
    `  - Changed surfaces: ${ticks(it.candidate.surfaces)}`,
    `  - Pinned regressions: ${ticks(it.promotedRegressions)}`,
  ];
}

export function renderReportMarkdown(r: AcceptanceReport): string {
  const accepted = r.iterations.filter((it) => it.verdict?.accepted).length;
  const out = [
    `# Acceptance Report: ${r.config.name}`,
    "",
    `- Baseline: \`${r.baseline.label}\``,
    `- Final: \`${r.final.label}\``,
    `- Accepted candidates: \`${accepted}/${r.iterations.length}\``,
    `- Final combined: \`${combinedPassed(r.finalScore)}/${combinedTotal(r.finalScore)}\``,
    "",
    "| Split | Baseline | Final |",
    "| --- | --- | --- |",
    `| train | ${frac(r.baselineScore, "train")} | ${frac(r.finalScore, "train")} |`,
    `| holdout | ${frac(r.baselineScore, "holdout")} | ${frac(r.finalScore, "holdout")} |`,
  ];
  if (r.baselineScorecard) out.push(`| scorecard | ${frac(r.baselineScorecard, "scorecard")} | ${frac(r.finalScorecard, "scorecard")} |`);
  out.push("", "## Iterations", "");
  if (r.iterations.length === 0) out.push("- No iterations were run.");
  for (const it of r.iterations) out.push(...iterationLines(it));
  return `${out.join("\n")}\n`;
}

export function renderDecisionMarkdown(d: {
  iteration: number;
  starting_label: string;
  candidate_label: string;
  decision: string;
  reason: string;
  current_combined: number;
  candidate_combined: number;
  delta: number;
  changed_surfaces: string[];
  summary: string;
}): string {
  const out = [
    `# Iteration ${d.iteration}`,
    "",
    `- Starting: \`${d.starting_label}\``,
    `- Candidate: \`${d.candidate_label}\``,
    `- Decision: \`${d.decision}\``,
    `- Reason: \`${d.reason}\``,
    `- Combined: \`${d.current_combined} -> ${d.candidate_combined}\` (delta \`${d.delta}\`)`,
    `- Changed surfaces: ${ticks(d.changed_surfaces)}`,
    "",
    "## Summary",
    "",
    d.summary || "_No proposal summary written._",
  ];
  return `${out.join("\n")}\n`;
}

export function writeReport(layout: AcceptanceRunLayout, r: AcceptanceReport): void {
  layout.writeJson(layout.reportJson, reportDict(r));
  layout.writeText(layout.reportMd, renderReportMarkdown(r));
}
