/**
 * The native matching engine (D28), gitleaks semantics: a rule runs on a text only when one of its keywords occurs
 * (case-insensitively); its regex runs over the whole text; the secret is `secretGroup` (else the first non-empty
 * group, else the match); entropy, per-rule and global allowlists (regexes against secret/match/line, paths,
 * stopwords, AND/OR) and inline `gitleaks:allow` decide what stays a finding.
 */
import type { Allowlist, RegexTarget, Rule } from "./config.ts";
import { Gate, prefilterOf } from "./literals.ts";
import { maskLine } from "./mask.ts";

export interface Finding {
  file: string;
  line: number;
  rule: string;
  description: string;
  /** The line, masked (every finding's secret on it replaced) and cut to 160 characters. */
  snippet: string;
}

export interface Compiled {
  rules: Rule[];
  allowlists: Allowlist[];
  /** Rules whose regex starts with a literal: run directly (fast), keywords checked only once one matches. */
  direct: Rule[];
  /** Other rules with keywords: run only when a keyword occurs. */
  gated: Rule[];
  /** Rules with a `path` and no `regex`: the file name alone is the finding. */
  pathOnly: Rule[];
  /**
   * Per gated rule (and per direct rule without keywords or a leading literal): its keywords (one must occur, case-insensitively) and the literals every match of its regex
   * contains (literals.ts). A text failing the gate is not searched: no finding can come from it.
   */
  gates: Map<Rule, Gate>;
}

/**
 * Whether a translated, case-sensitive pattern begins with literal text (optionally after `\b`, or as an
 * alternation of literals): the regex engine then skips ahead to candidates by itself, which is cheaper than
 * looking for the rule's keywords first. gitleaks' keyword semantics are kept either way.
 */
export function literalLed(re: RegExp): boolean {
  if (re.flags.includes("i")) return false;
  const src = re.source.replace(/^\\b/, "");
  const lit = /^(?:[A-Za-z0-9_\-/@#%&=<>~`"' ,:;]|\\[.\-/*+?()[\]{}|^$])/;
  if (src.startsWith("(?:")) {
    const end = src.indexOf(")");
    if (end < 0) return false;
    return src.slice(3, end).split("|").every((alt) => lit.test(alt) && !/^(?:\\.|.)[*?{]/.test(alt));
  }
  // `a*...` or `a?...`: the first literal is optional.
  return lit.test(src) && !/^(?:\\.|.)[*?{]/.test(src);
}

export function compileRules(rules: Rule[], allowlists: Allowlist[]): Compiled {
  const direct: Rule[] = [];
  const gated: Rule[] = [];
  const pathOnly: Rule[] = [];
  for (const r of rules) {
    if (!r.regex) {
      if (r.path) pathOnly.push(r);
      continue;
    }
    if (r.keywords.length === 0 || literalLed(r.regex)) direct.push(r);
    else gated.push(r);
  }
  // A rule without keywords whose regex does not start with a literal (an organisation rule, say) is searched over
  // every text; the literals its matches must contain spare most of those searches.
  const unled = direct.filter((r) => r.keywords.length === 0 && !literalLed(r.regex!));
  return { rules, allowlists, direct, gated, pathOnly, gates: new Map([...gated, ...unled].map((r) => [r, gateOf(r)])) };
}

function gateOf(r: Rule): Gate {
  return new Gate(r.keywords, prefilterOf(r.regex!));
}

function entropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

interface Hit {
  match: string;
  secret: string;
  line: string;
}

function allowedBy(a: Allowlist, hit: Hit, path: string): boolean {
  const target = (t: RegexTarget) => (t === "line" ? hit.line : t === "match" ? hit.match : hit.secret);
  const checks: boolean[] = [];
  if (a.regexes.length) checks.push(a.regexes.some((r) => r.test(target(a.regexTarget))));
  if (a.paths.length) checks.push(a.paths.some((r) => r.test(path)));
  if (a.stopwords.length) {
    const s = hit.secret.toLowerCase();
    checks.push(a.stopwords.some((w) => s.includes(w)));
  }
  if (checks.length === 0) return false;
  return a.condition === "AND" ? checks.every(Boolean) : checks.some(Boolean);
}

/** A file whose path alone an OR allowlist (global) exempts is not read at all. */
export function pathAllowed(c: Compiled, path: string): boolean {
  return c.allowlists.some((a) => a.condition === "OR" && a.paths.some((r) => r.test(path)));
}

/** gitleaks: a rule with keywords applies to a text only when one of them occurs, case-insensitively. */
class Keywords {
  private low: string | null = null;
  constructor(private readonly text: string) {}
  readonly lower = (): string => (this.low ??= this.text.toLowerCase());
  any(r: Rule): boolean {
    if (r.keywords.length === 0) return true;
    const low = this.lower();
    return r.keywords.some((k) => low.includes(k));
  }
}

function secretOf(m: RegExpExecArray, group: number): string {
  if (group > 0) return m[group] ?? "";
  for (let g = 1; g < m.length; g++) if (m[g]) return m[g]!;
  return m[0];
}

interface Raw {
  line: number;
  rule: Rule;
  start: number;
  end: number;
  lineStart: number;
}

/** Scans one text; `path` is what path allowlists and findings see. */
export function scanText(c: Compiled, path: string, text: string): Finding[] {
  const kw = new Keywords(text);
  const raws: Raw[] = [];
  for (const rule of c.direct) {
    const gate = c.gates.get(rule);
    if (!gate || gate.passes(text, kw.lower)) matchRule(c, rule, path, text, raws, () => kw.any(rule));
  }
  for (const rule of c.gated) {
    const gate = c.gates.get(rule);
    if (gate ? gate.passes(text, kw.lower) : kw.any(rule)) matchRule(c, rule, path, text, raws, () => true);
  }
  const found = raws.length ? render(text, path, raws) : [];
  for (const rule of c.pathOnly) {
    if (rule.path!.test(path)) found.push({ file: path, line: 1, rule: rule.id, description: rule.description, snippet: "(the file name matches)" });
  }
  return found;
}

/** Line numbers are computed incrementally: matches come in order. */
function matchRule(c: Compiled, rule: Rule, path: string, text: string, raws: Raw[], applies: () => boolean): void {
  if (rule.path && !rule.path.test(path)) return;
  const re = rule.regex!;
  re.lastIndex = 0;
  let lineNo = 1;
  let scanned = 0;
  let checked = false;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!checked) {
      checked = true;
      if (!applies()) return;
    }
    if (m[0] === "") {
      re.lastIndex++;
      continue;
    }
    const at = m.index;
    for (let i = text.indexOf("\n", scanned); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) lineNo++;
    scanned = at;
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    const secret = secretOf(m, rule.secretGroup);
    if (rule.entropy && entropy(secret) < rule.entropy) continue;
    if (line.includes("gitleaks:allow")) continue;
    const hit = { match: m[0], secret, line };
    if (rule.allowlists.some((a) => allowedBy(a, hit, path))) continue;
    if (c.allowlists.some((a) => allowedBy(a, hit, path))) continue;
    const secretAt = m[0].indexOf(secret);
    const start = at + (secretAt < 0 ? 0 : secretAt);
    raws.push({ line: lineNo, rule, start, end: start + (secretAt < 0 ? m[0].length : secret.length), lineStart });
  }
}

/** Each finding's snippet masks every secret found on its line, by any rule. */
function render(text: string, path: string, raws: Raw[]): Finding[] {
  const byLine = new Map<number, Raw[]>();
  for (const r of raws) byLine.set(r.lineStart, [...(byLine.get(r.lineStart) ?? []), r]);
  const out: Finding[] = [];
  for (const [lineStart, list] of byLine) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const spans = list.map((r) => ({ start: r.start - lineStart, end: Math.min(r.end, lineEnd) - lineStart, rule: r.rule.id }));
    const snippet = maskLine(text.slice(lineStart, lineEnd), spans);
    for (const r of list) out.push({ file: path, line: r.line, rule: r.rule.id, description: r.rule.description, snippet });
  }
  return out;
}
