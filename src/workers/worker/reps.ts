/**
 * Measured runs (spawn-worker §2-5) recorded honestly: `completed` 0/1 (failures are data), the real `rounds`,
 * `blockers_found`; token counts only when measured (with where they were measured), otherwise omitted and the
 * notes say "tokens unknown". Reports group by launch profile `model@effort`, never a normalised name that merges
 * efforts.
 */
import type { LedgerRow } from "../../lib/ledger.ts";
import type { Job } from "./jobs.ts";
import { roundsOpened } from "./jobs.ts";

const TOKENS_UNKNOWN = "tokens unknown";

export interface RepInput {
  profile: string;
  model: string;
  effort: string | null;
  task: string;
  tier: string;
  role: string;
  grade: string | null;
  rounds: number;
  blockersFound: number;
  completed: 0 | 1;
  inputTokens: number | null;
  outputTokens: number | null;
  tokensSource: string | null;
  notes: string | null;
  job: Job | null;
}

function launchProfile(model: string, effort: string | null): string {
  return `${model}@${effort ?? "default"}`;
}

/** The refusals of the honesty rules; empty = the row may be recorded. */
export function repRefusals(r: RepInput): string[] {
  const out: string[] = [];
  const tokens = r.inputTokens !== null || r.outputTokens !== null;
  if (tokens && !r.tokensSource) out.push("a token count needs --tokens-source (where it was measured); a guessed number is refused: omit it instead");
  if (tokens && r.notes?.toLowerCase().includes(TOKENS_UNKNOWN)) out.push(`notes say '${TOKENS_UNKNOWN}' but token counts were given`);
  if (r.job) {
    const rounds = roundsOpened(r.job);
    const blockers = r.job.verdicts.filter((v) => v.outcome === "rework" || v.outcome === "escalated").reduce((n, v) => n + (Array.isArray(v.blockers) ? v.blockers.length : 0), 0);
    if (r.rounds !== rounds) out.push(`--rounds ${r.rounds} disagrees with the ledger: job ${r.job.id} opened ${rounds} rework round(s)`);
    if (r.blockersFound !== blockers) out.push(`--blockers-found ${r.blockersFound} disagrees with the ledger: job ${r.job.id} recorded ${blockers} BLOCKER(s)`);
    if (r.completed === 1 && r.job.state === "escalated") out.push(`--completed 1 but job ${r.job.id} was escalated`);
  }
  return out;
}

export function repRow(r: RepInput): LedgerRow {
  const tokens = r.inputTokens !== null || r.outputTokens !== null;
  let notes = r.notes;
  if (!tokens && !notes?.toLowerCase().includes(TOKENS_UNKNOWN)) notes = notes ? `${notes}; ${TOKENS_UNKNOWN}` : TOKENS_UNKNOWN;
  const row: LedgerRow = {
    event: "rep",
    launch_profile: launchProfile(r.model, r.effort),
    profile: r.profile,
    model: r.model,
    effort: r.effort,
    task: r.task,
    tier: r.tier,
    role: r.role,
    grade: r.grade,
    rounds: r.rounds,
    blockers_found: r.blockersFound,
    completed: r.completed,
    notes,
  };
  if (r.inputTokens !== null) row.input_tokens = r.inputTokens;
  if (r.outputTokens !== null) row.output_tokens = r.outputTokens;
  if (tokens) row.tokens_source = r.tokensSource;
  if (r.job) row.job_id = r.job.id;
  return row;
}

export interface ProfileStats {
  launch_profile: string;
  runs: number;
  completed: number;
  completion_rate: number;
  rounds: number;
  avg_rounds: number;
  blockers_found: number;
  token_runs: number;
  input_tokens: number;
  output_tokens: number;
}

export function aggregate(rows: LedgerRow[]): ProfileStats[] {
  const by = new Map<string, ProfileStats>();
  for (const r of rows) {
    const key = String(r.launch_profile);
    const s = by.get(key) ?? { launch_profile: key, runs: 0, completed: 0, completion_rate: 0, rounds: 0, avg_rounds: 0, blockers_found: 0, token_runs: 0, input_tokens: 0, output_tokens: 0 };
    s.runs++;
    s.completed += r.completed === 1 ? 1 : 0;
    s.rounds += Number(r.rounds) || 0;
    s.blockers_found += Number(r.blockers_found) || 0;
    if (typeof r.input_tokens === "number" || typeof r.output_tokens === "number") {
      s.token_runs++;
      s.input_tokens += typeof r.input_tokens === "number" ? r.input_tokens : 0;
      s.output_tokens += typeof r.output_tokens === "number" ? r.output_tokens : 0;
    }
    by.set(key, s);
  }
  return [...by.values()].map((s) => ({ ...s, completion_rate: Math.round((s.completed / s.runs) * 1000) / 1000, avg_rounds: Math.round((s.rounds / s.runs) * 100) / 100 })).sort((a, b) => a.launch_profile.localeCompare(b.launch_profile));
}
