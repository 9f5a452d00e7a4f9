/**
 * `dispatch-gate register` (reference §3.8-3.10, DECISIONS D9, D10, D12, D19). Order: request validation ->
 * candidate selection (D10: no candidate -> NO_MATCHING_TICKET without any probe) -> orchestration probe (unless
 * the pending dispatch uses the sentinel-log channel) -> model probe -> job probe -> model verification ->
 * re-selection, ticket consumption (D9) and the ledger rows, under the gate lock. Probes run OUTSIDE the lock
 * (they may take up to 30 s each); the candidate is selected again under the lock and must be the same row.
 */
import type { Ctx } from "../../lib/context.ts";
import { appendRow, appendRows, type LedgerRow, type LedgerWarning } from "../../lib/ledger.ts";
import { isSettled } from "../../workers/reap/worker-reap.ts";
import { priorAllows, rebuildProgress } from "./attempts.ts";
import type { GatePaths } from "./paths.ts";
import { measureModel, probeJob, probeOrchestration } from "./probes.ts";
import { RUNTIME_PATTERN, type GateDecision, type ReasonCode } from "./reasons.ts";
import { isSelection, selectCandidate, type Selection } from "./selection.ts";
import { removeTicket, takeGateLock } from "./tickets.ts";
import { costRank, loadTierPolicyFrom, modelKey, resolveTierPolicyPath, TierPolicyError, tierOf } from "../../lib/config/tier-policy.ts";

export interface RegisterRequest {
  jobId: string;
  probeCmd: string;
  contractSha?: string;
  runtime?: string;
  orchestrationTask?: string;
  tierPolicyPath?: string;
  declaredModel?: string;
  modelProbeCmd?: string;
}

function deny(reason: ReasonCode, message?: string): GateDecision {
  return { allow: false, reason, warnings: [], contract_sha: null, cost_proxy: 0, ...(message ? { message } : {}) };
}

interface ModelCheck {
  deny?: GateDecision;
  warning?: ReasonCode;
}

/** Reference §3.9 with D12 (tiers ranked by cost: a measured model in a more expensive tier is an escalation). */
function verifyModel(ctx: Pick<Ctx, "env" | "cwd">, policyFlag: string | undefined, declared: string | null, measured: string | null, probeFailed: boolean): ModelCheck {
  if (!declared) return { warning: "MODEL_UNVERIFIED" };
  if (probeFailed) return { warning: "MODEL_PROBE_FAILED" };
  if (!measured) return { warning: "MODEL_UNVERIFIED" };
  if (modelKey(declared) === modelKey(measured)) return {};
  let policy;
  try {
    policy = loadTierPolicyFrom(resolveTierPolicyPath(ctx, policyFlag));
  } catch (e) {
    if (e instanceof TierPolicyError) return { warning: "MODEL_MISMATCH" };
    throw e;
  }
  if (policy.version !== 2) return { warning: "MODEL_MISMATCH" };
  const dt = tierOf(policy, declared);
  const mt = tierOf(policy, measured);
  if (costRank(policy, mt) < costRank(policy, dt)) {
    return { deny: deny("MODEL_TIER_ESCALATION", `declared=${declared} tier=${dt} measured=${measured} tier=${mt}`) };
  }
  return { warning: "MODEL_MISMATCH" };
}

export interface RegisterOutcome {
  decision: GateDecision;
}

function normaliseFilter(raw: string | undefined): string | undefined | null {
  if (raw === undefined) return undefined;
  const f = raw.trim().toLowerCase();
  return f.length >= 12 && /^[0-9a-f]+$/.test(f) ? f : null;
}

function registerRows(req: RegisterRequest, sel: Selection, nowSec: number, declared: string | null, measured: string | null, probeFailed: boolean, warning: ReasonCode | undefined, status: string | undefined): LedgerRow[] {
  const p = sel.pending.row;
  const row: LedgerRow = {
    ts: nowSec,
    contract_sha: p.contract_sha,
    runtime: p.runtime,
    n_agents: p.n_agents,
    est_chars: p.est_chars,
    decision: "ALLOW",
    reason: "OK",
    job_id: req.jobId,
    completion_channel: p.completion_channel ?? null,
    model_verified: Boolean(declared && measured && !probeFailed),
  };
  if (req.orchestrationTask !== undefined) row.orchestration_task = req.orchestrationTask;
  if (declared) row.model_declared = declared;
  if (measured) row.model_measured = measured;
  if (warning) row.warnings = [warning];
  // D19: the lifecycle rows ReapObservability reads (`mogui worker-reap --unreaped`).
  const life: LedgerRow = { ts: nowSec, event: "dispatch_submitted", dispatch_id: req.jobId, task_id: req.orchestrationTask ?? null, contract_sha: p.contract_sha, runtime: p.runtime };
  if (status) life.status = status;
  const rows = [row, life];
  if (status && isSettled(status)) rows.push({ ts: nowSec, event: "dispatch_completed", dispatch_id: req.jobId, task_id: req.orchestrationTask ?? null, status });
  return rows;
}

export async function runRegister(ctx: Ctx, paths: GatePaths, req: RegisterRequest, warn: (w: LedgerWarning) => void): Promise<RegisterOutcome> {
  const nowSec = () => ctx.now() / 1000;
  const runtime = req.runtime === undefined ? undefined : req.runtime.trim().toLowerCase();
  if (runtime !== undefined && !RUNTIME_PATTERN.test(runtime)) return { decision: deny("INVALID_REQUEST", `runtime=${req.runtime}`) };
  const filter = normaliseFilter(req.contractSha);
  if (filter === null) return { decision: deny("INVALID_REQUEST", `contract_sha=${req.contractSha} (need at least 12 hex digits)`) };
  const select = async () => {
    const release = takeGateLock(paths.ticketDir, paths.ledger, paths.lockTimeoutMs);
    try {
      return await selectCandidate(paths.ledger, paths.ticketDir, nowSec(), filter, runtime, warn);
    } finally {
      release();
    }
  };
  const first = await select();
  if (!isSelection(first)) return { decision: first };
  let status: string | undefined;
  if (first.pending.row.completion_channel !== "sentinel-log") {
    const probe = await probeOrchestration(ctx, req.orchestrationTask);
    if (probe.failure) {
      const row: LedgerRow = { ts: nowSec(), decision: "DENY", reason: "ORCHESTRATION_UNVERIFIED", job_id: req.jobId, probe_failure: probe.failure };
      if (req.orchestrationTask !== undefined) row.orchestration_task = req.orchestrationTask;
      appendRow(paths.ledger, row, { onWarning: warn });
      return { decision: deny("ORCHESTRATION_UNVERIFIED", `probe_failure=${probe.failure}`) };
    }
    status = probe.status;
  }
  const model = await measureModel(ctx, req.modelProbeCmd);
  if (!(await probeJob(ctx, req.probeCmd, req.jobId))) return { decision: deny("UNVERIFIED_JOB", `job_id=${req.jobId}`) };
  const declared = req.declaredModel?.trim() ? req.declaredModel : null;
  const verdict = verifyModel(ctx, req.tierPolicyPath, declared, model.measured, model.failed);
  if (verdict.deny) {
    appendRow(paths.ledger, { ts: nowSec(), decision: "DENY", reason: "MODEL_TIER_ESCALATION", job_id: req.jobId, model_declared: declared, model_measured: model.measured, model_verified: true }, { onWarning: warn });
    return { decision: verdict.deny };
  }
  return commit(ctx, paths, req, first, { filter, runtime, status, declared, measured: model.measured, probeFailed: model.failed, warning: verdict.warning }, warn);
}

interface CommitInfo {
  filter: string | undefined;
  runtime: string | undefined;
  status: string | undefined;
  declared: string | null;
  measured: string | null;
  probeFailed: boolean;
  warning: ReasonCode | undefined;
}

async function commit(ctx: Ctx, paths: GatePaths, req: RegisterRequest, first: Selection, info: CommitInfo, warn: (w: LedgerWarning) => void): Promise<RegisterOutcome> {
  const release = takeGateLock(paths.ticketDir, paths.ledger, paths.lockTimeoutMs);
  try {
    const nowSec = ctx.now() / 1000;
    const again = await selectCandidate(paths.ledger, paths.ticketDir, nowSec, info.filter, info.runtime, warn);
    if (!isSelection(again)) return { decision: again };
    if (again.pending.offset !== first.pending.offset) {
      return { decision: deny("NO_MATCHING_TICKET", "candidate_contract_shas=<none> (registered concurrently)") };
    }
    const sha = again.pending.row.contract_sha;
    const counter = priorAllows(paths.ledger, sha, rebuildProgress(ctx));
    const rows = registerRows(req, again, nowSec, info.declared, info.measured, info.probeFailed, info.warning, info.status);
    rows[0]!.attempt = counter.prior + 1;
    appendRows(paths.ledger, rows, { onWarning: warn });
    counter.save();
    if (again.ticket) removeTicket(again.ticket);
    const est = again.pending.row.est_chars;
    const decision: GateDecision = {
      allow: true,
      reason: "OK",
      warnings: info.warning ? [info.warning] : [],
      contract_sha: sha,
      cost_proxy: typeof est === "number" && Number.isFinite(est) ? Math.trunc(est) : 0,
      ...(again.ticketAbsent && info.filter !== undefined ? { message: "ticket_absent" } : {}),
    };
    return { decision };
  } finally {
    release();
  }
}
