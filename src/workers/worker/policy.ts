/**
 * The surface policy (config/worker-surface-policy.example.json): the instance's own words for what is
 * irreversible, product, tooling or local, the provider families, agent kinds and launch arguments. Everything the
 * seed names by domain ("auto_trader", "scopefuel", "wrk") lives here, never in code.
 * Resolution per D2: --policy > MOGUI_WORKER_POLICY > $MOGUI_HOME/config/worker-surface-policy.json.
 */
import { readFileSync } from "node:fs";
import * as v from "valibot";
import { resolveStatePath, type Ctx } from "../../lib/context.ts";
import { SURFACE_CLASSES } from "./tiers.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export const POLICY_ENV = "MOGUI_WORKER_POLICY";
const POLICY_FILE = "config/worker-surface-policy.json";

export class PolicyError extends Error {
  override name = "PolicyError";
}

const Surface = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  class: v.picklist(SURFACE_CLASSES),
  paths: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1)),
  why: v.optional(v.string()),
});

/** D31: `reap.precious_ignored` replaces the default precious ignored set of worker-reap. */
const PreciousList = v.array(v.pipe(v.string(), v.trim(), v.minLength(1)));

const PolicySchema = v.looseObject({
  version: v.literal(1),
  surfaces: v.pipe(v.array(Surface), v.minLength(1)),
  local_max_lines: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 30),
  provider_families: v.optional(v.record(v.string(), v.array(v.string()))),
  agent_kinds: v.optional(v.record(v.string(), v.string())),
  agent_args: v.optional(v.record(v.string(), v.array(v.array(v.string())))),
  landing_window_seconds: v.optional(v.record(v.string(), v.pipe(v.number(), v.minValue(1)))),
  dead_tab_title_patterns: v.optional(v.array(v.string())),
  branch_prefix: v.optional(v.string(), "worker/"),
  report_file: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]+$/)), "report.md"),
  reap: v.optional(v.looseObject({ precious_ignored: v.optional(PreciousList), regenerable: v.optional(PreciousList) })),
});

export type Policy = v.InferOutput<typeof PolicySchema> & {
  provider_families: Record<string, string[]>;
  agent_kinds: Record<string, string>;
  agent_args: Record<string, string[][]>;
  landing_window_seconds: Record<string, number>;
  dead_tab_title_patterns: string[];
  path: string;
};

/** Vendor prefixes as in D13; an instance adds its own families in the policy. */
export const DEFAULT_FAMILIES: Record<string, string[]> = {
  anthropic: ["claude*", "opus*", "sonnet*", "haiku*"],
  openai: ["gpt*", "o3*", "o4*", "codex*"],
  xai: ["grok*"],
  google: ["gemini*"],
  moonshot: ["kimi*"],
};
const DEFAULT_KINDS: Record<string, string> = { anthropic: "claude", openai: "codex", xai: "grok", google: "gemini", moonshot: "kimi" };
const DEFAULT_ARGS: Record<string, string[][]> = {
  claude: [["--model", "{model}"]],
  codex: [
    ["-m", "{model}"],
    ["-c", "model_reasoning_effort={effort}"],
  ],
};
/** §4-2: 30 s for a general profile, 60 s for codex. */
const DEFAULT_WINDOWS: Record<string, number> = { default: 30, codex: 60 };
/** A bare shell prompt as a terminal title: `user@host`, `user@host: ~/dir`, `user@host:~/dir$`. */
export const DEFAULT_DEAD_TITLES = ["^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+(:.*)?\\s*[$#%>]?\\s*$", "^(ba|z|fi|k|da)?sh$"];

export function policyPath(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): string {
  return resolveStatePath(ctx, flag, POLICY_ENV, POLICY_FILE);
}

export function parsePolicy(text: string, path: string): Policy {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PolicyError(`surface policy is not JSON: ${path}: ${errorMessage(e)}`);
  }
  const r = v.safeParse(PolicySchema, raw);
  if (!r.success) throw new PolicyError(`surface policy ${path}: ${v.summarize(r.issues).replace(/\n/g, "; ")}`);
  const p = r.output;
  for (const pat of p.dead_tab_title_patterns ?? []) {
    try {
      new RegExp(pat);
    } catch (e) {
      throw new PolicyError(`surface policy ${path}: dead_tab_title_patterns: ${errorMessage(e)}`);
    }
  }
  return {
    ...p,
    provider_families: p.provider_families ?? DEFAULT_FAMILIES,
    agent_kinds: { ...DEFAULT_KINDS, ...p.agent_kinds },
    agent_args: { ...DEFAULT_ARGS, ...p.agent_args },
    landing_window_seconds: { ...DEFAULT_WINDOWS, ...p.landing_window_seconds },
    dead_tab_title_patterns: p.dead_tab_title_patterns ?? DEFAULT_DEAD_TITLES,
    path,
  };
}

/** The policy file's text; null when it does not exist and `missingOk`. */
function readPolicyText(path: string, missingOk: boolean): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" && missingOk) return null;
    // No clone needed (issue 26 §2): the binary carries the example.
    const hint = code === "ENOENT" ? ` (write one: mogui config example worker-surface-policy --out ${path}; or mogui config init; or pass --policy)` : "";
    throw new PolicyError(`surface policy unreadable: ${path}: ${code ?? errorMessage(e)}${hint}`);
  }
}

export function loadPolicy(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): Policy {
  const path = policyPath(ctx, flag);
  return parsePolicy(readPolicyText(path, false)!, path);
}

/** The provider family of a model (`claude-opus-5` -> anthropic); null when no family pattern matches. */
export function providerFamily(policy: Pick<Policy, "provider_families">, model: string): string | null {
  const m = model.toLowerCase();
  for (const [family, globs] of Object.entries(policy.provider_families)) {
    if (globs.some((g) => new Bun.Glob(g.toLowerCase()).match(m))) return family;
  }
  return null;
}

/** Launch arguments for an agent kind; a group naming a value we do not have ({effort}) is left out whole. */
export function agentArgs(policy: Pick<Policy, "agent_args">, kind: string, vars: Record<string, string | undefined>): string[] {
  const groups = policy.agent_args[kind] ?? [];
  const out: string[] = [];
  for (const g of groups) {
    const names = g.flatMap((a) => [...a.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
    if (names.some((n) => !vars[n])) continue;
    out.push(...g.map((a) => a.replace(/\{(\w+)\}/g, (_, n: string) => vars[n]!)));
  }
  return out;
}

export function isDeadTabTitle(policy: Pick<Policy, "dead_tab_title_patterns">, title: string | null): boolean {
  if (!title) return false;
  return policy.dead_tab_title_patterns.some((p) => new RegExp(p).test(title.trim()));
}

/**
 * `reap.precious_ignored` from the surface policy, for worker-reap (which needs nothing else of the policy): null
 * when the policy file does not exist or does not set it (the caller keeps D31's defaults). A policy that exists
 * but cannot be read, is not JSON, or sets a malformed list is a PolicyError: a reap never guesses its own guard.
 */
export function loadPreciousIgnored(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): { path: string; patterns: string[] | null; regenerable: string[] | null } {
  const path = policyPath(ctx, flag);
  // A policy named on the command line must exist; the default one may be absent (worker-reap runs without workers).
  const text = readPolicyText(path, flag === undefined);
  if (text === null) return { path, patterns: null, regenerable: null };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PolicyError(`surface policy is not JSON: ${path}: ${errorMessage(e)}`);
  }
  // D40: `reap.regenerable` replaces the default regenerable set (an ignored file outside it is precious).
  const r = v.safeParse(v.looseObject({ reap: v.optional(v.looseObject({ precious_ignored: v.optional(PreciousList), regenerable: v.optional(PreciousList) })) }), raw);
  if (!r.success) throw new PolicyError(`surface policy ${path}: ${v.summarize(r.issues).replace(/\n/g, "; ")}`);
  return { path, patterns: r.output.reap?.precious_ignored ?? null, regenerable: r.output.reap?.regenerable ?? null };
}
