/**
 * The model tier policy (reference §3.6, §30.1/30.2; DECISIONS D2, D12, D13). Shared by `dispatch-gate` and
 * `mogui dispatch`. A policy that does not load is an error (TierPolicyError), never a permissive default.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isFile } from "../fs.ts";
import { join, resolve } from "node:path";
import type { Ctx } from "../context.ts";
import { moguiHome } from "../context.ts";
// The template policy's raw bytes: embedded so the binary always has a last fallback, hashed like any other file.
import embeddedRaw from "../../../master-ops/model-tier-policy.json" with { type: "text" };
import { errorMessage } from "../../lib/errors.ts";

export const TIER_POLICY_ENV = "DISPATCH_TIER_POLICY";
const UNKNOWN_TIER = "unknown";
const DEFAULT_TIER_WINDOW_SECONDS = 86_400;
/** What `tier_policy_path` says when the embedded template was used. */
export const EMBEDDED_TIER_POLICY_PATH = "<embedded>/master-ops/model-tier-policy.json";

export class TierPolicyError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`${path}: ${why}`);
    this.name = "TierPolicyError";
  }
}

export interface TierPolicy {
  version: 1 | 2;
  /** Where it came from (a resolved file path, or EMBEDDED_TIER_POLICY_PATH). */
  path: string;
  /** sha256 hex of the raw policy bytes. */
  digest: string;
  /** v1: "deny" | "warn"; v2: "cap". */
  unknownModel: "deny" | "warn" | "cap";
  workerAllowed: ReadonlySet<string>;
  workerDeniedTiers: ReadonlySet<string>;
  /** casefolded model -> tier name (v2). */
  modelTiers: ReadonlyMap<string, string>;
  /** tier names in cost order, most expensive first (D12: `tier_rank` if given, else key order of `tiers`). */
  tierNames: readonly string[];
  fanoutCaps: ReadonlyMap<string, number>;
  /** D37: tokens a tier may spend per window (measured, from the spend ledger); a tier without one is uncapped. */
  spendCaps: ReadonlyMap<string, number>;
  windowSeconds: number;
  /** The window the spend caps count over: `spend_window` (5h, 7d or seconds), else windowSeconds (issue 29 §3). */
  spendWindowSeconds: number;
  /** D44: the per-job token cap of a worker of this tier (`job_token_caps`), for the spend brake; none = no brake. */
  jobTokenCaps: ReadonlyMap<string, number>;
  /** The parsed tiers object (tier -> model ids as written), for model derivation by `mogui dispatch`. */
  tiers: Readonly<Record<string, readonly string[]>>;
}

/**
 * The rolling windows subscription plans count usage in (issue 29 §3): a 5-hour session window and a 7-day weekly
 * one. `spend report --window` and the policy's `spend_window` take the same names.
 */
export const QUOTA_WINDOWS = { "5h": 5 * 3600, "7d": 7 * 86_400 } as const;
export type QuotaWindow = keyof typeof QUOTA_WINDOWS;
export const QUOTA_WINDOW_NAMES = Object.keys(QUOTA_WINDOWS) as QuotaWindow[];

/** Python's str.casefold is close enough to toLowerCase for model ids (ASCII plus a few letters). */
export function modelKey(model: string): string {
  return model.trim().toLowerCase();
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isNonNegInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

function modelList(path: string, field: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw new TierPolicyError(path, `${field} must be an array of model ids`);
  const out: string[] = [];
  for (const m of value) {
    if (typeof m !== "string" || m === "") throw new TierPolicyError(path, `${field} must contain non-empty strings`);
    if (m !== m.trim()) throw new TierPolicyError(path, `${field} entry ${JSON.stringify(m)} has surrounding whitespace`);
    out.push(m);
  }
  return out;
}

function loadV1(path: string, digest: string, obj: Record<string, unknown>): TierPolicy {
  const allowed = new Set(modelList(path, "worker_allowed", obj.worker_allowed).map((m) => m.toLowerCase()));
  const denied = new Set(modelList(path, "worker_denied_tiers", obj.worker_denied_tiers).map((m) => m.toLowerCase()));
  for (const m of allowed) if (denied.has(m)) throw new TierPolicyError(path, `model ${m} is both allowed and denied`);
  const unknown = obj.unknown_model;
  if (unknown !== "deny" && unknown !== "warn") throw new TierPolicyError(path, `unknown_model must be "deny" or "warn"`);
  return {
    version: 1,
    path,
    digest,
    unknownModel: unknown,
    workerAllowed: allowed,
    workerDeniedTiers: denied,
    modelTiers: new Map(),
    tierNames: [],
    fanoutCaps: new Map(),
    spendCaps: new Map(),
    windowSeconds: DEFAULT_TIER_WINDOW_SECONDS,
    spendWindowSeconds: DEFAULT_TIER_WINDOW_SECONDS,
    jobTokenCaps: new Map(),
    tiers: {},
  };
}

function tierOrder(path: string, names: string[], rank: unknown): string[] {
  if (rank === undefined) return names;
  if (!Array.isArray(rank) || rank.some((r) => typeof r !== "string")) throw new TierPolicyError(path, "tier_rank must be an array of tier names");
  const set = new Set(rank as string[]);
  if (set.size !== rank.length || set.size !== names.length || names.some((n) => !set.has(n))) {
    throw new TierPolicyError(path, "tier_rank must list every tier exactly once");
  }
  return rank as string[];
}

/** A `tier -> non-negative integer` map (spend_caps, job_token_caps); absent = empty. */
function tokenCaps(path: string, tiers: Record<string, unknown>, field: string, value: unknown, unit: string): Map<string, number> {
  const caps = new Map<string, number>();
  if (value === undefined) return caps;
  if (!isPlainObject(value)) throw new TierPolicyError(path, `${field} must be an object`);
  for (const [tier, cap] of Object.entries(value)) {
    if (tier !== UNKNOWN_TIER && !(tier in tiers)) throw new TierPolicyError(path, `${field}.${tier} names no tier`);
    if (!isNonNegInt(cap)) throw new TierPolicyError(path, `${field}.${tier} must be a non-negative integer (${unit})`);
    caps.set(tier, cap);
  }
  return caps;
}

function loadV2(path: string, digest: string, obj: Record<string, unknown>): TierPolicy {
  if (!isPlainObject(obj.tiers) || Object.keys(obj.tiers).length === 0) throw new TierPolicyError(path, "tiers must be a non-empty object");
  const modelTiers = new Map<string, string>();
  const tiers: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(obj.tiers)) {
    if (name === "" || name !== name.trim()) throw new TierPolicyError(path, `tier name ${JSON.stringify(name)} is empty or padded`);
    if (name === UNKNOWN_TIER) throw new TierPolicyError(path, `"${UNKNOWN_TIER}" is reserved and cannot be a tier`);
    tiers[name] = modelList(path, `tiers.${name}`, list);
    for (const m of tiers[name]) {
      const key = m.toLowerCase();
      const prev = modelTiers.get(key);
      if (prev !== undefined) throw new TierPolicyError(path, `model ${m} appears in tiers ${prev} and ${name}`);
      modelTiers.set(key, name);
    }
  }
  if (!isPlainObject(obj.fanout_caps)) throw new TierPolicyError(path, "fanout_caps must be an object");
  const caps = new Map<string, number>();
  for (const [tier, cap] of Object.entries(obj.fanout_caps)) {
    if (tier !== UNKNOWN_TIER && !(tier in tiers)) throw new TierPolicyError(path, `fanout_caps.${tier} names no tier`);
    if (!isNonNegInt(cap)) throw new TierPolicyError(path, `fanout_caps.${tier} must be a non-negative integer`);
    caps.set(tier, cap);
  }
  const spendCaps = tokenCaps(path, tiers, "spend_caps", obj.spend_caps, "tokens per window");
  const jobTokenCaps = tokenCaps(path, tiers, "job_token_caps", obj.job_token_caps, "tokens per job");
  let windowSeconds = DEFAULT_TIER_WINDOW_SECONDS;
  if (obj.window_seconds !== undefined) {
    if (!isNonNegInt(obj.window_seconds) || obj.window_seconds < 1) throw new TierPolicyError(path, "window_seconds must be a positive integer");
    windowSeconds = obj.window_seconds;
  }
  let spendWindowSeconds = windowSeconds;
  if (obj.spend_window !== undefined) {
    const w = obj.spend_window;
    if (typeof w === "string" && w in QUOTA_WINDOWS) spendWindowSeconds = QUOTA_WINDOWS[w as QuotaWindow];
    else if (isNonNegInt(w) && w >= 1) spendWindowSeconds = w;
    else throw new TierPolicyError(path, `spend_window must be ${QUOTA_WINDOW_NAMES.join(" or ")}, or a positive number of seconds`);
  }
  return {
    version: 2,
    path,
    digest,
    unknownModel: "cap",
    workerAllowed: new Set(),
    workerDeniedTiers: new Set(),
    modelTiers,
    tierNames: tierOrder(path, Object.keys(tiers), obj.tier_rank),
    fanoutCaps: caps,
    spendCaps,
    windowSeconds,
    spendWindowSeconds,
    jobTokenCaps,
    tiers,
  };
}

/** Parse raw policy bytes (any version); throws TierPolicyError naming `path`. */
export function parseTierPolicy(path: string, raw: Uint8Array | string): TierPolicy {
  const bytes = typeof raw === "string" ? Buffer.from(raw, "utf8") : raw;
  const digest = createHash("sha256").update(bytes).digest("hex");
  let obj: unknown;
  try {
    obj = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    throw new TierPolicyError(path, `not valid UTF-8 JSON (${errorMessage(e)})`);
  }
  if (!isPlainObject(obj)) throw new TierPolicyError(path, "must be a JSON object");
  if (obj.version === 2) return loadV2(path, digest, obj);
  if (obj.version === 1) return loadV1(path, digest, obj);
  throw new TierPolicyError(path, `unsupported version ${JSON.stringify(obj.version)}`);
}

/** Resolution: `--tier-policy` > $DISPATCH_TIER_POLICY > $MOGUI_HOME/config/model-tier-policy.json > embedded template. */
export function resolveTierPolicyPath(ctx: Pick<Ctx, "env" | "cwd">, explicitPath?: string): string {
  if (explicitPath) return resolve(ctx.cwd, explicitPath);
  const fromEnv = ctx.env[TIER_POLICY_ENV];
  if (fromEnv) return resolve(ctx.cwd, fromEnv);
  const instance = join(moguiHome(ctx), "config", "model-tier-policy.json");
  if (isFile(instance)) return instance;
  return EMBEDDED_TIER_POLICY_PATH;
}

export function loadTierPolicyFrom(path: string): TierPolicy {
  if (path === EMBEDDED_TIER_POLICY_PATH) return parseTierPolicy(path, embeddedRaw as unknown as string);
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new TierPolicyError(path, `cannot read (${err.code ?? err.message})`);
  }
  return parseTierPolicy(path, raw);
}

export function loadTierPolicy(ctx: Pick<Ctx, "env" | "cwd">, explicitPath?: string): TierPolicy {
  return loadTierPolicyFrom(resolveTierPolicyPath(ctx, explicitPath));
}

/** The tier of a model ("unknown" when unlisted; always "unknown" under a v1 policy). */
export function tierOf(policy: TierPolicy, model: string): string {
  return policy.modelTiers.get(modelKey(model)) ?? UNKNOWN_TIER;
}

/** The fan-out cap of a tier, or null when uncapped. */
export function capFor(policy: TierPolicy, tier: string): number | null {
  return policy.fanoutCaps.get(tier) ?? null;
}

/** D12: tiers most expensive first; `unknown` ranks above every listed tier. */
export function tierRank(policy: TierPolicy): string[] {
  return [UNKNOWN_TIER, ...policy.tierNames];
}

/** Cost rank of a tier: 0 is the most expensive. A tier not in the policy counts as unknown. */
export function costRank(policy: TierPolicy, tier: string): number {
  const i = tierRank(policy).indexOf(tier);
  return Math.max(i, 0);
}

export type Vendor = "claude" | "codex" | "grok" | "gemini";

/** D13 / §4.2: the vendor of a model id, or null when unknown. */
export function modelVendor(model: string): Vendor | null {
  const m = modelKey(model);
  if (m.startsWith("claude-")) return "claude";
  if (m.startsWith("gpt-") || m.startsWith("o3") || m.startsWith("o4") || m.startsWith("codex-")) return "codex";
  if (m.startsWith("grok-")) return "grok";
  if (m.startsWith("gemini-")) return "gemini";
  return null;
}

/** §4.2 accepted runtime:vendor pairs (`agy` is a gemini runtime). */
const RUNTIME_VENDOR: Readonly<Record<string, Vendor>> = { agy: "gemini", gemini: "gemini", claude: "claude", codex: "codex", grok: "grok" };

/** The vendor a runtime runs, or null for runtimes without a fixed vendor (cursor, opencode, ...). */
export function runtimeVendor(runtime: string): Vendor | null {
  return RUNTIME_VENDOR[runtime.trim().toLowerCase()] ?? null;
}

/**
 * True when the pair is a known mismatch: the model's vendor is known and the runtime does not accept it.
 * (An unknown vendor passes, as in §4.2.)
 */
export function modelRuntimeMismatch(model: string, runtime: string): boolean {
  const v = modelVendor(model);
  if (v === null) return false;
  return runtimeVendor(runtime) !== v;
}

/** §4.2 model derivation: first id in `efficient`, then `top`, whose vendor the runtime accepts. */
export function deriveModelForRuntime(policy: TierPolicy, runtime: string): string | null {
  const rt = runtime.trim().toLowerCase() === "agy" ? "gemini" : runtime.trim().toLowerCase();
  for (const tier of ["efficient", "top"]) {
    for (const m of policy.tiers[tier] ?? []) if (modelVendor(m) !== null && !modelRuntimeMismatch(m, rt)) return m;
  }
  return null;
}
