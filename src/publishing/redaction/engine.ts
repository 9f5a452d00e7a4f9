/**
 * The native matching engine (D28), gitleaks semantics: a rule runs on a text only when one of its keywords occurs
 * (case-insensitively); its regex runs over the whole text; the secret is `secretGroup` (else the first non-empty
 * group, else the match); entropy, per-rule and global allowlists (regexes against secret/match/line, paths,
 * stopwords, AND/OR) and inline `gitleaks:allow` decide what stays a finding. D34: allowlists judge the secret
 * (or the match) unless a user's config says `regexTarget = "line"`. Before matching, JSON string escapes are
 * decoded in place; base64 runs are decoded and scanned once (decode.ts).
 */
import type { Allowlist, Rule } from "./config.ts";
import { base64Runs, decodeBase64Text, decodePercent, percentRuns, unescapeJson, type Run } from "./decode.ts";
import { badChecksumToken, checksumValid } from "./checksum.ts";
import { finderOf, topLevelParts, type Finder } from "./finders.ts";
import { BatchLiterals, Gate, type LitAnswers, prefilterOf, rareTail } from "./literals.ts";
import { maskLine, maskMatch } from "./mask.ts";
import { keepOutOfFTL } from "./tier.ts";

export interface Finding {
  file: string;
  line: number;
  /** 1-based column of the secret in the line (after JSON unescaping); for a base64 finding, of the run. */
  column: number;
  rule: string;
  description: string;
  /** The first line of the match with the secret masked. */
  match: string;
  /** The line, masked (every finding's secret on it replaced) and cut to 160 characters. */
  snippet: string;
  /** Set when the secret was found inside decoded content. */
  decoded?: "base64" | "percent";
  /** The content fingerprint (contentFingerprint): survives line moves, never contains the secret. */
  fingerprint: string;
}

/**
 * A finding's content fingerprint: `<file>:<rule>:<hash>:<n>`, where `<hash>` is the first 16 hex digits of the
 * SHA-256 of the rule id and the secret (the secret itself never appears) and `<n>` counts the findings of that rule
 * with that same secret in the file, from 1, in line order. A line moved by an edit keeps its fingerprint.
 */
export function contentFingerprint(file: string, rule: string, secret: string, occurrence: number): string {
  // Bun's native hasher: loading node:crypto would cost every scan process ~10 ms of start-up.
  const hash = new Bun.CryptoHasher("sha256").update(`${rule}\0${secret}`).digest("hex").slice(0, 16);
  return `${file}:${rule}:${hash}:${occurrence}`;
}

export interface Compiled {
  rules: Rule[];
  allowlists: Allowlist[];
  /** The rules with a regex in matching order (direct, then gated) and what is asked before each (Step). */
  steps: Step[];
  /**
   * The distinct presence tests (leadGroupsOf), in a fixed order, each with the literals it looks for when they are
   * all ASCII (else null): those a batch answers for all its files at once (batch.ts); TextHint carries the answers.
   */
  presence: Array<{ test: RegExp; literals: string[] | null; batch: string[] | null }>;
  /** The gates' checks' literals a batch looks for (Gate.bind). */
  batchLiterals: BatchLiterals;
  /** The distinct lead gates, indexed by Step.lead. */
  leadList: RegExp[];
  /** Rules with a `path` and no `regex`: the file name alone is the finding. */
  pathOnly: Rule[];
  /** The path regexes of every OR allowlist as one RegExp (one test per file), or null when there are none. */
  exemptPaths: RegExp | null;
  /** How many times nested base64 is decoded (0: never). */
  decodeDepth: number;
}

/**
 * One rule of the matching order with its gates, as indexes (a text's answers are kept in one small array). A gate
 * that fails means no finding can come from the text, so the rule's regex is not run over it.
 */
interface Step {
  rule: Rule;
  /**
   * A direct rule's regex starts with a literal (or it has no keywords): its keywords are checked once it matches.
   * Other rules run only when a keyword occurs (their gate checks that first).
   */
  direct: boolean;
  /**
   * Its lead gate (into Compiled.leadList, -1 none): the literals a direct rule's matches begin with, shared by the
   * rules whose literals share a first character (`gh`, `github_pat_`, `gl...`: one search instead of three).
   */
  lead: number;
  /** The lead gate is its own presence test (not searched twice). */
  leadOwn: boolean;
  /** The presence tests (into Compiled.presence, -1 none) of its lead gate and of its gate. */
  leadGroup: number;
  gateGroup: number;
  /**
   * Its keywords (one must occur, case-insensitively) and the literals every match of its regex contains
   * (literals.ts); null for a direct rule led by a literal.
   */
  gate: Gate | null;
  /** How its regex is searched (finders.ts). */
  find: Finder;
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
    return src
      .slice(3, end)
      .split("|")
      .every((alt) => lit.test(alt) && !/^(?:\\.|.)[*?{]/.test(alt));
  }
  // `a*...` or `a?...`: the first literal is optional.
  return lit.test(src) && !/^(?:\\.|.)[*?{]/.test(src);
}

const PLAIN = /[A-Za-z0-9_\-@#%&=<>~`"' ,:;]/;
const MAX_LEADS = 16;

/**
 * The literal texts every match of a literal-led regex begins with (`ghp_`, `gho_`, ... for `\bgh[pousr]_...`, four
 * for `\b(?:AKIA|ASIA|...)`), read up to the first construct that is not a literal, a small class or a group of
 * literal alternatives; null when that cannot be read off with certainty.
 */
export function leadingLiterals(re: RegExp): string[] | null {
  return leadsOf(re)?.leads ?? null;
}

/** leadingLiterals, and whether the list ends at a group whose alternatives are not all literal (`partial`). */
function leadsOf(re: RegExp): { leads: string[]; partial: boolean } | null {
  if (!literalLed(re)) return null;
  let partial = false;
  const src = re.source.replace(/^\\b/, "");
  let leads = [""];
  let i = 0;
  const quantified = (at: number) => /^[*?{+]/.test(src.slice(at));
  while (i < src.length && leads.length <= MAX_LEADS) {
    const ch = src[i]!;
    let next: string[] | null = null;
    let to = i + 1;
    if (ch === "\\" && /[.\-/*+?()[\]{}|^$]/.test(src[i + 1] ?? "")) {
      next = [src[i + 1]!];
      to = i + 2;
    } else if (ch === "[") {
      const end = src.indexOf("]", i);
      const body = src.slice(i + 1, end);
      if (end > i + 1 && /^[A-Za-z0-9_]{1,8}$/.test(body)) (next = [...body]), (to = end + 1);
    } else if (src.startsWith("(?:", i)) {
      const end = closingParen(src, i);
      const alts = end < 0 ? [] : topLevelParts(src.slice(i + 3, end));
      if (end > 0 && alts.every((x) => /^[A-Za-z0-9_]+$/.test(x))) (next = alts), (to = end + 1);
      else if (end > 0 && !quantified(end + 1)) {
        // Alternatives that are not all literal (`(?:glsa_[A-Za-z0-9]{32}|glc_...)`): each one's own leading
        // literals end the list (an alternative without one makes it fail below).
        const own = alts.map((a) => (a === "" ? [""] : altLeads(a, re.flags)));
        if (own.some((o) => o === null)) break;
        const tails = own.flatMap((o) => o!);
        leads = leads.flatMap((l) => tails.map((n) => l + n));
        partial = true;
        break;
      }
    } else if (PLAIN.test(ch)) next = [ch];
    if (!next || quantified(to)) break;
    leads = leads.flatMap((l) => next!.map((n) => l + n));
    i = to;
  }
  if (leads.length > MAX_LEADS || leads.some((l) => l === "")) return null;
  return { leads, partial };
}

/**
 * Fewer literals found wherever one of `lits` is (a superset test, so a gate stays exact): a literal holding
 * another is dropped (`.apikey` for `.api`), and literals sharing their first three characters are searched by
 * their common start (`sntry` for `sntryu_` and `sntrys_eyJ`). One or two literals are what a batch answers for all
 * its files at once (batch.ts).
 */
export function coverOf(lits: readonly string[]): string[] {
  const kept = [...new Set(lits)].filter((l, _, xs) => !xs.some((o) => o.length < l.length && l.includes(o)));
  const byStart = new Map<string, string[]>();
  for (const l of kept) {
    const k = l.length >= 3 ? l.slice(0, 3) : `\0${l}`;
    byStart.set(k, [...(byStart.get(k) ?? []), l]);
  }
  return [...byStart.values()].map((group) => {
    let common = group[0]!;
    for (const l of group) while (!l.startsWith(common)) common = common.slice(0, -1);
    return common;
  });
}

/** The leading literals of one alternative of a group (null when it has none or is not a regex of its own). */
function altLeads(alt: string, flags: string): string[] | null {
  try {
    return leadingLiterals(new RegExp(alt, flags.replace(/[gy]/g, "")));
  } catch {
    return null;
  }
}

/** The index of the `)` closing the group opened at `open` (escapes and classes skipped), or -1. */
function closingParen(src: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (ch === "\\") i++;
    else if (inClass) inClass = ch !== "]";
    else if (ch === "[") inClass = true;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return -1;
}

const escapeLit = (l: string) => l.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

function leadGatesOf(direct: Rule[], gates: Map<Rule, Gate>): { gates: Map<Rule, RegExp>; groups: Map<RegExp | Gate, RegExp>; literals: Map<RegExp, string[]>; batchLiterals: Map<RegExp, string[]> } {
  const byFirst = new Map<string, Array<[Rule, string[]]>>();
  for (const r of direct) {
    const found = leadsOf(r.regex!);
    if (!found) continue;
    const lits = found.leads;
    // Literals read off alternatives (`(?:glsa_...|glc_...)`) or with different first characters (`ntn_`,
    // `secret_`): the rule's own gate, searching a cover of them (own: see below).
    const own = found.partial || lits.some((l) => l[0] !== lits[0]![0]);
    const key = own ? `\0${byFirst.size}` : lits[0]![0]!;
    const list = byFirst.get(key) ?? [];
    list.push([r, lits]);
    byFirst.set(key, list);
  }
  const out = new Map<Rule, RegExp>();
  const parts = new Map<RegExp | Gate, string[]>();
  // The whole literal of a gate that searches part of one (rareTail): what a batch searches instead (below).
  const wholes = new Map<RegExp | Gate, string>();
  for (const [key, list] of byFirst) {
    const all = [...new Set(list.flatMap(([, l]) => l))];
    // A single literal is searched from its rarest character on (`pm_` for `npm_`): a text containing the literal
    // contains that part of it, and the search stops at far fewer candidate positions. An own gate's cover is
    // searched as it is (its common start is what is rare in it).
    const searched = key.startsWith("\0") ? coverOf(all) : all.length === 1 ? [rareTail(all[0]!)] : all;
    // Every such rule is gated, alone too: the gate is one presence test, which a batch answers for many files in
    // one search (batch.ts), and the rule's regex then runs only where its literal occurs.
    const gate = new RegExp(searched.map(escapeLit).join("|"));
    parts.set(gate, searched);
    if (!key.startsWith("\0") && all.length === 1) wholes.set(gate, all[0]!);
    for (const [r] of list) out.set(r, gate);
  }
  for (const g of new Set(gates.values())) {
    if (g.first) parts.set(g, g.first);
    if (g.firstWhole) wholes.set(g, g.firstWhole);
  }
  return { gates: out, ...leadGroupsOf(parts, wholes) };
}

/** Characters rare in text: capitals and punctuation other than `_`, `.`, `,`, quotes and blanks. */
const RARE_CHAR = /[A-Z!#$%&()*+/:;<=>?@[\\\]^`{|}~-]/;
const GROUP_MAX = 6;

/**
 * Groups of lead gates searched as one alternation first. JavaScriptCore searches an alternation of literals as fast
 * as one literal when, at some offset within the shortest literal, every literal has a rare character there (it
 * skips ahead testing that position); otherwise a joined search is slower than separate ones, so only such
 * literals are grouped, at most GROUP_MAX gates a group. The answer never changes: a gate is still asked when its
 * group's search finds something.
 */
function leadGroupsOf(parts: Map<RegExp | Gate, string[]>, wholes: Map<RegExp | Gate, string>): { groups: Map<RegExp | Gate, RegExp>; literals: Map<RegExp, string[]>; batchLiterals: Map<RegExp, string[]> } {
  const rareAt = (lits: string[]) => {
    const m = Math.min(...lits.map((l) => l.length));
    for (let j = 0; j < m; j++) if (lits.every((l) => RARE_CHAR.test(l[j]!))) return true;
    return false;
  };
  const groups: Array<{ gates: Array<RegExp | Gate>; lits: string[] }> = [];
  for (const [gate, lits] of parts) {
    const g = groups.find((x) => x.gates.length < GROUP_MAX && rareAt([...x.lits, ...lits]));
    if (g) g.gates.push(gate), g.lits.push(...lits);
    else groups.push({ gates: [gate], lits: [...lits] });
  }
  const out = new Map<RegExp | Gate, RegExp>();
  const literals = new Map<RegExp, string[]>();
  // A test standing for a single gate that searches part of one literal (`pi_` of `lin_api_`): a batch, whose
  // search does not gain from a rare part (Buffer#indexOf), looks for the whole literal, a sharper test that is just
  // as exact (null: the test is shared, or has no such literal).
  const whole = new Map<RegExp, string | null>();
  // Gates whose first checks look for the very same literals (`.` for several rules) share one test.
  const bySource = new Map<string, RegExp>();
  for (const g of groups) {
    // A lead gate alone is its own presence test; a gate's first check alone becomes one.
    const only = g.gates.length === 1 ? g.gates[0]! : null;
    const lits = [...new Set(g.lits)];
    const source = lits.map(escapeLit).join("|");
    const pre = only instanceof RegExp ? only : (bySource.get(source) ?? new RegExp(source));
    if (!(only instanceof RegExp)) bySource.set(source, pre);
    for (const gate of g.gates) out.set(gate, pre);
    literals.set(pre, lits);
    const w = (only && wholes.get(only)) ?? null;
    whole.set(pre, whole.has(pre) && whole.get(pre) !== w ? null : w);
  }
  const batchLiterals = new Map<RegExp, string[]>();
  for (const [pre, lits] of literals) {
    const w = whole.get(pre);
    batchLiterals.set(pre, w ? [w] : lits);
  }
  return { groups: out, literals, batchLiterals };
}

export function compileRules(rules: Rule[], allowlists: Allowlist[], opts: { decodeDepth?: number } = {}): Compiled {
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
  const exempt = allowlists.filter((a) => a.condition === "OR").flatMap((a) => a.paths);
  // Joined only when every part has the same flags; otherwise each is asked in turn (same answer).
  const sameFlags = exempt.every((r) => r.flags.replace("g", "") === (exempt[0]?.flags.replace("g", "") ?? ""));
  const gates = new Map([...gated, ...unled].map((r) => [r, gateOf(r)]));
  const {
    gates: leadGates,
    groups: leadGroups,
    literals,
    batchLiterals,
  } = leadGatesOf(
    direct.filter((r) => literalLed(r.regex!)),
    gates,
  );
  let exemptPaths: RegExp | null = null;
  try {
    if (exempt.length && sameFlags) exemptPaths = new RegExp(exempt.map((r) => `(?:${r.source})`).join("|"), exempt[0]!.flags.replace("g", ""));
  } catch {
    exemptPaths = null; // e.g. a group name used twice: ask each regex in turn
  }
  const ascii = (lits: string[]) => (lits.every((l) => /^[\x01-\x7f]+$/.test(l)) ? lits : null);
  const presence = [...new Set(leadGroups.values())].map((test) => ({ test, literals: ascii(literals.get(test)!), batch: ascii(batchLiterals.get(test)!) }));
  const presenceIndex = new Map(presence.map((p, i) => [p.test, i]));
  const gateLiterals = new BatchLiterals();
  for (const g of gates.values()) g.bind(gateLiterals);
  const leadList = [...new Set(leadGates.values())];
  const groupOf = (g: RegExp | Gate | undefined) => {
    const group = g && leadGroups.get(g);
    return group ? presenceIndex.get(group)! : -1;
  };
  const steps: Step[] = [...direct.map((rule) => [rule, true] as const), ...gated.map((rule) => [rule, false] as const)].map(([rule, isDirect]) => {
    const lead = leadGates.get(rule);
    const gate = gates.get(rule) ?? null;
    return { rule, direct: isDirect, lead: lead ? leadList.indexOf(lead) : -1, leadOwn: lead !== undefined && leadGroups.get(lead) === lead, leadGroup: groupOf(lead), gate, gateGroup: groupOf(gate ?? undefined), find: finderOf(rule.regex!) };
  });
  return { rules, allowlists, steps, presence, batchLiterals: gateLiterals, leadList, pathOnly, exemptPaths, decodeDepth: opts.decodeDepth ?? 1 };
}

/**
 * What a batch (batch.ts) already knows of a file's text: the answers of the presence tests (per test, at
 * `base + index`: 0 not asked, 1 absent, 2 present) and its base64 runs, found on the bytes. It holds for the text
 * as read: once JSON escapes change the text, it is not used.
 */
export interface TextHint {
  answers: Uint8Array;
  base: number;
  /** The text's base64 runs, or null when they must be found on the text itself. */
  runs: () => Run[] | null;
  /** Whether the text has a backslash (JSON escapes may need decoding); false: it is scanned as it is. */
  escapes: boolean;
  /**
   * Which of Compiled.batchLiterals the text holds, or null (the gates ask the text): null for a text with U+0130
   * or U+212A, whose lowercase forms are ASCII (what keywords are looked for in).
   */
  lits: () => LitAnswers | null;
}

function gateOf(r: Rule): Gate {
  return new Gate(r.keywords, prefilterOf(r.regex!));
}

const ASCII_COUNTS = new Int32Array(128);

/** Shannon entropy per character (gitleaks' measure); an ASCII-only fast path, code points otherwise. */
function entropy(s: string): number {
  if (!s) return 0;
  let ascii = true;
  for (let i = 0; i < s.length && ascii; i++) if (s.charCodeAt(i) >= 128) ascii = false;
  let h = 0;
  if (ascii) {
    const counts = ASCII_COUNTS;
    for (let i = 0; i < s.length; i++) counts[s.charCodeAt(i)]!++;
    for (let i = 0; i < s.length; i++) {
      const c = counts[s.charCodeAt(i)]!;
      if (c === 0) continue;
      const p = c / s.length;
      h -= p * Math.log2(p);
      counts[s.charCodeAt(i)] = 0;
    }
    return h;
  }
  const counts = new Map<string, number>();
  let n = 0;
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1), n++;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

interface Hit {
  match: string;
  secret: string;
  /** The whole line, only for a user's `regexTarget = "line"` (D34). */
  line: () => string;
}

/**
 * A secret made of one repeated character or of a counting sequence (`xxxxxxxx`, `AAAA...`, `abcdef...`, `0123...`)
 * after its public prefix is a documentation look-alike, never a credential: issuers' tokens are random. Asked of
 * the secret only (D34), for the embedded and user rules (an organisation identifier rule is exempt).
 */
export function dummySecret(secret: string): boolean {
  // The random part: past a short public prefix (`ghp_`, `sk-proj-`, `AKIA`, `dp.pt.`).
  const m = /^(?:[A-Za-z0-9]{1,8}[_.-]){1,3}/.exec(secret);
  const body = m && secret.length - m[0].length >= 8 ? secret.slice(m[0].length) : secret;
  if (body.length < 8 || secret.length < 12) return false;
  let same = 0;
  let step = 0;
  for (let i = 1; i < body.length; i++) {
    const d = body.charCodeAt(i) - body.charCodeAt(i - 1);
    if (d === 0) same++;
    else if (d === 1 || d === -1 || (body[i] === "a" && body[i - 1] === "z") || (body[i] === "0" && body[i - 1] === "9") || (body[i] === "0" && body[i - 1] === "z")) step++;
  }
  const pairs = body.length - 1;
  return same >= pairs * 0.6 || step >= pairs * 0.7 || same + step >= pairs * 0.85;
}

/** Whether an allowlist's paths match: asked once per allowlist and text, not once per match. */
type PathCheck = ((a: Allowlist) => boolean) & { rule: (r: Rule) => boolean };

function pathCheck(path: string): PathCheck {
  const seen = new Map<Allowlist, boolean>();
  const f = (a: Allowlist) => {
    let v = seen.get(a);
    if (v === undefined) seen.set(a, (v = a.paths.some((r) => r.test(path))));
    return v;
  };
  return Object.assign(f, { rule: (r: Rule) => r.path === null || r.path.test(path) });
}

function allowedBy(a: Allowlist, hit: Hit, paths: PathCheck): boolean {
  const and = a.condition === "AND";
  let any = false;
  if (a.paths.length) {
    const p = paths(a);
    if (p && !and) return true;
    if (!p && and) return false;
    any = true;
  }
  if (a.regexes.length) {
    const t: string = a.regexTarget === "line" ? hit.line() : a.regexTarget === "match" ? hit.match : hit.secret;
    let p = false;
    for (const r of a.regexes)
      if (r.test(t)) {
        p = true;
        break;
      }
    if (p && !and) return true;
    if (!p && and) return false;
    any = true;
  }
  if (a.stopwords.length) {
    const s = hit.secret.toLowerCase();
    const p = a.stopwords.some((w) => s.includes(w));
    if (p && !and) return true;
    if (!p && and) return false;
    any = true;
  }
  // OR: nothing matched; AND: everything present matched.
  return and && any;
}

/** A file whose path alone an OR allowlist (global) exempts is not read at all. */
export function pathAllowed(c: Compiled, path: string): boolean {
  if (c.exemptPaths) return c.exemptPaths.test(path);
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
  /** The secret's span in the text (for a base64 finding: the run's). */
  start: number;
  end: number;
  lineStart: number;
  matchStart: number;
  matchEnd: number;
  decoded?: "base64" | "percent";
}

/** Matches kept per text; past this a text's findings are only counted (a file of millions of secrets stays bounded). */
const RAW_CAP = 100_000;

interface Collect {
  raws: Raw[];
  /** Distinct (line, rule) pairs past RAW_CAP. */
  overflow: number;
  paths: PathCheck;
  /**
   * Whether the text has a `gitleaks:allow` anywhere (most do not: no per-match search); undefined until a match
   * first asks (inlineAllowed), so a text without matches is never searched for it.
   */
  inlineAllow?: boolean;
  /** The last (line, rule) counted past RAW_CAP: matches of one rule come in order, so repeats are adjacent. */
  lastOver?: { line: number; rule: Rule };
}

export interface TextResult {
  /** The first `budget` findings, sorted by line and rule. */
  findings: Finding[];
  /** Findings past the budget (counted, not rendered). */
  more: number;
  /** Findings `skip` dropped (.gitleaksignore, --baseline). */
  suppressed: number;
}

/**
 * Whether a finding is suppressed, by its line fingerprint (`<file>:<rule>:<line>`, named by rule and line) or its
 * content fingerprint; a skipped one is dropped before it counts.
 */
export type Skip = (rule: string, line: number, content: string) => boolean;

const DOUBLE_ESCAPED = /\\(?:["\\/nrt]|u[0-9a-fA-F]{4})/;

/** Scans one text; `path` is what path allowlists and findings see. */
export function scanText(c: Compiled, path: string, text: string): Finding[] {
  return scanTextBounded(c, path, text, Infinity).findings;
}

/** scanText rendering at most `budget` findings; the rest are counted. `hint`: what a batch knows of `raw`. */
export function scanTextBounded(c: Compiled, path: string, raw: string, budget: number, skip?: Skip, hint?: TextHint): TextResult {
  let text = hint && !hint.escapes ? raw : unescapeJson(raw);
  // A JSON string holding JSON (a Codex rollout's tool output): escaped twice, decoded twice.
  if (text !== raw && DOUBLE_ESCAPED.test(text)) text = unescapeJson(text);
  const col: Collect = { raws: [], overflow: 0, paths: pathCheck(path) };
  collect(c, path, text, col, c.decodeDepth, text === raw ? hint : undefined);
  const out = col.raws.length ? render(text, path, col.raws, budget, skip) : { findings: [], more: 0, suppressed: 0 };
  out.more += col.overflow;
  for (const rule of c.pathOnly) {
    if (!rule.path!.test(path)) continue;
    const fingerprint = contentFingerprint(path, rule.id, path, 1);
    if (skip?.(rule.id, 1, fingerprint)) {
      out.suppressed++;
      continue;
    }
    if (out.findings.length < budget) out.findings.push({ file: path, line: 1, column: 1, rule: rule.id, description: rule.description, match: "", snippet: "(the file name matches)", fingerprint });
    else out.more++;
  }
  return out;
}

/**
 * The secrets' spans in `text` after its JSON escapes are decoded (the text they index is returned too), for a
 * caller that must hand the text on masked (hook secret-alert).
 */
export function secretSpans(c: Compiled, path: string, raw: string): { text: string; spans: Array<{ start: number; end: number; rule: string }> } {
  let text = unescapeJson(raw);
  if (text !== raw && DOUBLE_ESCAPED.test(text)) text = unescapeJson(text);
  const col: Collect = { raws: [], overflow: 0, paths: pathCheck(path) };
  collect(c, path, text, col, c.decodeDepth);
  return { text, spans: col.raws.map((r) => ({ start: r.start, end: r.end, rule: r.rule.id })) };
}

function collect(c: Compiled, path: string, text: string, col: Collect, depth: number, hint?: TextHint): void {
  const kw = new Keywords(text);
  const outer = col.inlineAllow;
  col.inlineAllow = undefined;
  // Per presence test, then per lead gate: 0 not asked yet, 1 absent, 2 present (a batch's answers to start with).
  const P = c.presence.length;
  const seen = new Uint8Array(P + c.leadList.length);
  if (hint) for (let i = 0; i < P; i++) seen[i] = hint.answers[hint.base + i]!;
  // What the batch knows of the text's literals, asked once a gate is reached (null: the gates ask the text).
  let lits: LitAnswers | null | undefined;
  for (const s of c.steps) {
    // A rule for one kind of file (`.pgpass`) is asked of its path first: its regex never runs elsewhere.
    if (s.rule.path && !col.paths.rule(s.rule)) continue;
    if (s.lead >= 0) {
      const at = P + s.lead;
      let v = seen[at]!;
      // A lead gate that is its own presence test is not searched twice.
      if (v === 0) seen[at] = v = present(c, text, seen, s.leadGroup) && (s.leadOwn || c.leadList[s.lead]!.test(text)) ? 2 : 1;
      if (v === 1) continue;
    }
    if (s.gate) {
      if (!present(c, text, seen, s.gateGroup) || !s.gate.passes(text, kw.lower, (lits ??= hint?.lits() ?? null))) continue;
    } else if (!s.direct && !kw.any(s.rule)) continue;
    matchRule(c, s.rule, s.find, path, text, col, s.direct ? kw : null);
  }
  if (depth > 0) {
    collectDecoded(c, path, text, col, depth, hint?.runs() ?? base64Runs(text));
    // Percent-encoding (`%3D`, `%2F`): one more decoding, like JSON escapes and base64; a text without `%` costs one search.
    if (text.indexOf("%") >= 0) collectDecoded(c, path, text, col, depth, percentRuns(text), "percent");
  }
  col.inlineAllow = outer;
}

/** Whether presence test `g` finds one of its literals in `text` (-1: no test): asked once per text, then kept. */
function present(c: Compiled, text: string, seen: Uint8Array, g: number): boolean {
  if (g < 0) return true;
  let v = seen[g]!;
  if (v === 0) seen[g] = v = c.presence[g]!.test.test(text) ? 2 : 1;
  return v === 2;
}

/**
 * Base64 runs of 20+ characters that decode to text are scanned with every rule (nested runs while `depth` lasts);
 * each rule that matches inside gives one finding at the run, whose whole span is masked.
 */
function collectDecoded(c: Compiled, path: string, text: string, col: Collect, depth: number, runs: Run[], kind: "base64" | "percent" = "base64"): void {
  let lineNo = 1;
  let scanned = 0;
  for (const run of runs) {
    const decoded = kind === "base64" ? decodeBase64Text(text.slice(run.start, run.end)) : decodePercent(text.slice(run.start, run.end));
    if (decoded === null) continue;
    const inner: Collect = { raws: [], overflow: 0, paths: col.paths };
    collect(c, path, unescapeJson(decoded), inner, depth - 1);
    if (inner.raws.length === 0) continue;
    for (let i = text.indexOf("\n", scanned); i >= 0 && i < run.start; i = text.indexOf("\n", i + 1)) lineNo++;
    scanned = run.start;
    const lineStart = text.lastIndexOf("\n", run.start - 1) + 1;
    if (inlineAllowed(col, text)) {
      const lineEnd = text.indexOf("\n", run.start);
      if (text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).includes("gitleaks:allow")) continue;
    }
    for (const rule of new Set(inner.raws.map((r) => r.rule))) {
      push(col, { line: lineNo, rule, start: run.start, end: run.end, lineStart, matchStart: run.start, matchEnd: run.end, decoded: kind });
    }
  }
}

function inlineAllowed(col: Collect, text: string): boolean {
  return (col.inlineAllow ??= text.includes("gitleaks:allow"));
}

/** Keeps a match while under RAW_CAP; past it, counts each new (line, rule) pair once. */
function push(col: Collect, r: Raw): void {
  if (col.raws.length < RAW_CAP) {
    col.raws.push(r);
    return;
  }
  if (col.lastOver?.line === r.line && col.lastOver.rule === r.rule) return;
  col.lastOver = { line: r.line, rule: r.rule };
  col.overflow++;
}

/**
 * Line numbers are computed incrementally: matches come in order. `kw`: a direct rule's keywords are checked when its
 * regex first matches (null: the gate already did).
 */
function matchRule(c: Compiled, rule: Rule, find: Finder, path: string, text: string, col: Collect, kw: Keywords | null): void {
  if (rule.path && !rule.path.test(path)) return;
  let lineNo = 1;
  let scanned = 0;
  let checked = false;
  let from = 0;
  for (let m = find(text, 0); m; m = find(text, from)) {
    if (!checked) {
      checked = true;
      if (kw && !kw.any(rule)) return;
    }
    const at = m.index;
    // As a global regex's exec goes on: from the match's end, one character further after an empty match.
    from = at + Math.max(1, m[0].length);
    if (m[0] === "") continue;
    const secret = secretOf(m, rule.secretGroup);
    if (rule.entropy && entropy(secret) < rule.entropy) continue;
    if (!rule.org && dummySecret(secret)) continue;
    if ((rule.checksum && !checksumValid(secret)) || (!rule.org && badChecksumToken(secret))) continue;
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = text.length;
    if (inlineAllowed(col, text) && text.slice(lineStart, lineEnd).includes("gitleaks:allow")) continue;
    const hit: Hit = { match: m[0], secret, line: () => text.slice(lineStart, lineEnd) };
    if (rule.allowlists.length && rule.allowlists.some((a) => allowedBy(a, hit, col.paths))) continue;
    if (c.allowlists.some((a) => allowedBy(a, hit, col.paths))) continue;
    // Lines are counted up to the matches that are kept (most matches of the generic rules are not: low entropy).
    for (let i = text.indexOf("\n", scanned); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) lineNo++;
    scanned = at;
    const secretAt = m[0].indexOf(secret);
    const start = at + Math.max(secretAt, 0);
    push(col, { line: lineNo, rule, start, end: start + (secretAt < 0 ? m[0].length : secret.length), lineStart, matchStart: at, matchEnd: at + m[0].length });
  }
}

const byRuleId = (a: Finding, b: Finding) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);

/**
 * Findings by line, then rule id; one per (line, rule). Each finding's snippet masks every secret found on its line,
 * by any rule. Two rules reporting the very same span (a GitHub token assigned to GITHUB_TOKEN) give one finding:
 * the rule that matched first (literal-led rules before keyword-gated ones, then config order).
 */
function render(text: string, path: string, raws: Raw[], budget: number, skip?: Skip): TextResult {
  // Stable: within a line, raws keep their order (literal-led rules first, then config order).
  raws.sort((a, b) => a.lineStart - b.lineStart);
  const findings: Finding[] = [];
  let more = 0;
  let suppressed = 0;
  // Occurrences of each (rule, secret) so far, for the content fingerprints; not needed once nothing more is
  // rendered or suppressed (past the budget without a skip).
  const seen = new Map<string, number>();
  const fingerprints = new Map<Raw, string>();
  for (let i = 0; i < raws.length; ) {
    let j = i + 1;
    while (j < raws.length && raws[j]!.lineStart === raws[i]!.lineStart) j++;
    const list = raws.slice(i, j);
    i = j;
    const rules: Raw[] = [];
    for (let k = 0; k < list.length; k++) {
      const r = list[k]!;
      // The same span already reported by an earlier rule, or this rule already on this line: one finding.
      let dup = false;
      for (let q = 0; q < k && !dup; q++) dup = (list[q]!.start === r.start && list[q]!.end === r.end) || list[q]!.rule === r.rule;
      if (dup) continue;
      if (skip || findings.length < budget) {
        const secret = text.slice(r.start, r.end);
        const key = `${r.rule.id}\0${secret}`;
        const n = (seen.get(key) ?? 0) + 1;
        seen.set(key, n);
        fingerprints.set(r, contentFingerprint(path, r.rule.id, secret, n));
      }
      if (skip?.(r.rule.id, r.line, fingerprints.get(r)!)) {
        suppressed++;
        continue;
      }
      rules.push(r);
    }
    if (rules.length === 0) continue;
    if (findings.length >= budget) {
      more += rules.length;
      continue;
    }
    const lineStart = list[0]!.lineStart;
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const masked = list.map((r) => ({ start: r.start - lineStart, end: Math.min(r.end, lineEnd) - lineStart, rule: r.rule.id }));
    const snippet = maskLine(text.slice(lineStart, lineEnd), masked);
    const line: Finding[] = rules.map((r) => {
      const f: Finding = {
        file: path,
        line: r.line,
        column: r.start - lineStart + 1,
        rule: r.rule.id,
        description: r.rule.description,
        match: maskMatch(text.slice(r.matchStart, Math.min(r.matchEnd, lineEnd)), r.start - r.matchStart, Math.min(r.end, lineEnd) - r.matchStart),
        snippet,
        fingerprint: fingerprints.get(r)!,
      };
      if (r.decoded) f.decoded = r.decoded;
      return f;
    });
    line.sort(byRuleId);
    for (const f of line) {
      if (findings.length < budget) findings.push(f);
      else more++;
    }
  }
  return { findings, more, suppressed };
}

// The per-text path (tier.ts).
keepOutOfFTL(dummySecret, scanTextBounded, collect, present, collectDecoded, matchRule, render, push, inlineAllowed, pathCheck, allowedBy, entropy, pathAllowed, secretOf, Keywords.prototype.any, contentFingerprint);
