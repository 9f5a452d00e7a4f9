/**
 * How a rule's regex is searched (engine.ts, matchRule): `find(text, from)` gives the match a global regex's `exec`
 * gives from `lastIndex = from` (the first match starting at or after `from`, with the regex's own choice among the
 * matches starting there), so the matches, and so the findings, never change. Most regexes are searched as they
 * are; shapes that JavaScriptCore searches slowly (it tries the regex at every position) get a search of their own,
 * which tries the regex (sticky, on the whole text) only where a match can start:
 * - the quoted-assignment rule (siteFinder): before an assignment site (`=`, `:` or `>`, up to five blanks, a quote
 *   and eight value characters), far rarer in source code than the rule's keywords;
 * - the unquoted-assignment rule (unquotedFinder): at line starts whose line begins with a name and `=` or `:`;
 * - any other multiline regex that starts with `^` (lineStartFinder): at 0 and after each line terminator.
 * The two rules are recognised by their exact flags and source (config/gitleaks.toml): a user's edit of either
 * makes it an ordinary regex again.
 */
import { keepOutOfFTL } from "./tier.ts";

export type Finder = (text: string, from: number) => RegExpExecArray | null;

/** `src` split at its top-level `|` (outside groups and classes). */
export function topLevelParts(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === "\\") i++;
    else if (inClass) inClass = ch !== "]";
    else if (ch === "[") inClass = true;
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "|" && depth === 0) out.push(src.slice(from, i)), (from = i + 1);
  }
  out.push(src.slice(from));
  return out;
}

/**
 * The unquoted-assignment rule (config/gitleaks.toml, assignment_secret_unquoted), by exact flags and source: a line
 * start, blanks, an optional `-`/`+` and `export`, then a name of up to 40 + 10 + 40 name characters holding a
 * keyword, up to 5 blanks, `=` or `:`, up to 5 blanks and a value of 8 or more characters. So every match starts
 * where LINE_SITE (the same without the keyword, any 3 to 90 name characters, and the value's first 8 characters)
 * matches after a line terminator, or at 0: the regex is tried (sticky) only there.
 */
const UNQUOTED = `gim:^[ \\t]*(?:[-+][ \\t]*)?(?:export[ \\t]+)?[a-z0-9_.-]{0,40}(?:passw(?:or)?d|pwd|secret|token|api[_.-]?key|access[_.-]?key|credential)[a-z0-9_.-]{0,40}[ \\t]{0,5}(?:=|:)[ \\t]{0,5}([^\\s"'\`$<>{}()\\[\\],;|&*][^\\s"'\`$<>{}()\\[\\],;]{7,999})[ \\t]*(?:#.*)?$`;
const LINE_SITE = /[\n\r\u2028\u2029][ \t]*(?:[-+][ \t]*)?(?:export[ \t]+)?[a-z0-9_.-]{3,90}[ \t]{0,5}[=:][ \t]{0,5}[^\s"'`$<>{}()[\],;|&*][^\s"'`$<>{}()[\],;]{7}/gi;

function unquotedFinder(re: RegExp): Finder | null {
  if (`${re.flags}:${re.source}` !== UNQUOTED) return null;
  const sticky = new RegExp(re.source.slice(1), "imy");
  const site = new RegExp(LINE_SITE.source, "gi");
  return (text, from) => {
    if (from === 0) {
      sticky.lastIndex = 0;
      const m = sticky.exec(text);
      if (m) return m;
    }
    site.lastIndex = Math.max(0, from - 1);
    for (let s = site.exec(text); s; s = site.exec(text)) {
      sticky.lastIndex = s.index + 1;
      const m = sticky.exec(text);
      if (m) return m;
      site.lastIndex = s.index + 1;
    }
    return null;
  };
}

/**
 * A search of `(?m)^X` (X without a top-level alternation): X sticky at 0, then `[\n\r\u2028\u2029](?:X)` (a
 * multiline `^` holds exactly at 0 and after those four terminators). The match found is shifted back by the
 * terminator it starts with.
 */
function lineStartFinder(re: RegExp): Finder | null {
  const src = re.source;
  if (!re.flags.includes("m") || !src.startsWith("^") || /^\^[*+?{]/.test(src) || topLevelParts(src).length > 1) return null;
  const rest = src.slice(1);
  const flags = re.flags.replace(/[gy]/g, "");
  const atStart = new RegExp(`(?:${rest})`, `${flags}y`);
  const after = new RegExp(`[\\n\\r\\u2028\\u2029](?:${rest})`, `${flags}g`);
  return (text, from) => {
    if (from === 0) {
      atStart.lastIndex = 0;
      const m = atStart.exec(text);
      if (m) return m;
    }
    // A match at p >= max(from, 1) is one of `after` at p - 1.
    after.lastIndex = Math.max(0, from - 1);
    const m = after.exec(text);
    if (!m) return null;
    m[0] = m[0].slice(1);
    m.index += 1;
    return m;
  };
}

/** JavaScript's `\s`: white space and line terminators. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** `[a-z0-9_.-]` under `i` without `u`: the ASCII letters of either case (no other character folds to them). */
const NAME = new Uint8Array(128);
for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") NAME[ch.charCodeAt(0)] = 1;
const isName = (c: number) => c < 128 && NAME[c] === 1;
const isQuote = (c: number) => c === 34 || c === 39;

/**
 * The quoted-assignment rule (config/gitleaks.toml, assignment_secret), by exact flags and source. A match is a
 * keyword K (3 to 10 characters: `passwd`, `password`, `pwd`, `secret`, `token`, `api?key`, `access?key`,
 * `credential`, all name characters), up to 40 name characters, an optional quote, up to 5 blanks (`\s`), a
 * separator (`=`, `:`, `:=`, `=>`), up to 5 blanks, a quote and 8 or more value characters. Its site is the
 * separator's last character: one of `=:>` followed by up to 5 blanks, a quote and 8 value characters (SITE), far
 * rarer in source code than the keywords. From a site back: the separator (one or two characters), the blanks
 * before it (at most 5, all of them: a name character or a quote ends them), an optional quote, then the run of
 * name characters holding K and the name, at most 50 long: the match starts in that run, at least 3 before its end.
 * So every match starting at or after `from` starts in the run before one of the sites after `from`, and no match
 * starting before a site has a later site (a separator is not a name character): once a site's run is tried, every
 * position before the site is settled.
 */
const ASSIGNMENT = `gi:(?:passw(?:or)?d|pwd|secret|token|api[_.-]?key|access[_.-]?key|credential)[a-z0-9_.-]{0,40}["']?\\s{0,5}(?:=|:|:=|=>)\\s{0,5}["']([^"'\\s]{8,1000})["']`;
const SITE = /[=:>]\s{0,5}["'][^"'\s]{8}/g;
/** The characters K can start with, either case. */
const K_FIRST = new Uint8Array(128);
for (const ch of "pstacPSTAC") K_FIRST[ch.charCodeAt(0)] = 1;

function siteFinder(re: RegExp): Finder | null {
  if (`${re.flags}:${re.source}` !== ASSIGNMENT) return null;
  const site = new RegExp(SITE.source, "g");
  const sticky = new RegExp(re.source, "iy");
  /** Tries the run of names ending before separator start `sep`, from `lo` on. */
  const tryRun = (text: string, sep: number, lo: number): RegExpExecArray | null => {
    let j = sep;
    let blanks = 0;
    while (j > 0 && isSpace(text.charCodeAt(j - 1))) {
      j--;
      if (++blanks > 5) return null;
    }
    const end = j > 0 && isQuote(text.charCodeAt(j - 1)) ? j - 1 : j;
    let x = end;
    while (x > 0 && end - x < 50 && isName(text.charCodeAt(x - 1))) x--;
    for (x = Math.max(x, lo); x <= end - 3; x++) {
      const ch = text.charCodeAt(x);
      if (ch >= 128 || K_FIRST[ch] === 0) continue;
      sticky.lastIndex = x;
      const m = sticky.exec(text);
      if (m) return m;
    }
    return null;
  };
  return (text, from) => {
    // Every position below `lo` is settled (below `from`, or before a site already tried).
    let lo = from;
    site.lastIndex = from;
    for (let s = site.exec(text); s; s = site.exec(text)) {
      const at = s.index;
      const ch = text.charCodeAt(at);
      const before = at > 0 ? text.charCodeAt(at - 1) : 0;
      // The separator starts at the site (`=`, `:`) or one before it (`:=`, `=>`).
      const m = (ch !== 62 ? tryRun(text, at, lo) : null) ?? ((ch === 61 && before === 58) || (ch === 62 && before === 61) ? tryRun(text, at - 1, lo) : null);
      if (m) return m;
      lo = Math.max(lo, at + 1);
      // Sites may overlap (a quote that closes one value and opens the next): the search goes on from the next character.
      site.lastIndex = at + 1;
    }
    return null;
  };
}

/** The search of `re` (global): a site or line-start search where one applies, else `exec` from `from`. */
export function finderOf(re: RegExp): Finder {
  const find: Finder =
    siteFinder(re) ??
    unquotedFinder(re) ??
    lineStartFinder(re) ??
    ((text, from) => {
      re.lastIndex = from;
      return re.exec(text);
    });
  // The per-text path (tier.ts).
  keepOutOfFTL(find);
  return find;
}
