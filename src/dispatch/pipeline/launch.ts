/**
 * The second half of `mogui dispatch` (reference §4.4 steps 3-12): the bound-Run check, codex pre-trust, recorded
 * gate, task-create, terminal, dispatch --inject (each reconciled after a late answer, reconcile.ts), register, the
 * host-diversity audit row and the delivery class. A run that stops before the worker starts records
 * `dispatch_aborted` (D38). Kept apart from pipeline.ts so each file reads as one stage.
 */
import { basename } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { appendRow, LedgerError } from "../../lib/ledger.ts";
import { OrcaClient } from "../../lib/orca/client.ts";
import { codexPretrust } from "../pretrust/codex.ts";
import { PretrustError } from "../pretrust/common.ts";
import { recordAbort } from "../gate/abort.ts";
import { gatePaths } from "../gate/paths.ts";
import { callGate, gateCheck, registerArgv, REGISTER_TIMEOUT_MS } from "./gate-client.ts";
import { classifyDelivery, paneClass, waitTuiIdle } from "./orca-steps.ts";
import type { PaneClass } from "./pane.ts";
import { createTask, createTerminal, ensureRun, injectDispatch, oneLine } from "./reconcile.ts";
import { Stop, type DispatchRequest, type Resolved, type Say } from "./types.ts";
import { jobProbeCommand, modelProbeCommand, newestMatch, probeTarget } from "./probe-target.ts";
import { DISPATCH_EXIT, deliveryJson, type DispatchReport } from "./report.ts";
import { runtimeCommand } from "./runtime.ts";
import { worktreePath } from "./worktree.ts";
import { errorMessage } from "../../lib/errors.ts";
import { jobCap, wireSpendBrake } from "../../workers/worker/brake-wiring.ts";

const ORCA_TIMEOUT_MS = 30_000;

function pretrustCodex(ctx: Ctx, say: Say, worktree: string | null, given: string | undefined): void {
  if (!worktree) {
    const hint = given ? ` (Orca's worktree list has no single worktree with a path for '${given}')` : "";
    throw new Stop("pretrust", DISPATCH_EXIT.REFUSED, [`✗ codex needs an absolute worktree path to pre-trust; got '${given ?? ""}'${hint}`]);
  }
  let lines: string[];
  try {
    lines = codexPretrust(ctx, { worktree }).lines;
  } catch (e) {
    if (e instanceof PretrustError) throw new Stop("pretrust", DISPATCH_EXIT.REFUSED, [`✗ codex pre-trust failed · ${e.message.split("\n")[0]}`]);
    throw e;
  }
  const summary = lines.find((l) => l.startsWith("Summary:"));
  if (!summary) throw new Stop("pretrust", DISPATCH_EXIT.REFUSED, ["✗ codex pre-trust printed no Summary line (unmeasured, treating as not trusted)"]);
  if (summary.includes("skipped")) throw new Stop("pretrust", DISPATCH_EXIT.REFUSED, [`✗ codex pre-trust skipped · ${summary}`]);
  say(`pre-trust ✓ codex · ${summary}`);
}

async function openTerminal(orca: OrcaClient, req: DispatchRequest, res: Resolved, say: Say, r: DispatchReport): Promise<string> {
  if (req.terminal) {
    Object.assign(r, { terminal: req.terminal, terminal_reused: true });
    return req.terminal;
  }
  // The title finds the terminal again when `terminal create` answers too late (D38).
  const handle = await createTerminal(orca, req, runtimeCommand(res.runtime, res.model), `mogui ${r.task_id}`, say, r);
  Object.assign(r, { terminal: handle, terminal_reused: false });
  const why = await waitTuiIdle(orca, handle);
  if (why) say(`WARNING: terminal ${handle} did not reach tui-idle: ${oneLine(why, 200)}`);
  return handle;
}

const NOT_VERIFIED_NOTE = [
  "  NOTE: the worker's model is NOT verified for this dispatch (no transcript to probe).",
  "  register recorded model_verified=false. Pass --transcript-glob '<glob>' (or run a claude",
  "  worker in a path: worktree) so register can measure the model, or check the worker's",
  "  model yourself before trusting its result.",
];

async function register(ctx: Ctx, orca: OrcaClient, req: DispatchRequest, res: Resolved, task: string, handle: string, dispatchId: string, r: DispatchReport): Promise<void> {
  const worktree = res.runtime === "claude" && !req.transcriptGlob ? await worktreePath(orca, req.worktree, handle) : null;
  const target = probeTarget(ctx, res.runtime, req.transcriptGlob, worktree);
  r.probe = target.state;
  const modelProbeCmd = target.glob === null ? undefined : modelProbeCommand(ctx.self, newestMatch(ctx, target.glob), res.model);
  const argv = registerArgv(ctx.self, {
    ledger: req.ledger,
    jobId: dispatchId,
    contractSha: r.contract_sha!,
    runtime: res.runtime,
    tierPolicy: req.tierPolicy,
    probeCmd: jobProbeCommand(orca.exe, task, dispatchId),
    task,
    declaredModel: res.model,
    modelProbeCmd,
  });
  const call = await callGate(ctx, argv, REGISTER_TIMEOUT_MS);
  const why = call.decision ? (call.decision.allow ? null : call.decision.reason) : `UNAVAILABLE (${call.failure})`;
  r.register_reason = call.decision?.reason ?? null;
  r.register_warnings = call.decision?.warnings ?? [];
  if (why) {
    throw new Stop("register", DISPATCH_EXIT.REGISTER, [`✗ register ${oneLine(why, 300)} · dispatch=${dispatchId} (worker IS running — resolve register manually)`, `  once it settles, clean up: mogui worker-reap --dispatch-id ${dispatchId}`]);
  }
}

function auditRow(ctx: Ctx, req: DispatchRequest, res: Resolved, say: Say, r: DispatchReport): void {
  const row = {
    ts: ctx.now() / 1000,
    kind: "host_diversity_audit",
    runtime: res.runtime,
    master_host_runtime: res.masterHost,
    same_host: res.runtime === res.masterHost,
    same_host_reason: req.sameHostReason?.trim() || null,
    installed_runtimes: res.installed,
    alternative_runtimes: res.alternatives,
    orchestration_task: r.task_id,
    job_id: r.dispatch_id,
    contract_sha: r.contract_sha,
  };
  try {
    appendRow(req.ledger, row);
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    say(`WARNING: host-diversity audit row not written: ${e.message}`);
  }
}

function deliveryVerdict(handle: string, cls: string): { code: number; line: string } {
  if (cls === "hook-trust") return { code: DISPATCH_EXIT.DELIVERY, line: `✗ delivery FAILED · hook/trust gate on ${handle}: answer the prompt in the pane (or pre-trust the worktree), then re-check the task` };
  if (cls === "limit") return { code: DISPATCH_EXIT.DELIVERY, line: `✗ delivery FAILED · provider limit on ${handle}: the worker cannot start until the limit resets` };
  if (cls === "agent-started") return { code: DISPATCH_EXIT.OK, line: `✓ delivery ✓ agent started on ${handle}` };
  return { code: DISPATCH_EXIT.OK, line: `⚠ delivery UNVERIFIED · ${handle} did not visibly start; look with: orca terminal read --terminal ${handle}` };
}

/** A unique task title (contract, sha, time): task-list finds the task by it when task-create answers late. */
function taskTitle(ctx: Ctx, req: DispatchRequest, sha: string): string {
  return `mogui ${basename(req.contract)} ${sha.slice(0, 8)} ${ctx.now().toString(36)}`;
}

/**
 * D38: the worker did not start, so the recorded check ALLOW gives its fan-out slot back (`dispatch_aborted`).
 * Best effort: a ledger that cannot take the row is a warning; the run's own exit says what happened.
 */
async function abortDispatch(ctx: Ctx, req: DispatchRequest, res: Resolved, stop: Stop, say: Say, r: DispatchReport): Promise<void> {
  try {
    const paths = gatePaths(ctx, req.ledger);
    const reason = oneLine(stop.detail.error ?? stop.lines[0] ?? stop.step, 300);
    const abortReq = { contractSha: r.contract_sha!, runtime: res.runtime, step: stop.step, reason, taskId: r.task_id, terminal: r.terminal };
    r.aborted_attempt = await recordAbort(paths, abortReq, ctx.now() / 1000);
    if (r.aborted_attempt !== null) say(`dispatch_aborted recorded (attempt ${r.aborted_attempt}): the gate slot of this dispatch is free again`);
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    say(`WARNING: dispatch_aborted not recorded (the gate slot stays taken until the window passes): ${oneLine(e.message, 200)}`);
  }
}

/**
 * D44: with a cap (--max-tokens, else the policy's job_token_caps) a claude worker's worktree gets the spend brake
 * hook before its terminal starts (Claude Code reads hooks at start). The job is the Orca task id. Checked BEFORE
 * the task is created: a flag-given cap that cannot be wired (another runtime, a reused terminal, no worktree path)
 * stops the run with nothing created in Orca; a policy cap only warns.
 */
async function brakePlan(orca: OrcaClient, req: DispatchRequest, res: Resolved, say: Say): Promise<{ max: number; source: "flag" | "policy"; worktree: string } | null> {
  const cap = jobCap(req.maxTokens, res.policy, res.model);
  if (!cap) return null;
  const refuse = (why: string): null => {
    if (cap.source === "flag") throw new Stop("task-create", DISPATCH_EXIT.REFUSED, [`✗ spend brake not wired: ${why}`]);
    say(`WARNING: spend brake (job_token_caps ${cap.max_tokens}) not wired: ${why}`);
    return null;
  };
  if (res.runtime !== "claude") return refuse(`the ${res.runtime} runtime has no PreToolUse hook (watch it with: mogui spend watch --follow --max-tokens ${cap.max_tokens})`);
  if (req.terminal) return refuse("--terminal reuses a running session, whose hooks are already read (start a new terminal with --worktree)");
  const worktree = await worktreePath(orca, req.worktree, undefined);
  if (!worktree) return refuse(`no absolute worktree path for '${req.worktree ?? ""}'`);
  return { max: cap.max_tokens, source: cap.source, worktree };
}

function wireBrake(ctx: Ctx, plan: { max: number; source: "flag" | "policy"; worktree: string }, say: Say, r: DispatchReport): void {
  let w;
  try {
    w = wireSpendBrake(plan.worktree, ctx.self, r.task_id!, plan.max);
  } catch (e) {
    if (plan.source === "flag") throw new Stop("task-create", DISPATCH_EXIT.REFUSED, [`✗ spend brake not wired: ${errorMessage(e)}`]);
    say(`WARNING: spend brake (job_token_caps ${plan.max}) not wired: ${errorMessage(e)}`);
    return;
  }
  r.spend_brake = { job: r.task_id!, max_tokens: plan.max, source: plan.source, settings: w.settings };
  say(`spend brake: ${w.change} in ${w.settings} (job ${r.task_id}, max ${plan.max} tokens)`);
}

/** task-create -> terminal -> dispatch: a Stop here (worker not started) aborts the dispatch, unless it may run. */
async function start(ctx: Ctx, orca: OrcaClient, req: DispatchRequest, res: Resolved, say: Say, r: DispatchReport): Promise<{ handle: string; pre: PaneClass }> {
  try {
    const brake = await brakePlan(orca, req, res, say);
    r.task_id = await createTask(orca, req.spec!, taskTitle(ctx, req, r.contract_sha!), say, r);
    if (brake) wireBrake(ctx, brake, say, r);
    const handle = await openTerminal(orca, req, res, say, r);
    say(`→ ${r.task_id} → ${handle} (${r.terminal_reused ? "reused" : "new"})`);
    const pre = await paneClass(orca, handle);
    r.dispatch_id = await injectDispatch(orca, r.task_id, handle, say, r);
    return { handle, pre };
  } catch (e) {
    if (e instanceof Stop && !e.detail.workerMayRun) await abortDispatch(ctx, req, res, e, say, r);
    throw e;
  }
}

export async function launchAndRegister(ctx: Ctx, req: DispatchRequest, res: Resolved, est: number | null, say: Say, r: DispatchReport): Promise<void> {
  const orca = new OrcaClient(ctx, { timeoutMs: req.orcaTimeoutMs ?? ORCA_TIMEOUT_MS });
  r.step = "run";
  await ensureRun(orca, req, `mogui dispatch ${basename(req.contract)}`, say, r, ctx.env.ORCA_TERMINAL_HANDLE);
  if (res.runtime === "codex") {
    r.step = "pretrust";
    pretrustCodex(ctx, say, await worktreePath(orca, req.worktree, req.terminal), req.worktree);
  }
  r.step = "gate";
  const recorded = await gateCheck(ctx, req, res, est, true);
  Object.assign(r, { contract_sha: recorded.contract_sha, gate_reason: recorded.reason, gate_warnings: recorded.warnings });
  if (!recorded.contract_sha) throw new Stop("gate", DISPATCH_EXIT.REFUSED, ["✗ gate ALLOW without a contract_sha; refusing to dispatch"]);
  const { handle, pre } = await start(ctx, orca, req, res, say, r);
  await register(ctx, orca, req, res, r.task_id!, handle, r.dispatch_id!, r);
  auditRow(ctx, req, res, say, r);
  const warn = r.register_warnings.length ? ` · warn:${r.register_warnings.join(",")}` : "";
  say(`⚡ register ✓ ${r.dispatch_id}${warn} · probe: job=ledger-matched model=${r.probe}`);
  if (r.probe === "unavailable") NOT_VERIFIED_NOTE.forEach((l) => say(l));
  const d = await classifyDelivery(orca, handle, pre, { intervalMs: req.deliveryPollMs });
  r.delivery = deliveryJson(d);
  say(`delivery pre=${d.pre} post=${d.post} class=${d.result}`);
  const verdict = deliveryVerdict(handle, d.result);
  say(verdict.line);
  if (verdict.code !== DISPATCH_EXIT.OK) throw new Stop("delivery", verdict.code, []);
}
