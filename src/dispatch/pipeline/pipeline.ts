/**
 * `mogui dispatch` (reference §4): the supervised pipeline. Resolve runtime and model, refuse what the gate never
 * sees (vendor mismatch, unapproved top tier), dry gate, [codex pre-trust], recorded gate, task-create, [terminal
 * create + wait], dispatch --inject, register, host-diversity audit row, delivery classification. Every human line
 * goes through `say` (stderr); the returned report is the data.
 */
import { isFile } from "../../lib/fs.ts";
import type { Ctx } from "../../lib/context.ts";
import { checkWritable, LedgerError } from "../../lib/ledger.ts";
import { contractChars } from "../gate/contract.ts";
import { OrcaError } from "../../lib/orca/client.ts";
import { deriveModelForRuntime, loadTierPolicy, modelRuntimeMismatch, modelVendor, tierOf, TierPolicyError, type TierPolicy } from "../../lib/config/tier-policy.ts";
import { collisionCheck, warningLine } from "./collision.ts";
import { gateCheck } from "./gate-client.ts";
import { DISPATCH_EXIT, emptyReport, type DispatchReport } from "./report.ts";
import { InstanceConfigError } from "../../lib/config/instance.ts";
import { defaultRuntime, fallbackWarning, installedRuntimes, resolveMasterHost } from "./runtime.ts";
import { launchAndRegister } from "./launch.ts";
import { oneLine } from "./reconcile.ts";
import { Stop, type DispatchRequest, type Resolved, type Say } from "./types.ts";

/** The reference's default model, used when neither --model nor the tier policy names one for the runtime. */
const DEFAULT_MODEL = "claude-haiku-4-5-20251001";

/** `est 3.0k` as the reference printed it (integer thousands and hundreds). */
export function estLabel(est: number): string {
  return `${Math.floor(est / 1000)}.${Math.floor((est % 1000) / 100)}k`;
}

function resolveHost(ctx: Ctx, say: Say, r: DispatchReport): { runtime: string } {
  try {
    const host = resolveMasterHost(ctx);
    r.master_host_runtime = host.runtime;
    r.master_host_source = host.source;
    if (host.source === "fallback") say(fallbackWarning(host.configPath));
    return host;
  } catch (e) {
    if (e instanceof InstanceConfigError) throw new Stop("instance-config", DISPATCH_EXIT.REFUSED, [`✗ instance runtime config: ${e.message}`]);
    throw e;
  }
}

function loadPolicy(ctx: Ctx, path: string | undefined): TierPolicy {
  try {
    return loadTierPolicy(ctx, path);
  } catch (e) {
    if (e instanceof TierPolicyError) throw new Stop("tier-policy", DISPATCH_EXIT.REFUSED, [`✗ tier policy unavailable · ${e.message}`]);
    throw e;
  }
}

/** §4.2: master host, policy, runtime, model, vendor pair, same host, tier, top-tier approval. */
function resolveDispatch(ctx: Ctx, req: DispatchRequest, say: Say, r: DispatchReport): Resolved {
  const host = resolveHost(ctx, say, r);
  const policy = loadPolicy(ctx, req.tierPolicy);
  const installed = installedRuntimes(ctx);
  r.installed_runtimes = installed;
  const runtime = req.runtime ?? defaultRuntime(installed, host.runtime);
  const model = req.model ?? deriveModelForRuntime(policy, runtime) ?? DEFAULT_MODEL;
  if (!req.model && model !== DEFAULT_MODEL) say(`model derived for runtime ${runtime} from tier policy: ${model}`);
  Object.assign(r, { runtime, model });
  if (modelRuntimeMismatch(model, runtime)) {
    const vendor = modelVendor(model);
    throw new Stop("model-runtime", DISPATCH_EXIT.REFUSED, [
      `✗ model/runtime mismatch · model=${model} (vendor ${vendor}) runtime=${runtime}`,
      `  A ${runtime} worker cannot run a ${vendor} model: pass a --model the runtime serves, or --runtime ${vendor === "gemini" ? "gemini|agy" : vendor}.`,
    ]);
  }
  const alternatives = installed.filter((x) => x !== host.runtime);
  r.same_host = runtime === host.runtime;
  const alt = alternatives.join(",") || "none";
  if (r.same_host && req.sameHostReason?.trim()) say(`same-host acknowledged: runtime=${runtime} reason=${req.sameHostReason.trim()} alternatives=${alt}`);
  else if (r.same_host) say(`WARNING: worker runtime '${runtime}' matches master host '${host.runtime}'; installed alternatives: ${alt}`);
  const tier = tierOf(policy, model);
  r.tier = tier;
  if (tier === "top" && !req.topApproved?.trim()) {
    throw new Stop("top-approval", DISPATCH_EXIT.REFUSED, [`✗ top tier needs owner approval · model=${model}`, `  Ask the owner, then pass the answer: --top-approved "<reason>"`]);
  }
  return { policy, runtime, model, tier, masterHost: host.runtime, installed, alternatives };
}

function gateLine(res: Resolved, est: number | null, sha: string | null): string {
  return `⚙ gate ✓ ${res.tier} · ${res.model} · est ${est === null ? "?" : estLabel(est)} · contract ${(sha ?? "").slice(0, 8)}`;
}

async function pipeline(ctx: Ctx, req: DispatchRequest, say: Say, r: DispatchReport): Promise<void> {
  if (!isFile(req.contract)) throw new Stop("contract", DISPATCH_EXIT.INPUT, [`✗ contract file missing: ${req.contract}`]);
  if (!req.checkOnly && !req.spec) throw new Stop("spec", DISPATCH_EXIT.INPUT, ["✗ --spec is required unless --check-only"]);
  const res = resolveDispatch(ctx, req, say, r);
  const est = req.estChars ?? contractChars(req.contract); // D16
  r.est_chars = est;
  r.step = "dry-gate";
  const dry = await gateCheck(ctx, req, res, est, false);
  Object.assign(r, { contract_sha: dry.contract_sha, gate_reason: dry.reason, gate_warnings: dry.warnings });
  if (res.tier === "top") say(`🔓 top tier approved by owner · ${req.topApproved!.trim()}`);
  r.collisions = (await collisionCheck(ctx, req.contract, req.ledger)).map(warningLine);
  r.collisions.forEach((l) => say(l));
  if (req.checkOnly) {
    say(gateLine(res, est, dry.contract_sha));
    r.step = "check-only";
    return;
  }
  try {
    checkWritable(req.ledger);
  } catch (e) {
    if (e instanceof LedgerError) throw new Stop("ledger", DISPATCH_EXIT.REFUSED, [`✗ ledger unavailable · ${e.message}`]);
    throw e;
  }
  await launchAndRegister(ctx, req, res, est, say, r);
}

const LEFT_BEHIND = "  left behind: ";

export async function runDispatch(ctx: Ctx, req: DispatchRequest, say: Say): Promise<DispatchReport> {
  const r = emptyReport(req.ledger, req.checkOnly);
  try {
    await pipeline(ctx, req, say, r);
    if (r.step !== "check-only") r.step = "done";
  } catch (e) {
    if (e instanceof Stop) {
      // Every stderr line stays one line (an Orca message may span many); --json keeps the full text in `error`.
      e.lines.forEach((l) => say(oneLine(l, 1000)));
      r.step = e.step;
      r.exit = e.code;
      r.error = e.detail.error ?? e.lines[0] ?? null;
      r.left_behind = e.lines.filter((l) => l.startsWith(LEFT_BEHIND)).map((l) => l.slice(LEFT_BEHIND.length));
    } else if (e instanceof OrcaError) {
      say(`✗ orca failed · ${oneLine(e.message)}`);
      r.exit = DISPATCH_EXIT.ORCA;
      r.error = e.message;
    } else throw e;
  }
  return r;
}
