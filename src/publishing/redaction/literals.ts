/**
 * Required literals of a compiled rule regex (the idea behind ripgrep's literal prefilter): a list of factors, each
 * a set of strings, such that every match of the regex contains at least one string of EVERY factor. A text in which
 * some factor has no occurrence cannot match, so the (much slower) regex need not run over it at all. Findings are
 * unchanged by construction; anything this reader does not fully understand yields fewer factors, never wrong ones.
 */
import { keepOutOfFTL } from "./tier.ts";

export interface Prefilter {
  /** Strings every match contains one of, per factor; compared under the regex's own `i`/`u` flags. */
  factors: string[][];
  flags: string;
}

class Bail extends Error {}

const META = new Set("^$\\.*+?()[]{}|/".split(""));

/** Parses the JS source produced by re2.ts. Returns the factors of an alternation starting at `i` and where it ended. */
function alternation(s: string, i: number): [string[][], number] {
  const alts: string[][][] = [];
  let cur: string[][] = [];
  let run = "";
  // Whether the last atom was a literal char appended to `run` (a quantifier then applies to it alone).
  let lastLiteral = false;
  let lastGroup: string[][] | null = null;
  const endRun = () => {
    if (run) cur.push([run]);
    run = "";
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === ")") break;
    if (c === "|") {
      if (lastGroup) cur.push(...lastGroup);
      endRun();
      alts.push(cur);
      cur = [];
      lastLiteral = false;
      lastGroup = null;
      i++;
      continue;
    }
    if (c === "*" || c === "+" || c === "?" || c === "{") {
      let min = c === "+" ? 1 : 0;
      let len = 1;
      if (c === "{") {
        const m = /^\{(\d+)(?:,\d*)?\}/.exec(s.slice(i));
        if (!m) throw new Bail();
        min = Number(m[1]);
        len = m[0].length;
      }
      if (s[i + len] === "?") len++;
      if (lastLiteral) {
        if (min === 0) run = run.slice(0, -1);
        endRun();
      } else if (lastGroup) {
        if (min > 0) cur.push(...lastGroup);
      } else if (i === 0 || s[i - 1] === "(" || s[i - 1] === "|") {
        throw new Bail();
      }
      lastLiteral = false;
      lastGroup = null;
      i += len;
      continue;
    }
    // A pending group is required unless a quantifier with minimum 0 follows; none does.
    if (lastGroup) cur.push(...lastGroup);
    lastGroup = null;
    lastLiteral = false;
    if (c === "(") {
      endRun();
      let j = i + 1;
      let keep = true;
      if (s[j] === "?") {
        if (s[j + 1] === ":") j += 2;
        else if (s[j + 1] === "<" && /[A-Za-z_]/.test(s[j + 2] ?? "")) {
          const close = s.indexOf(">", j);
          if (close < 0) throw new Bail();
          j = close + 1;
        } else {
          // Lookarounds and modifier groups (`(?i:`): their contents say nothing certain about the match.
          const m = /^\?(?:[=!]|<[=!]|[ims]*(?:-[ims]*)?:)/.exec(s.slice(j));
          if (!m) throw new Bail();
          j += m[0].length;
          keep = false;
        }
      }
      const [inner, end] = alternation(s, j);
      if (s[end] !== ")") throw new Bail();
      i = end + 1;
      lastGroup = keep ? inner : [];
      continue;
    }
    if (c === "[") {
      endRun();
      let j = i + 1;
      while (j < s.length && s[j] !== "]") j += s[j] === "\\" ? 2 : 1;
      if (j >= s.length) throw new Bail();
      const set = classMembers(s.slice(i + 1, j));
      lastGroup = set ? [set] : [];
      i = j + 1;
      continue;
    }
    if (c === "\\") {
      const e = s[i + 1];
      if (e === undefined) throw new Bail();
      if (/[A-Za-z0-9]/.test(e)) {
        // A class escape, an assertion or a code-point escape: not a literal; skip its argument.
        endRun();
        const from = i;
        i += 2;
        if (e === "x") i += 2;
        else if (e === "c") i += 1;
        else if (e === "u") i = s[i] === "{" ? s.indexOf("}", i) + 1 : i + 4;
        else if ((e === "p" || e === "P") && s[i] === "{") i = s.indexOf("}", i) + 1;
        else if (e === "k" && s[i] === "<") i = s.indexOf(">", i) + 1;
        else if (/[0-9]/.test(e)) while (/[0-9]/.test(s[i] ?? "")) i++;
        if (i <= from || /[()[\]|]/.test(s.slice(from + 2, i))) throw new Bail();
        continue;
      }
      run += e;
      lastLiteral = true;
      i += 2;
      continue;
    }
    if (c === "." || c === "^" || c === "$") {
      endRun();
      i++;
      continue;
    }
    if (c === "]" || c === "}") throw new Bail();
    run += c;
    lastLiteral = !META.has(c);
    if (!lastLiteral) throw new Bail();
    i++;
  }
  if (lastGroup) cur.push(...lastGroup);
  endRun();
  alts.push(cur);
  if (alts.length === 1) return [alts[0]!, i];
  // An alternation: a union of one factor from each branch is a factor; none if a branch has none. Three such unions
  // (each branch's most selective factor, its first, its last) so that a common word in one does not defeat all.
  if (alts.some((a) => a.length === 0)) return [[], i];
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const pick of [best, (a: string[][]) => a[0]!, (a: string[][]) => a[a.length - 1]!]) {
    const union = [...new Set(alts.flatMap((a) => pick(a)))];
    const key = JSON.stringify([...union].sort());
    if (!seen.has(key)) seen.add(key), out.push(union);
  }
  return [out, i];
}

/**
 * The characters of a small positive class written out one by one (`[:=]`, `["']`): the match contains one of them.
 * Negated classes, ranges and class escapes (`\d`) give nothing.
 */
function classMembers(body: string): string[] | null {
  if (body === "" || body.startsWith("^")) return null;
  const out: string[] = [];
  for (let k = 0; k < body.length; k++) {
    const ch = body[k]!;
    if (ch === "\\") {
      const e = body[k + 1];
      if (e === undefined || /[A-Za-z0-9]/.test(e)) return null;
      out.push(e);
      k++;
      continue;
    }
    if (ch === "-" && k > 0 && k < body.length - 1) return null;
    if (ch === "[") return null;
    out.push(ch);
  }
  return out.length <= 8 ? [...new Set(out)] : null;
}

/** The factor whose shortest string is longest (the most selective, roughly). */
function best(factors: string[][]): string[] {
  let b = factors[0]!;
  const score = (f: string[]) => Math.min(...f.map((x) => x.length));
  for (const f of factors) if (score(f) > score(b)) b = f;
  return b;
}

export function prefilterOf(re: RegExp): Prefilter {
  const flags = re.flags.replace(/[^iu]/g, "");
  if (re.flags.includes("v")) return { factors: [], flags };
  try {
    const [factors, end] = alternation(re.source, 0);
    if (end !== re.source.length) return { factors: [], flags };
    // Under `u` a run cut inside a surrogate pair would not match as a string of its own: such factors are dropped.
    const usable = (f: string[]) => f.length > 0 && !f.includes("") && !(flags.includes("u") && f.some((x) => /[\ud800-\udfff]/.test(x)));
    const seen = new Set<string>();
    const out: string[][] = [];
    for (const f of factors.filter(usable)) {
      const key = JSON.stringify([...new Set(f)].sort());
      if (!seen.has(key)) seen.add(key), out.push([...new Set(f)]);
    }
    return { factors: out, flags };
  } catch (e) {
    if (e instanceof Bail) return { factors: [], flags };
    throw e;
  }
}

/** Characters from rarest to most common in source text, roughly; any other character counts as common. */
const RARITY = "QZJXKVWYUGHFBOPNMLRDCTISAE`~^|@#%&!?<>[]{}qzjxkvwybgfpmhd:;$+*=ulcnr/oistae_-.,'\" \t";

/** The part of `lit` from its rarest character on (at least two characters when `lit` has them). */
export function rareTail(lit: string): string {
  let at = 0;
  let best = Infinity;
  for (let i = 0; i < lit.length; i++) {
    const r = RARITY.indexOf(lit[i]!);
    const rank = r < 0 ? RARITY.length : r;
    if (rank < best) (best = rank), (at = i);
  }
  return lit.slice(Math.max(0, Math.min(at, lit.length - 2)));
}

/** Escapes a literal for a RegExp (also under `u`, where only syntax characters may be escaped). */
function escapeLiteral(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

type Check = (text: string, lower: () => string) => boolean;

/**
 * One factor as a test: a single case-sensitive string by `includes`, otherwise one RegExp alternation under the
 * rule's `i`/`u` flags (the regex engine skips to candidate characters, cheaper than one search per string). A
 * match of the rule contains one of the strings as matched under those very flags, so the test is exact.
 */
function factorCheck(f: string[], flags: string): Check {
  if (f.length === 1 && !flags.includes("i")) {
    // Searched from its rarest character on: a text containing the literal contains that part of it (a superset,
    // so the gate stays exact), and JavaScriptCore's search stops at far fewer candidates than `includes` does.
    const tail = rareTail(f[0]!);
    if (tail.length >= 2 && !flags.includes("u")) {
      const re = new RegExp(escapeLiteral(tail));
      return (text) => re.test(text);
    }
    const lit = f[0]!;
    return (text) => text.includes(lit);
  }
  const re = new RegExp(f.map(escapeLiteral).join("|"), flags);
  return (text) => re.test(text);
}

/** Characters whose lowercase form contains an ASCII character (U+0130 -> "i\u0307", U+212A KELVIN SIGN -> "k"). */
const LOWERS_TO_ASCII = /[\u0130\u212a]/;

/** Whether `text` has one of LOWERS_TO_ASCII: asked once per text, however many keyword tests fail on it. */
let lastText: string | null = null;
let lastHas = false;
function lowersToAscii(text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastHas = LOWERS_TO_ASCII.test(text);
  }
  return lastHas;
}

/**
 * gitleaks' keyword test: the lowercased text contains a keyword. For ASCII keywords a case-insensitive RegExp
 * over the text itself gives the same answer (without lowercasing the text) except where the text has one of
 * LOWERS_TO_ASCII; only then, when the RegExp found nothing, is the lowercased text consulted.
 */
function keywordCheck(keywords: string[]): Check {
  const lowerHas = (lower: string) => keywords.some((k) => lower.includes(k));
  if (keywords.some((k) => /[^\x00-\x7f]/.test(k) || k === "")) return (_text, lower) => lowerHas(lower());
  // Without letters the `i` flag changes nothing, and a case-sensitive RegExp searches faster.
  const re = new RegExp(keywords.map(escapeLiteral).join("|"), keywords.some((k) => /[A-Za-z]/.test(k)) ? "i" : "");
  return (text, lower) => re.test(text) || (lowersToAscii(text) && lowerHas(lower()));
}

/**
 * The conjunction of a rule's keyword test and its regex's required literals. Case-sensitive literal tests (the
 * cheapest) run first, fewest strings first; then the case-insensitive ones, whose ORDER adapts as a scan goes (the
 * test that last failed runs first). The answer for a text never depends on the order.
 */
/**
 * The literals a batch looks for in its bytes (batch.ts), each once: case-sensitive, or folded (searched in the
 * batch with ASCII capitals made small, as a case-insensitive RegExp without `u` matches ASCII letters).
 */
export class BatchLiterals {
  private readonly ids = new Map<string, number>();
  readonly list: Array<{ text: string; fold: boolean }> = [];
  id(text: string, fold: boolean): number {
    // Without letters, folding changes nothing: one case-sensitive search serves both.
    if (!/[A-Za-z]/.test(text)) fold = false;
    const t = fold ? text.toLowerCase() : text;
    const key = `${fold ? "i" : "s"}${t}`;
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.list.push({ text: t, fold }) - 1));
    return id;
  }
}

/** At most this many literals make a check a batch answers (each is one search of the batch). */
const BATCH_CHECK_MAX = 6;

/**
 * A check and, when all it asks is whether the text holds one of a few ASCII literals (case-sensitively, or with
 * ASCII letters folded), those literals, which a batch looks for in its bytes (Buffer#indexOf) instead of one
 * RegExp search per text: a case-insensitive alternation is searched slowly by JavaScriptCore.
 */
interface LitCheck {
  run: Check;
  lits: string[] | null;
  fold: boolean;
  /** Ids in the scan's BatchLiterals (bind), or null: `run` is asked. */
  ids: Int32Array | null;
}

const litCheck = (run: Check, lits: string[] | null, fold: boolean): LitCheck => ({ run, lits: lits && lits.length <= BATCH_CHECK_MAX && lits.every((l) => /^[\x01-\x7f]+$/.test(l)) ? lits : null, fold, ids: null });

/** A batch's answers for one of its files: whether it holds literal `id` (searched when first asked, batch.ts). */
export interface LitAnswers {
  has(id: number): boolean;
}

/** Whether the file holds one of `ids`. */
function anyOf(ans: LitAnswers, ids: Int32Array): boolean {
  for (let k = 0; k < ids.length; k++) if (ans.has(ids[k]!)) return true;
  return false;
}

export class Gate {
  private readonly fast: LitCheck[];
  private readonly slow: LitCheck[];
  /**
   * The strings the first check looks for, case-sensitively (null when there is no such check): a text with none
   * of them fails the gate, so several gates' first checks can be searched as one (engine.ts, leadGroups).
   */
  readonly first: string[] | null = null;
  /** The whole literal when `first` is the rarest part of one (a batch searches the whole, engine.ts). */
  readonly firstWhole: string | null = null;
  constructor(keywords: string[], pf: Prefilter) {
    // Fewest strings first: a single `includes` costs one pass over the text.
    // Under `i` without `u`, ASCII characters other than letters match only themselves: such factors need no `i`.
    const caseless = (f: string[]) => !pf.flags.includes("i") || (!pf.flags.includes("u") && f.every((x) => /^[\x00-\x40\x5b-\x60\x7b-\x7f]*$/.test(x)));
    const fastFactors = pf.factors.filter(caseless).sort((a, b) => a.length - b.length);
    // A single case-sensitive literal is searched fast in each text (from its rarest part): only alternations are
    // left to a batch.
    const fast = fastFactors.map((f) => litCheck(factorCheck(f, pf.flags.replace("i", "")), f.length > 1 ? f : null, false));
    const f0 = fastFactors[0];
    // What the first check searches, case-sensitively (a single literal from its rarest part, as factorCheck does).
    if (f0 && !pf.flags.includes("u")) {
      const part = f0.length === 1 && rareTail(f0[0]!).length >= 2;
      this.first = part ? [rareTail(f0[0]!)] : f0;
      if (part) this.firstWhole = f0[0]!;
    }
    // Keywords: the folded text holds one (a batch answers none for a text with one of LOWERS_TO_ASCII); a factor
    // under `i` with `u` folds more than ASCII letters, so it is always asked of the text.
    const slowFactor = (f: string[]) => litCheck(factorCheck(f, pf.flags), pf.flags.includes("u") ? null : f, true);
    const slow = [...(keywords.length ? [litCheck(keywordCheck(keywords), keywords, true)] : []), ...pf.factors.filter((f) => !caseless(f)).map(slowFactor)];
    this.fast = fast;
    this.slow = slow;
  }
  /** Gives each check a batch answers the ids of its literals in `table`. */
  bind(table: BatchLiterals): void {
    for (const ch of [...this.fast, ...this.slow]) if (ch.lits) ch.ids = Int32Array.from(ch.lits.map((l) => table.id(l, ch.fold)));
  }
  /**
   * False when no finding of the rule can come from `text`; `lower` gives the lowercased text. `ans`: what its
   * batch knows of the text's literals (batch.ts), when it has that.
   */
  passes(text: string, lower: () => string, ans?: LitAnswers | null): boolean {
    for (const ch of this.fast) if (!(ans && ch.ids ? anyOf(ans, ch.ids) : ch.run(text, lower))) return false;
    const slow = this.slow;
    for (let i = 0; i < slow.length; i++) {
      const ch = slow[i]!;
      if (ans && ch.ids ? anyOf(ans, ch.ids) : ch.run(text, lower)) continue;
      if (i > 0) [slow[0], slow[i]] = [ch, slow[0]!];
      return false;
    }
    return true;
  }
}

// The per-text path (tier.ts).
keepOutOfFTL(Gate.prototype.passes, lowersToAscii, anyOf);
