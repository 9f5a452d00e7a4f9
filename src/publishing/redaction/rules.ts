/**
 * Putting the rule set of one scan together (reference §21 steps 1-5): the base config, the retired allowlist
 * check, the organisation rules with their warnings, the RE2 verdict. Every failure is a `ScanFail` (exit 2) whose
 * message names files and rule ids, never rule content.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { expandHome } from "../../lib/paths.ts";
import { loadConfigFile, loadConfigString, parseOrgRules, RuleConfigError, type Rule, type RuleSet } from "./config.ts";
import embeddedConfig from "../../../config/gitleaks.toml" with { type: "text" };

export class ScanFail extends Error {
  constructor(
    message: string,
    readonly extra: string[] = [],
  ) {
    super(message);
    this.name = "ScanFail";
  }
}

const CONFIG_ENV = "GITLEAKS_CONFIG";
const EXTRA_ENV = "REDACTION_EXTRA_PATTERNS";

/** Where the organisation rules file is when $REDACTION_EXTRA_PATTERNS is unset. */
const DEFAULT_ORG_RULES = "~/.config/redaction-extra.txt";

/**
 * The organisation rules file: $REDACTION_EXTRA_PATTERNS (`~` expanded, relative to cwd), else
 * ~/.config/redaction-extra.txt. The one resolution `preflight` and `redaction-scan` both use (issue 25 §3).
 */
export function orgRulesPath(ctx: Pick<Ctx, "env" | "cwd">): string {
  const raw = ctx.env[EXTRA_ENV]?.trim();
  return resolve(ctx.cwd, expandHome(ctx, raw || DEFAULT_ORG_RULES));
}

export interface LoadedRules {
  set: RuleSet;
  /** What -v prints as config=<...>. */
  configName: string;
  /** The file a delegated gitleaks run reads (null: the built-in copy, written out when needed). */
  configPath: string | null;
  orgRules: Rule[];
  orgConsidered: number;
  orgUnusable: number;
}

/** --config > $GITLEAKS_CONFIG > <repo>/config/gitleaks.toml > the copy built into the binary. */
function baseRules(ctx: Ctx, root: string, flag: string | undefined): { set: RuleSet; name: string; path: string | null } {
  const explicit = flag ?? (ctx.env[CONFIG_ENV]?.trim() || undefined);
  const path = explicit !== undefined ? resolve(ctx.cwd, explicit) : join(root, "config", "gitleaks.toml");
  try {
    if (explicit !== undefined || existsSync(path)) return { set: loadConfigFile(path), name: path.split("/").pop()!, path };
    return { set: loadConfigString(embeddedConfig as unknown as string, "built-in gitleaks.toml"), name: "built-in gitleaks.toml", path: null };
  } catch (e) {
    if (e instanceof RuleConfigError) throw new ScanFail(e.message.startsWith("missing ") ? e.message : `invalid rules config: ${e.message}`);
    throw e;
  }
}

export function embeddedConfigText(): string {
  return embeddedConfig as unknown as string;
}

/** The retired line-based allowlist must stay empty of entries (§21 step 2). */
function checkLegacyAllowlist(ctx: Ctx, root: string, flag: string | undefined): void {
  const path = resolve(root, flag ?? (ctx.env.REDACTION_ALLOWLIST?.trim() || "scripts/redaction-allowlist.txt"));
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return;
  }
  if (text.split(/\r?\n/).some((l) => l.trim() !== "" && !l.trim().startsWith("#"))) {
    throw new ScanFail(`${path} has entries in the retired format.`, ["redaction-scan: move each exemption to .gitleaksignore (a finding fingerprint) or to an allowlist in config/gitleaks.toml, then empty that file."]);
  }
}

/** Warnings go to `warn` as they arise, so they are printed even when a later step fails. */
export function loadRules(ctx: Ctx, root: string, opts: { config?: string; allowlist?: string; requireExtra: boolean; skipLegacyCheck?: boolean }, warn: (msg: string) => void): LoadedRules {
  const base = baseRules(ctx, root, opts.config);
  if (base.set.re2Rejected.length) {
    throw new ScanFail(`rule(s) not supported by RE2: ${base.set.re2Rejected.join(", ")}`, ["redaction-scan: rewrite those regexes without lookarounds or other non-RE2 constructs, then re-run."]);
  }
  if (!opts.skipLegacyCheck) checkLegacyAllowlist(ctx, root, opts.allowlist);
  let org = { considered: 0, rules: [] as Rule[], unusable: 0, re2Rejected: [] as string[] };
  const abs = orgRulesPath(ctx);
  if (existsSync(abs)) {
    let text: string;
    try {
      text = readFileSync(abs, "utf8");
    } catch {
      throw new ScanFail("could not read the organization rules file");
    }
    org = parseOrgRules(text);
  }
  if (org.re2Rejected.length) {
    throw new ScanFail(`organization rule(s) not supported by RE2: ${org.re2Rejected.join(", ")}`, ["redaction-scan: rewrite those regexes without lookarounds or other non-RE2 constructs, then re-run."]);
  }
  if (org.unusable > 0) warn(`${org.unusable} of ${org.considered} organization rule lines are unusable and were skipped`);
  if (org.rules.length > 0 && !org.rules.some((r) => r.nativeScript)) {
    warn("organization rules contain no native script pattern; romanization only identifier rules miss native spellings");
  }
  if (org.rules.length === 0) {
    warn("organization-specific rules not loaded (no rules in $REDACTION_EXTRA_PATTERNS or ~/.config/redaction-extra.txt); this scan covers generic patterns only");
    if (opts.requireExtra) throw new ScanFail("required organization rules were not loaded");
  }
  const set: RuleSet = { rules: [...base.set.rules, ...org.rules], allowlists: base.set.allowlists, re2Rejected: [] };
  return { set, configName: base.name, configPath: base.path, orgRules: org.rules, orgConsidered: org.considered, orgUnusable: org.unusable };
}
