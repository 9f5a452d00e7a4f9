/**
 * `worker spawn`: classify -> lint the filled brief -> unique name -> worktree from freshly fetched origin/main
 * (never the canonical checkout) -> pane + agent -> record the job -> inject the brief -> landing proof.
 * The job row is written BEFORE the landing proof, so a brief that never lands is still on record.
 */
import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { errorMessage, KindError, UsageError } from "../../lib/errors.ts";
import type { Exits } from "../../lib/exits.ts";
import { git } from "../../lib/git.ts";
import { within } from "../../lib/paths.ts";
import type { Host, HostKind } from "../../lib/host/types.ts";
import { fillBrief, lintBrief, type Finding } from "./brief.ts";
import { type Classification, checkGrades, classify } from "./classify.ts";
import { jobStamp, workerNow } from "../../lib/clock.ts";
import { WORKER_EXITS } from "./exits.ts";
import { inboxDir, type Job, record, type SpawnRow } from "./jobs.ts";
import { claimName, releaseName } from "./names.ts";
import { proveLanding, type LandingResult } from "./landing.ts";
import { agentArgs, type Policy, providerFamily } from "./policy.ts";
import { outputDigest } from "./status.ts";
import type { Grade } from "./tiers.ts";
import { cleanupWorktree, dropUnusedBranch } from "./worktree.ts";
import { loadTierPolicy } from "../../lib/config/tier-policy.ts";
import { jobCap, wireSpendBrake, type BrakeCap, type Wired } from "./brake-wiring.ts";

/** `worker spawn`'s exits (declared here because spawnJob decides most of them). */
export const SPAWN_EXITS = {
  ok: { code: 0, meaning: "spawned and the brief landed (or did not land without --landing-strict: warned, recorded)" },
  hostFailed: WORKER_EXITS.hostFailed,
  ledgerUnavailable: { ...WORKER_EXITS.ledgerUnavailable, meaning: "usage; brief, policy or ledger unreadable; worktree inside the canonical checkout" },
  needsClassification: { code: 3, meaning: "NEEDS_CLASSIFICATION: nothing spawned" },
  refused: { code: 4, meaning: "refused: the brief's T is below the surface floor (downgrade), or a grade rule" },
  nameTaken: { code: 5, meaning: "refused: the agent name (or job id) is taken; the holder is named" },
  briefNotClean: { code: 6, meaning: "refused: the filled brief is not lint-clean" },
  noSpawn: { code: 7, meaning: "T0: no-spawn (make the change directly)" },
  notLanded: { code: 76, meaning: "--landing-strict: the brief did not land (the job is still recorded)" },
} as const satisfies Exits;
type SpawnExit = keyof typeof SPAWN_EXITS;

/** Why a spawn stopped before a job was recorded: `kind` is one of SPAWN_EXITS' rows, which the command maps it to. */
export class SpawnError extends KindError<Extract<SpawnExit, "hostFailed" | "ledgerUnavailable">> {
  override name = "SpawnError";
}
const AGENT_NAME_RE = /^[a-z][a-z0-9_-]{0,31}$/;
const MAX_BRIEF_BYTES = 100_000;
const ID_PART = /^[A-Za-z0-9][A-Za-z0-9._]*$/;

export interface SpawnInput {
  issue: string;
  stage: string;
  name: string;
  model: string;
  effort: string | null;
  kind: string | null;
  owner: string;
  brief: string;
  briefText: string;
  repo: string;
  hostKind: HostKind;
  workspace: string | null;
  paths: string[];
  diffLines: number | null;
  grade?: Grade;
  profileGrade?: Grade;
  branch: string | null;
  worktree: string | null;
  ledger: string;
  inboxRoot: string;
  moguiHome: string;
  /** `--max-tokens`: the job's token cap (else the tier policy's job_token_caps; D44). */
  maxTokens?: number;
}

export interface SpawnOutcome {
  exit: SpawnExit;
  doc: Record<string, unknown>;
  findings?: Finding[];
  classification?: Classification;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** Deepest existing ancestor, realpath'd, plus the rest: so a symlinked parent cannot smuggle a path inside. */
function realish(p: string): string {
  let cur = resolve(p);
  const rest: string[] = [];
  while (!existsSync(cur) && dirname(cur) !== cur) {
    rest.unshift(basename(cur));
    cur = dirname(cur);
  }
  return join(real(cur), ...rest);
}

async function nameHolder(jobs: Map<string, Job>, host: Host, name: string): Promise<string | null> {
  for (const j of jobs.values()) {
    if (j.spawn.agent_name === name && !j.collected) return `job ${j.id} (owner ${j.spawn.owner}, pane ${j.spawn.pane_id})`;
  }
  const live = (await host.listAgents()).find((a) => a.agentName === name);
  return live ? `${host.kind} pane ${live.id}${live.workspace ? ` in ${live.workspace}` : ""}${live.cwd ? ` (cwd ${live.cwd})` : ""}` : null;
}

async function makeWorktree(ctx: Ctx, repo: string, path: string, branch: string): Promise<string> {
  const f = await git(ctx, repo, ["fetch", "--quiet", "origin", "main"]);
  if (!f.ok) throw new SpawnError("hostFailed", `worker spawn: git fetch origin main failed: ${f.why}`);
  mkdirSync(dirname(path), { recursive: true });
  const a = await git(ctx, repo, ["worktree", "add", "--quiet", "-b", branch, path, "origin/main"]);
  if (!a.ok) throw new SpawnError("hostFailed", `worker spawn: git worktree add failed: ${a.why}`);
  const h = await git(ctx, path, ["rev-parse", "HEAD"]);
  return h.stdout.trim();
}

function refusal(exit: SpawnExit, message: string, extra: Record<string, unknown> = {}): SpawnOutcome {
  return { exit, doc: { spawned: false, refused: message, ...extra } };
}

/** Classification + brief checks: everything that can refuse before anything is created. */
function preflight(inp: SpawnInput, policy: Policy, jobId: string, worktree: string, branch: string, inbox: string) {
  const declared = lintBrief(inp.briefText).facts.tier;
  const grades = checkGrades(inp.grade, inp.profileGrade);
  const c = classify(policy, inp.paths, inp.diffLines, declared, grades);
  if (c.verdict === "NEEDS_CLASSIFICATION") return { out: { ...refusal("needsClassification", `NEEDS_CLASSIFICATION: no surface names ${c.unmatched.join(", ") || "(no paths)"}`), classification: c } };
  if (c.verdict === "DOWNGRADE_REFUSED") return { out: { ...refusal("refused", `downgrade refused: the brief declares ${declared}, the surface floor is ${c.floor}`), classification: c } };
  if (c.verdict === "GRADE_REFUSED") return { out: { ...refusal("refused", grades.refusals.join("; ")), classification: c } };
  if (c.tier === "T0") return { out: { ...refusal("noSpawn", "T0: no-spawn; make the change directly and check it with one command"), classification: c } };
  const filled = fillBrief(inp.briefText, { worktree, branch, inbox, jobId });
  const lint = lintBrief(filled, { inbox, filled: true });
  if (lint.findings.length) return { out: { ...refusal("briefNotClean", `the brief is not lint-clean (${lint.findings.length} findings)`), findings: lint.findings, classification: c } };
  return { c, filled };
}

/** The job's cap: the flag, else the tier policy's job_token_caps (a policy that does not load gives none). */
function spawnCap(ctx: Ctx, inp: SpawnInput): BrakeCap | null {
  if (inp.maxTokens !== undefined) return jobCap(inp.maxTokens, null, inp.model);
  try {
    return jobCap(undefined, loadTierPolicy(ctx), inp.model);
  } catch {
    return null;
  }
}

export async function spawnJob(ctx: Ctx, host: Host, policy: Policy, inp: SpawnInput): Promise<SpawnOutcome> {
  if (!AGENT_NAME_RE.test(inp.name)) throw new UsageError(`--name '${inp.name}' must match ^[a-z][a-z0-9_-]{0,31}$`, "worker spawn");
  if (!ID_PART.test(inp.issue) || !ID_PART.test(inp.stage)) throw new UsageError("--issue and --stage must be letters, digits, '.' or '_' (they form the job id)", "worker spawn");
  const provider = providerFamily(policy, inp.model);
  const kind = inp.kind ?? (provider ? policy.agent_kinds[provider] : undefined);
  if (!kind) throw new UsageError(`no agent kind for model '${inp.model}': pass --kind or map its provider family in agent_kinds`, "worker spawn");
  const jobId = `${inp.issue}-${inp.stage}-${jobStamp(workerNow(ctx))}`;
  const inbox = inboxDir(inp.inboxRoot, jobId);
  const branch = inp.branch ?? `${policy.branch_prefix}${jobId}`;
  const worktree = resolve(inp.worktree ?? join(inp.moguiHome, "worktrees", basename(inp.repo), jobId));
  if (within(real(inp.repo), realish(worktree))) throw new UsageError(`worktree ${worktree} is inside the canonical checkout ${inp.repo}: workers never work there`, "worker spawn");
  if (existsSync(worktree)) throw new UsageError(`worktree path ${worktree} already exists`, "worker spawn");
  // One argv element carries the brief (Linux caps an argument at 128 KiB).
  if (Buffer.byteLength(inp.briefText) > MAX_BRIEF_BYTES) throw new UsageError(`the brief is over ${MAX_BRIEF_BYTES / 1000} KB: too large to inject; move detail into files the brief names`, "worker spawn");
  const pre = preflight(inp, policy, jobId, worktree, branch, inbox);
  if ("out" in pre) return pre.out!;
  const { c, filled } = pre;
  if (c.tier === "T3" && !provider) throw new UsageError(`T3 needs the implementer's provider family (for the cross-family verifier): '${inp.model}' matches none in provider_families`, "worker spawn");
  // Checked and claimed in one step under a lock (issue 24 §3): of concurrent spawns with one name, one wins.
  const claim = await claimName(ctx, inp.ledger, { jobId, name: inp.name, owner: inp.owner }, host, nameHolder);
  if (!claim.ok) return refusal("nameTaken", claim.message, claim.holder ? { holder: claim.holder } : {});
  try {
    return await spawnClaimed(ctx, host, policy, inp, { jobId, inbox, branch, worktree, kind, provider, c, filled });
  } catch (e) {
    releaseName(ctx, inp.ledger, jobId);
    throw e;
  }
}

interface Claimed {
  jobId: string;
  inbox: string;
  branch: string;
  worktree: string;
  kind: string;
  provider: string | null;
  c: Classification;
  filled: string;
}

async function spawnClaimed(ctx: Ctx, host: Host, policy: Policy, inp: SpawnInput, k: Claimed): Promise<SpawnOutcome> {
  const { jobId, inbox, branch, worktree, kind, provider, c, filled } = k;
  // The inbox is where the brief is written and the report is trusted from: never through a planted symlink.
  if (existsSync(inbox) && lstatSync(inbox).isSymbolicLink()) throw new UsageError(`inbox ${inbox} is a symlink: refusing to write through it`, "worker spawn");
  mkdirSync(inbox, { recursive: true });
  const cap = spawnCap(ctx, inp);
  const baseSha = await makeWorktree(ctx, inp.repo, worktree, branch);
  let brake: Wired | null = null;
  if (cap && kind === "claude") {
    try {
      brake = wireSpendBrake(worktree, ctx.self, jobId, cap.max_tokens);
    } catch (e) {
      const left = await cleanupWorktree(ctx, worktree);
      if (left === "removed") await dropUnusedBranch(ctx, inp.repo, branch, baseSha);
      throw new SpawnError("ledgerUnavailable", `worker spawn: the spend brake could not be wired into ${worktree}: ${errorMessage(e)} (worktree ${left})`);
    }
  }
  const args = agentArgs(policy, kind, { model: inp.model, effort: inp.effort ?? undefined });
  let pane: string;
  try {
    pane = await host.spawnAgent({ repo: inp.repo, cwd: worktree, workspace: inp.workspace, name: inp.name, kind, args });
  } catch (e) {
    const left = await cleanupWorktree(ctx, worktree);
    if (left === "removed") await dropUnusedBranch(ctx, inp.repo, branch, baseSha);
    throw new SpawnError("hostFailed", `worker spawn: ${host.kind} could not start the agent: ${errorMessage(e)} (worktree ${left})`);
  }
  const marker = `mogui-brief:${jobId}:${randomBytes(4).toString("hex")}`;
  // The marker opens AND closes the brief: a long brief must not push the only copy out of the 200 lines read back.
  const text = `Brief marker: ${marker}\n\n${filled.trimEnd()}\n\nBrief marker: ${marker}`;
  writeFileSync(join(inbox, "brief.md"), text);
  const row: SpawnRow = {
    event: "job_spawned",
    job_id: jobId,
    issue: inp.issue,
    stage: inp.stage,
    owner: inp.owner,
    agent_name: inp.name,
    model: inp.model,
    effort: inp.effort,
    profile: `${inp.model}@${inp.effort ?? "default"}`,
    provider,
    kind,
    tier: c.tier!,
    floor: c.floor,
    spawn_mode: c.spawn_mode!,
    grade: inp.grade ?? null,
    profile_grade: inp.profileGrade ?? null,
    host: host.kind,
    workspace: inp.workspace,
    pane_id: pane,
    repo: inp.repo,
    worktree,
    branch,
    base_sha: baseSha,
    inbox,
    marker,
    report_file: policy.report_file,
    surfaces: c.paths.map((p) => p.surface),
    ...(cap ? { max_tokens: cap.max_tokens, max_tokens_source: cap.source } : {}),
    ...(brake ? { spend_brake: { settings: brake.settings, sha256: brake.sha256 } } : {}),
  };
  record(ctx, inp.ledger, "spawn", row);
  const windowMs = (policy.landing_window_seconds[kind] ?? policy.landing_window_seconds.default ?? 30) * 1000;
  const landing: LandingResult = await proveLanding(ctx, host, pane, text, marker, windowMs);
  const digest = await outputDigest(host, pane);
  record(ctx, inp.ledger, "spawn", { event: "job_landing", job_id: jobId, landed: landing.landed, attempts: landing.attempts, reinjected: landing.reinjected, reads: landing.reads, evidence: landing.evidence, errors: landing.errors, output_digest: digest });
  const doc = {
    ...(cap ? { max_tokens: cap.max_tokens, spend_brake: brake ? brake.settings : null } : {}),
    spawned: true,
    job_id: jobId,
    owner: inp.owner,
    agent_name: inp.name,
    host: host.kind,
    pane_id: pane,
    worktree,
    branch,
    base_sha: baseSha,
    inbox,
    tier: c.tier,
    floor: c.floor,
    spawn_mode: c.spawn_mode,
    profile: row.profile,
    provider,
    marker,
    landing,
  };
  return { exit: landing.landed ? "ok" : "notLanded", doc, classification: c };
}
