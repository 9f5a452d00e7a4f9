/**
 * `dispatch-gate check` (reference §3.3): the NORMATIVE evaluation order. Every decision is appended to the ledger
 * when recording; an ALLOW also gets its `attempt` number and a ticket. When recording, the whole evaluation runs
 * under the gate lock, so concurrent checks see each other's rows: fan-out caps hold and attempts are distinct.
 */
import { createHash } from "node:crypto";
import type { Ctx } from "../../lib/context.ts";
import { appendRow, type LedgerRow, type LedgerWarning } from "../../lib/ledger.ts";
import { priorAllows, rebuildProgress } from "./attempts.ts";
import type { Contract } from "./contract.ts";
import { lintContract, loadKnownRoots } from "./lint.ts";
import type { GatePaths } from "./paths.ts";
import { BATCH_DISPATCH_CHAR_LIMIT, COMPLETION_CHANNELS, HIGH_COST_RUNTIMES, RUNTIME_PATTERN, SINGLE_DISPATCH_CHAR_LIMIT, type GateDecision, type ReasonCode } from "./reasons.ts";
import { prepareTicket, takeGateLock, ticketPath } from "./tickets.ts";
import { capFor, loadTierPolicyFrom, modelKey, modelRuntimeMismatch, resolveTierPolicyPath, TierPolicyError, tierOf, type TierPolicy } from "../../lib/config/tier-policy.ts";
import { tierWindowAgents } from "./window.ts";
import { tierSpendSince } from "./spend-window.ts";

export interface CheckRequest {
  runtime: string;
  model?: string;
  /** The contract as read once by the caller; null = it could not be read. */
  contract: Contract | null;
  nAgents: number;
  /** null = the contract could not be read (CONTRACT_UNREADABLE). */
  estChars: number | null;
  completionChannel?: string;
  tierOverride?: string;
  tierPolicyPath?: string;
}

export interface CheckOutcome {
  decision: GateDecision;
  row: LedgerRow;
  /** Extra diagnostics for stderr (why a policy failed to load). */
  notes: string[];
}

function deny(reason: ReasonCode, extra: Partial<GateDecision> = {}): GateDecision {
  return { allow: false, reason, warnings: [], contract_sha: null, cost_proxy: 0, ...extra };
}

function validate(req: CheckRequest): ReasonCode | undefined {
  if (req.completionChannel === undefined || !COMPLETION_CHANNELS.has(req.completionChannel)) return "NO_COMPLETION_CHANNEL";
  if (req.model === undefined || req.model.trim() === "") return "NO_MODEL";
  if (req.model !== req.model.trim()) return "INVALID_REQUEST";
  if (req.tierOverride !== undefined && req.tierOverride.trim() === "") return "INVALID_REQUEST";
  if (req.runtime === "" || !RUNTIME_PATTERN.test(req.runtime)) return "INVALID_REQUEST";
  if (req.estChars !== null && req.estChars < 0) return "INVALID_REQUEST";
  if (req.nAgents < 1) return "INVALID_REQUEST";
  return undefined;
}

interface TierStep {
  deny?: GateDecision;
  warning?: ReasonCode;
  tier?: string;
  override?: string;
}

function tierStep(paths: GatePaths, req: CheckRequest, policy: TierPolicy, nowSec: number, warn: (w: LedgerWarning) => void): TierStep {
  const model = req.model!;
  const override = req.tierOverride?.trim();
  if (policy.version === 2) {
    const tier = tierOf(policy, model);
    const cap = capFor(policy, tier);
    const out: TierStep = { tier, warning: tier === "unknown" ? "TIER_UNKNOWN_MODEL" : undefined };
    if (cap !== null) {
      const used = tierWindowAgents(paths.ledger, policy, tier, nowSec, warn);
      if (used + req.nAgents > cap) {
        if (override === undefined) {
          const message = `tier=${tier} agents=${req.nAgents} used=${used} cap=${cap} window_seconds=${policy.windowSeconds}`;
          return { ...out, deny: deny("TIER_FANOUT_CAP", { message }) };
        }
        out.override = override;
      }
    }
    const spendCap = policy.spendCaps.get(tier);
    if (spendCap !== undefined) {
      const spent = tierSpendSince(paths.spendLedger, policy, tier, nowSec - policy.spendWindowSeconds, warn);
      if (spent >= spendCap) {
        if (override === undefined) {
          const message = `tier=${tier} spent_tokens=${spent} cap=${spendCap} window_seconds=${policy.spendWindowSeconds}`;
          return { ...out, deny: deny("SPEND_CAP_EXCEEDED", { message }) };
        }
        out.override = override;
      }
    }
    return out;
  }
  const key = modelKey(model);
  if (policy.workerAllowed.has(key)) return {};
  if (policy.workerDeniedTiers.has(key) || policy.unknownModel === "deny") {
    if (override === undefined) return { deny: deny("TIER_POLICY", { message: `model=${model}` }) };
    return { override };
  }
  return { warning: "TIER_POLICY" };
}

/** The evaluation proper; pure apart from reading the policy, the known roots and the ledger tail (the caller read the contract). */
function evaluate(ctx: Ctx, paths: GatePaths, req: CheckRequest, nowSec: number, warn: (w: LedgerWarning) => void): CheckOutcome {
  const policyPath = resolveTierPolicyPath(ctx, req.tierPolicyPath);
  const row: LedgerRow = {
    ts: nowSec,
    contract_sha: null,
    runtime: req.runtime,
    n_agents: req.nAgents,
    est_chars: req.estChars,
    completion_channel: req.completionChannel ?? null,
    model: req.model ?? null,
    tier_policy_path: policyPath,
  };
  const notes: string[] = [];
  const done = (decision: GateDecision): CheckOutcome => ({ decision, row, notes });
  if (req.estChars === null) return done(deny("CONTRACT_UNREADABLE"));
  const invalid = validate(req);
  if (invalid) return done(deny(invalid));
  let policy: TierPolicy;
  try {
    policy = loadTierPolicyFrom(policyPath);
  } catch (e) {
    if (!(e instanceof TierPolicyError)) throw e;
    notes.push(e.message);
    return done(deny("TIER_POLICY_UNAVAILABLE", { message: `tier_policy=${policyPath}` }));
  }
  row.tier_policy_sha256 = policy.digest;
  const tier = tierStep(paths, req, policy, nowSec, warn);
  if (tier.tier !== undefined) row.tier = tier.tier;
  if (tier.deny) return done(tier.deny);
  if (req.contract === null) return done(deny("CONTRACT_UNREADABLE"));
  const sha = createHash("sha256").update(req.contract.bytes).digest("hex");
  const warnings = lintContract(req.contract.text, loadKnownRoots(paths.knownRoots));
  if (tier.warning) warnings.push(tier.warning);
  if (modelRuntimeMismatch(req.model!, req.runtime)) warnings.push("MODEL_RUNTIME_MISMATCH");
  const costProxy = req.nAgents * req.estChars;
  const base = { warnings, contract_sha: sha, cost_proxy: costProxy, ...(tier.override !== undefined ? { tier_override: tier.override } : {}) };
  if (!ticketPath(paths.ticketDir, req.runtime, sha)) return done(deny("INVALID_REQUEST", base));
  if (req.estChars > SINGLE_DISPATCH_CHAR_LIMIT || costProxy > BATCH_DISPATCH_CHAR_LIMIT) return done(deny("BUDGET_EXCEEDED", base));
  const highCost = HIGH_COST_RUNTIMES.has(req.runtime.toLowerCase());
  if (highCost && req.nAgents >= 2) return done(deny("ROUTING_VIOLATION", base));
  if (highCost) warnings.push("HIGH_COST_RUNTIME");
  return done({ allow: true, reason: "OK", ...base });
}

function finishRow(row: LedgerRow, d: GateDecision): LedgerRow {
  row.contract_sha = d.contract_sha;
  row.decision = d.allow ? "ALLOW" : "DENY";
  row.reason = d.reason;
  row.cost_proxy = d.cost_proxy;
  if (d.warnings.length) row.warnings = [...d.warnings];
  if (d.tier_override !== undefined) row.tier_override = d.tier_override;
  return row;
}

/** Run one check; with `record`, append the row (and issue the ticket on ALLOW) under the gate lock. */
export async function runCheck(ctx: Ctx, paths: GatePaths, req: CheckRequest, record: boolean, warn: (w: LedgerWarning) => void): Promise<CheckOutcome> {
  const nowSec = ctx.now() / 1000;
  if (!record) {
    const e = evaluate(ctx, paths, req, nowSec, warn);
    return { decision: e.decision, row: finishRow(e.row, e.decision), notes: e.notes };
  }
  const release = takeGateLock(paths.ticketDir, paths.ledger, paths.lockTimeoutMs);
  try {
    const e = evaluate(ctx, paths, req, nowSec, warn);
    const row = finishRow(e.row, e.decision);
    if (!e.decision.allow || !e.decision.contract_sha) {
      appendRow(paths.ledger, row, { onWarning: warn });
      return { decision: e.decision, row, notes: e.notes };
    }
    const counter = priorAllows(paths.ledger, e.decision.contract_sha, rebuildProgress(ctx));
    row.attempt = counter.prior + 1;
    // Ticket tmp file first, ledger row second, ticket rename last: a failed append leaves no ticket behind.
    const ticket = prepareTicket(paths.ticketDir, req.runtime, e.decision.contract_sha, req.nAgents, nowSec);
    try {
      appendRow(paths.ledger, row, { onWarning: warn });
    } catch (err) {
      ticket.abort();
      throw err;
    }
    ticket.commit();
    counter.save();
    return { decision: e.decision, row, notes: e.notes };
  } finally {
    release();
  }
}
