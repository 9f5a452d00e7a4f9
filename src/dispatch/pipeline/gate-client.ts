/**
 * `mogui dispatch` talks to the gate the way the reference's bash script did: as a subprocess (`mogui
 * dispatch-gate check|register ...`, this very binary via ctx.self), reading its one JSON decision from stdout.
 * That keeps the gate's ledger lock, ticket and attempt numbering in one place.
 */
import * as v from "valibot";
import type { Ctx } from "../../lib/context.ts";
import { describeFailure } from "../../lib/runner.ts";
import { DISPATCH_EXIT, type DispatchStep } from "./report.ts";
import { Stop, type DispatchRequest, type Resolved } from "./types.ts";

const GATE_TIMEOUT_MS = 60_000;
/** register runs the orchestration probe, the job probe and the model probe (30 s each at most). */
export const REGISTER_TIMEOUT_MS = 150_000;

const Decision = v.looseObject({
  allow: v.boolean(),
  reason: v.string(),
  warnings: v.optional(v.array(v.string()), []),
  contract_sha: v.optional(v.nullable(v.string()), null),
  cost_proxy: v.optional(v.number(), 0),
  message: v.optional(v.string()),
});
export type GateReply = v.InferOutput<typeof Decision>;

export interface GateCall {
  /** The decision, or undefined when the gate could not be run or printed no decision. */
  decision?: GateReply;
  /** The gate's stdout as printed (the reference echoed the raw JSON on a deny). */
  raw: string;
  stderr: string;
  /** Why there is no decision. */
  failure?: string;
}

export interface CheckArgs {
  ledger: string;
  runtime: string;
  model: string;
  contract: string;
  /** null: let the gate measure (and deny CONTRACT_UNREADABLE when it cannot). */
  estChars: number | null;
  tierPolicy?: string;
  record: boolean;
}

export function checkArgv(self: readonly string[], a: CheckArgs): string[] {
  return [
    ...self,
    "dispatch-gate",
    "check",
    "--ledger",
    a.ledger,
    "--runtime",
    a.runtime,
    "--model",
    a.model,
    ...(a.tierPolicy ? ["--tier-policy", a.tierPolicy] : []),
    "--contract",
    a.contract,
    "--agents",
    "1",
    ...(a.estChars === null ? [] : ["--est-chars", String(a.estChars)]),
    "--completion-channel",
    "orchestration",
    ...(a.record ? [] : ["--no-record"]),
  ];
}

export interface RegisterArgs {
  ledger: string;
  jobId: string;
  contractSha: string;
  runtime: string;
  tierPolicy?: string;
  probeCmd: string;
  task: string;
  declaredModel: string;
  modelProbeCmd?: string;
}

export function registerArgv(self: readonly string[], a: RegisterArgs): string[] {
  return [
    ...self,
    "dispatch-gate",
    "register",
    "--ledger",
    a.ledger,
    "--job-id",
    a.jobId,
    "--contract-sha",
    a.contractSha,
    "--runtime",
    a.runtime,
    ...(a.tierPolicy ? ["--tier-policy", a.tierPolicy] : []),
    "--probe-cmd",
    a.probeCmd,
    "--orchestration-task",
    a.task,
    "--declared-model",
    a.declaredModel,
    ...(a.modelProbeCmd ? ["--model-probe-cmd", a.modelProbeCmd] : []),
  ];
}

/** Run one gate call; never throws. */
export async function callGate(ctx: Ctx, argv: string[], timeoutMs: number): Promise<GateCall> {
  const r = await ctx.runner(argv, { cwd: ctx.cwd, env: ctx.env, timeoutMs });
  const raw = r.stdout.trim();
  if (r.missing || r.timedOut || r.signal) return { raw, stderr: r.stderr, failure: describeFailure(r, timeoutMs) };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    const why = r.stderr.trim().split("\n")[0] || `no decision on stdout (exit ${r.code})`;
    return { raw, stderr: r.stderr, failure: why };
  }
  const d = v.safeParse(Decision, json);
  if (!d.success) return { raw, stderr: r.stderr, failure: `unexpected gate output: ${raw.slice(0, 200)}` };
  return { decision: d.output, raw, stderr: r.stderr };
}

/** One gate check (dry or recorded); a deny or a gate that cannot answer stops the pipeline with exit 2. */
export async function gateCheck(ctx: Ctx, req: DispatchRequest, res: Resolved, est: number | null, record: boolean): Promise<GateReply> {
  const step: DispatchStep = record ? "gate" : "dry-gate";
  const argv = checkArgv(ctx.self, { ledger: req.ledger, runtime: res.runtime, model: res.model, contract: req.contract, estChars: est, tierPolicy: req.tierPolicy, record });
  const call = await callGate(ctx, argv, GATE_TIMEOUT_MS);
  if (!call.decision) throw new Stop(step, DISPATCH_EXIT.REFUSED, [`✗ gate unavailable · ${call.failure}`]);
  if (!call.decision.allow) throw new Stop(step, DISPATCH_EXIT.REFUSED, [`✗ gate DENY · ${call.decision.reason} · model=${res.model} tier=${res.tier}`, call.raw]);
  return call.decision;
}
