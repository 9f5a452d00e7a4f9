/** A candidate: a labelled state of the workspace plus what the proposer says it changed. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CANDIDATE_FILENAME, PROPOSAL_FILENAME } from "./layout.ts";

export const BASELINE_LABEL = "baseline";
export const candidateLabel = (i: number) => `iter-${String(i).padStart(3, "0")}`;

export interface Candidate {
  label: string;
  ref: string;
  surfaces: string[];
  summary: string;
}

export const candidateChanged = (c: Candidate) => c.surfaces.length > 0;

export function candidateDict(c: Candidate): Record<string, unknown> {
  return { label: c.label, ref: c.ref, surfaces: [...c.surfaces], summary: c.summary, changed: candidateChanged(c) };
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * candidate.json from the proposer workspace. Missing, invalid JSON, not an object or `surfaces` not a list: no
 * candidate. Surfaces are the non-blank strings; the summary falls back to proposal.md.
 */
export function readCandidate(workspace: string, label: string): Candidate | null {
  const text = readText(join(workspace, CANDIDATE_FILENAME));
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  if (!Array.isArray(o.surfaces)) return null;
  const surfaces = o.surfaces.filter((s): s is string => typeof s === "string" && s.trim() !== "").map((s) => s.trim());
  let summary = typeof o.summary === "string" && o.summary.trim() !== "" ? o.summary.trim() : "";
  if (!summary) summary = (readText(join(workspace, PROPOSAL_FILENAME)) ?? "").trim();
  return { label, ref: typeof o.ref === "string" ? o.ref : "", surfaces, summary };
}
