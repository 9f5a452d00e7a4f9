/**
 * The proposer workspace (reference §13.5 4a): the ONLY data a proposer is handed. Everything written here is
 * derived from visible-split results and the visible manifest; nothing in this file touches a private case.
 */
import { join } from "node:path";
import { isVisibleSplit, type CaseBook } from "./casebook.ts";
import { CANDIDATE_FILENAME, PROPOSAL_FILENAME, TASK_FILENAME, type AcceptanceRunLayout } from "./layout.ts";
import { resultDict, visibleFailures, type Scorecard } from "./verdict.ts";
import type { Candidate } from "./candidate.ts";

export interface HistoryEntry {
  iteration: number;
  decision: string;
  reason: string;
  changed_surfaces: string[];
}

export interface WorkspaceInput {
  iteration: number;
  current: Candidate;
  score: Scorecard;
  casebook: CaseBook;
  history: readonly HistoryEntry[];
}

function visibleScore(card: Scorecard): { passed: number; total: number } {
  const vis = card.results.filter((r) => isVisibleSplit(r.split));
  return { passed: vis.filter((r) => r.passed).length, total: vis.length };
}

function renderTask(dir: string, input: WorkspaceInput): string {
  const failures = visibleFailures(input.score);
  const { passed, total } = visibleScore(input.score);
  const lines = [
    "# Candidate Proposal Task",
    "",
    "Propose ONE candidate change to the repository under change (your working directory). Rules:",
    "",
    "- Fix the visible failures listed below. Other verification cases exist; you cannot see them, and they decide too.",
    "- The candidate is accepted only if the combined pass count strictly increases.",
    "- Edit the repository in place, then write the candidate file as JSON:",
    '  `{"surfaces": ["<each file or area you changed>"], "summary": "<what you changed and why>"}`.',
    "- An empty `surfaces` list means no change: it is recorded and the loop stops.",
    `- A longer rationale may go to \`${PROPOSAL_FILENAME}\` beside the candidate file.`,
    "",
    `Candidate file: ${join(dir, CANDIDATE_FILENAME)}`,
    `Proposal file: ${join(dir, PROPOSAL_FILENAME)}`,
    "",
    `Repository under change: ${input.current.ref || "current workspace"}`,
    `Current candidate: ${input.current.label}`,
    `Visible score: ${passed}/${total}`,
    "",
    "## Visible failures",
    "",
    ...(failures.length ? failures.map((f) => `- \`${f.caseId}\` [${f.stratum}]: ${f.detail || "failed"}`) : ["- No visible failures remain."]),
  ];
  return `${lines.join("\n")}\n`;
}

/** Writes the four workspace files; returns the workspace directory. */
export function buildProposerWorkspace(layout: AcceptanceRunLayout, input: WorkspaceInput): string {
  const dir = layout.proposerWorkspace(input.iteration);
  layout.writeJson(join(dir, "visible_failures.json"), visibleFailures(input.score).map(resultDict));
  layout.writeJson(join(dir, "casebook_visible.json"), input.casebook.visibleManifest());
  layout.writeJson(join(dir, "history.json"), input.history);
  layout.writeText(join(dir, TASK_FILENAME), renderTask(dir, input));
  return dir;
}
