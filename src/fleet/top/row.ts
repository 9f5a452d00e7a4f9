/** One row of `mogui top` and the frame's totals: the data the screen, `--once` and `--once --json` all show. */
import type { TopGroup, TopState } from "./classify.ts";

export interface Reap {
  safe: boolean;
  reason?: string;
}

export interface TopRow {
  /** The job id, else the dispatch id, else the worktree's directory name. */
  id: string;
  source: "job" | "dispatch" | "worktree";
  /** `herdr`, `orca` or null, and the recorded pane / terminal. */
  host: string | null;
  pane: string | null;
  agent: string | null;
  /** Observed in the transcript when one was found, else the claimed one. */
  model: string | null;
  model_claimed: string | null;
  model_observed: string | null;
  /** Tier of the model in the tier policy (null without a policy), and the worker tier (T1-T3) of a job. */
  tier: string | null;
  job_tier: string | null;
  state: TopState;
  stuck: boolean;
  escalated: boolean;
  verdict_pending: boolean;
  group: TopGroup;
  age_seconds: number | null;
  /** Seconds since the last transcript activity. */
  idle_seconds: number | null;
  tokens: number | null;
  /** In the price table's currency; null when unpriced or no price table. */
  spend: number | null;
  /** Tokens (or spend, when priced) per hour since the first response. */
  burn_tokens_per_hour: number | null;
  burn_spend_per_hour: number | null;
  /** true: `git ls-remote` shows the claimed SHA; false: claimed but not there; null: nothing claimed. */
  pushed: boolean | null;
  claimed_sha: string | null;
  verdict: string | null;
  reap: Reap;
  repo: string | null;
  worktree: string | null;
  branch: string | null;
  brief: string | null;
  transcripts: string[];
  /** What the binding reconciliation says about this worktree (source, drift), when fleet scan reports it. */
  binding_source: unknown;
  drift: unknown;
}

export interface TierLine {
  tier: string;
  agents: number;
  cap: number | null;
  spent_tokens: number;
  spend_cap: number | null;
}

export interface TopTotals {
  rows: number;
  groups: Record<TopGroup, number>;
  tokens: number;
  spend: number | null;
  currency: string | null;
  burn_tokens_per_hour: number;
  tiers: TierLine[];
  window_seconds: number | null;
  /** Host or record problems worth a line on the screen (a host that failed, a repository not scanned). */
  warnings: string[];
  /** Epoch ms the frame was read at. */
  at: number;
}

export interface TopFrame {
  rows: TopRow[];
  totals: TopTotals;
}
