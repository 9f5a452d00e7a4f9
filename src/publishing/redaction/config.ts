/**
 * Rules for the native engine (D28): gitleaks-format TOML (`[[rules]]`, per-rule `[rules.allowlist]` or
 * `[[rules.allowlists]]`, global `[allowlist]` / `[[allowlists]]`, `[extend] path`) plus the organisation rules
 * file (`id|description|regex`). Rule CONTENT is never printed: errors name files, lines and rule ids only.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as v from "valibot";
import { parseToml, TomlError } from "../../lib/toml.ts";
import { compileRe2, Re2Error } from "./re2.ts";

export class RuleConfigError extends Error {
  override name = "RuleConfigError";
}

type RegexTarget = "secret" | "match" | "line";

export interface Allowlist {
  regexes: RegExp[];
  regexTarget: RegexTarget;
  paths: RegExp[];
  stopwords: string[];
  commits: string[];
  condition: "OR" | "AND";
}

export interface Rule {
  id: string;
  description: string;
  regex: RegExp | null;
  /** The regex as written (RE2 syntax), for a delegated gitleaks run; never printed. */
  pattern: string;
  path: RegExp | null;
  secretGroup: number;
  entropy: number;
  keywords: string[];
  allowlists: Allowlist[];
  /** Whether the pattern has a non-ASCII literal (a native-script spelling). */
  nativeScript: boolean;
  org: boolean;
  /** A mogui extension: the token's own checksum must hold (checksum.ts). */
  checksum?: "crc32-base62";
}

export interface RuleSet {
  rules: Rule[];
  allowlists: Allowlist[];
  /** Rule ids whose regex RE2 would reject. */
  re2Rejected: string[];
}

const AllowlistSchema = v.looseObject({
  description: v.optional(v.string()),
  regexes: v.optional(v.array(v.string())),
  regexTarget: v.optional(v.picklist(["secret", "match", "line"])),
  paths: v.optional(v.array(v.string())),
  stopwords: v.optional(v.array(v.string())),
  commits: v.optional(v.array(v.string())),
  condition: v.optional(v.picklist(["OR", "AND", "or", "and"])),
});

const RuleSchema = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1)),
  description: v.optional(v.string()),
  regex: v.optional(v.string()),
  path: v.optional(v.string()),
  secretGroup: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  entropy: v.optional(v.number()),
  keywords: v.optional(v.array(v.string())),
  tags: v.optional(v.array(v.string())),
  checksum: v.optional(v.picklist(["crc32-base62"])),
  allowlist: v.optional(AllowlistSchema),
  allowlists: v.optional(v.array(AllowlistSchema)),
});

const ConfigSchema = v.looseObject({
  title: v.optional(v.string()),
  extend: v.optional(v.looseObject({ path: v.optional(v.string()), useDefault: v.optional(v.boolean()) })),
  rules: v.optional(v.array(RuleSchema)),
  allowlist: v.optional(AllowlistSchema),
  allowlists: v.optional(v.array(AllowlistSchema)),
});

type RawAllowlist = v.InferOutput<typeof AllowlistSchema>;

/** Compiles one pattern; a non-RE2 pattern is reported by id (never by content). */
function compile(pattern: string, id: string, rejected: string[], flags = "g"): RegExp | null {
  try {
    return compileRe2(pattern, flags);
  } catch (e) {
    if (e instanceof Re2Error) {
      if (!rejected.includes(id)) rejected.push(id);
      return null;
    }
    throw new RuleConfigError(`rule '${id}' has a regex that does not compile`);
  }
}

function allowlist(raw: RawAllowlist, owner: string, rejected: string[]): Allowlist {
  const rx = (list: string[] | undefined) => (list ?? []).map((p) => compile(p, `${owner} allowlist`, rejected, "")).filter((r): r is RegExp => r !== null);
  return {
    regexes: rx(raw.regexes),
    regexTarget: raw.regexTarget ?? "secret",
    paths: rx(raw.paths),
    stopwords: (raw.stopwords ?? []).map((s) => s.toLowerCase()),
    commits: raw.commits ?? [],
    condition: (raw.condition ?? "OR").toUpperCase() as "OR" | "AND",
  };
}

function summarize(issues: v.BaseIssue<unknown>[]): string {
  const i = issues[0]!;
  const path = i.path?.map((p) => String(p.key)).join(".") ?? "";
  return `${path ? `${path}: ` : ""}${i.message}`;
}

function readConfig(path: string, seen: Set<string>, out: RuleSet): void {
  if (seen.has(path)) throw new RuleConfigError(`${path}: [extend] path loops back to itself`);
  seen.add(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (_e) {
    throw new RuleConfigError(`missing ${path}`);
  }
  loadConfigText(text, path, out, seen);
}

/** Parses one gitleaks TOML document into `out` (an `[extend] path` base is loaded first). */
function loadConfigText(text: string, label: string, out: RuleSet, seen = new Set<string>()): void {
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch (e) {
    if (e instanceof TomlError) throw new RuleConfigError(`${label}: ${e.message}`);
    throw e;
  }
  const parsed = v.safeParse(ConfigSchema, doc);
  if (!parsed.success) throw new RuleConfigError(`${label}: ${summarize(parsed.issues)}`);
  const cfg = parsed.output;
  if (cfg.extend?.path) readConfig(resolve(dirname(label), cfg.extend.path), seen, out);
  for (const r of cfg.rules ?? []) {
    const lists = [...(r.allowlist ? [r.allowlist] : []), ...(r.allowlists ?? [])].map((a) => allowlist(a, r.id, out.re2Rejected));
    const rule: Rule = {
      id: r.id,
      description: r.description ?? r.id,
      regex: r.regex === undefined ? null : compile(r.regex, r.id, out.re2Rejected),
      pattern: r.regex ?? "",
      path: r.path === undefined ? null : compile(r.path, r.id, out.re2Rejected, ""),
      secretGroup: r.secretGroup ?? 0,
      entropy: r.entropy ?? 0,
      keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
      allowlists: lists,
      nativeScript: /[^\x00-\x7f]/.test(r.regex ?? ""),
      org: false,
      ...(r.checksum ? { checksum: r.checksum } : {}),
    };
    // A later rule with the same id replaces the earlier one (how gitleaks extends a base config).
    const at = out.rules.findIndex((x) => x.id === rule.id);
    if (at >= 0) out.rules[at] = rule;
    else out.rules.push(rule);
  }
  for (const a of [...(cfg.allowlist ? [cfg.allowlist] : []), ...(cfg.allowlists ?? [])]) out.allowlists.push(allowlist(a, "global", out.re2Rejected));
}

export function loadConfigFile(path: string): RuleSet {
  const out: RuleSet = { rules: [], allowlists: [], re2Rejected: [] };
  readConfig(path, new Set(), out);
  return out;
}

export function loadConfigString(text: string, label: string): RuleSet {
  const out: RuleSet = { rules: [], allowlists: [], re2Rejected: [] };
  loadConfigText(text, label, out);
  return out;
}

export interface OrgRules {
  /** Non-blank, non-comment lines. */
  considered: number;
  rules: Rule[];
  /** Lines without two `|` separators, or whose regex does not compile. */
  unusable: number;
  /** Ids (or `org_rule_<line>`) whose regex RE2 would reject. */
  re2Rejected: string[];
}

const stripQuotes = (s: string) =>
  s
    .trim()
    .replace(/^["']+|["']+$/g, "")
    .trim();

/** `id|description|regex` per line (split on the first two `|`: the regex may contain more). */
export function parseOrgRules(text: string): OrgRules {
  const out: OrgRules = { considered: 0, rules: [], unusable: 0, re2Rejected: [] };
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, idx) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    out.considered++;
    const a = raw.indexOf("|");
    const b = a < 0 ? -1 : raw.indexOf("|", a + 1);
    if (b < 0) {
      out.unusable++;
      return;
    }
    const id = stripQuotes(raw.slice(0, a)) || `org_rule_${idx + 1}`;
    const description = stripQuotes(raw.slice(a + 1, b)) || id;
    const pattern = raw.slice(b + 1).trim();
    if (pattern === "") {
      out.unusable++;
      return;
    }
    let regex: RegExp;
    try {
      regex = compileRe2(pattern, "g");
    } catch (e) {
      if (e instanceof Re2Error) out.re2Rejected.push(id);
      else out.unusable++;
      return;
    }
    out.rules.push({ id, description, regex, pattern, path: null, secretGroup: 0, entropy: 0, keywords: [], allowlists: [], nativeScript: /[^\x00-\x7f]|\\p\{(Hangul|Han|Hiragana|Katakana)/.test(pattern), org: true });
  });
  return out;
}
