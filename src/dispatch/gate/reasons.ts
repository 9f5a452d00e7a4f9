/** The gate's vocabulary (reference §3.13, DECISIONS D13): reason codes, probe failures and the shared constants. */
export const REASON_CODES = [
  "OK",
  "BUDGET_EXCEEDED",
  "ROUTING_VIOLATION",
  "UNVERIFIED_JOB",
  "INVALID_REQUEST",
  "NO_COMPLETION_CHANNEL",
  "NO_MODEL",
  "ORCHESTRATION_UNVERIFIED",
  "CONTRACT_UNREADABLE",
  "HIGH_COST_RUNTIME",
  "AMBIGUOUS_TICKET",
  "NO_MATCHING_TICKET",
  "MCP_TRUST_UNHANDLED",
  "PATH_OUTSIDE_KNOWN_ROOTS",
  "WORKTREE_AS_REPO_ROOT",
  "TIER_POLICY",
  "TIER_POLICY_UNAVAILABLE",
  "TIER_FANOUT_CAP",
  // D37: right after TIER_FANOUT_CAP in the evaluation order.
  "SPEND_CAP_EXCEEDED",
  "TIER_UNKNOWN_MODEL",
  "MODEL_TIER_ESCALATION",
  "MODEL_MISMATCH",
  "MODEL_UNVERIFIED",
  "MODEL_PROBE_FAILED",
  // D13: a warning, never a denial at the gate (`mogui dispatch` refuses the pair itself).
  "MODEL_RUNTIME_MISMATCH",
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export const PROBE_FAILURES = ["orca_missing", "probe_timeout", "probe_unparseable", "task_omitted", "task_not_found"] as const;
export type ProbeFailure = (typeof PROBE_FAILURES)[number];

export const SINGLE_DISPATCH_CHAR_LIMIT = 500_000;
export const BATCH_DISPATCH_CHAR_LIMIT = 1_000_000;
export const HIGH_COST_RUNTIMES: ReadonlySet<string> = new Set(["fable"]);
export const TICKET_TTL_SECONDS = 600;
export const EXPIRED_TICKET_GC_GRACE_SECONDS = 86_400;
export const RUNTIME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const COMPLETION_CHANNELS: ReadonlySet<string> = new Set(["orchestration", "sentinel-log"]);
export const ORCHESTRATION_PROBE_TIMEOUT_MS = 30_000;
export const MODEL_PROBE_TIMEOUT_MS = 30_000;
export const JOB_PROBE_TIMEOUT_MS = 30_000;

/** What check and register print on stdout (compact, sorted keys). */
export interface GateDecision {
  allow: boolean;
  reason: ReasonCode;
  warnings: ReasonCode[];
  contract_sha: string | null;
  cost_proxy: number;
  message?: string;
  tier_override?: string;
}

export function decisionJson(d: GateDecision): Record<string, unknown> {
  const out: Record<string, unknown> = {
    allow: d.allow,
    contract_sha: d.contract_sha,
    cost_proxy: d.cost_proxy,
    reason: d.reason,
    warnings: d.warnings,
  };
  if (d.message) out.message = d.message;
  if (d.tier_override !== undefined) out.tier_override = d.tier_override;
  return out;
}

/** D11: `dispatch-gate: <REASON>` plus `: <message>` when there is one, for check and register alike. */
export function denyLine(d: GateDecision): string {
  return `dispatch-gate: ${d.reason}${d.message ? `: ${d.message}` : ""}\n`;
}
