/**
 * Rule regexes are written for RE2 (gitleaks is Go). D28: a rule RE2 would reject (lookarounds, backreferences,
 * possessive or atomic groups, escapes RE2 does not know) makes the scan exit 2, so a rule set that works here
 * also works under `--engine gitleaks`. The same walk translates RE2 syntax to a JavaScript RegExp:
 * leading `(?i)` style flags, `(?P<name>`, `\z`/`\A`, `\x{...}`, `\pL`/`\p{Greek}`, `\Q..\E` and POSIX classes.
 */

export interface Translated {
  source: string;
  flags: string;
}

export class Re2Error extends Error {
  override name = "Re2Error";
}

const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** Escapes RE2 accepts for letters and digits; any other `\<letter>` is a syntax error in RE2. */
const RE2_LETTER_ESCAPES = new Set("afnrtvdDsSwWbBAzpPQECx0".split(""));
/** Characters that stay escaped in a JS `u` pattern; other escaped punctuation becomes a literal. */
const JS_SYNTAX = new Set("^$\\.*+?()[]{}|/-".split(""));
const UNICODE_SCRIPTS = /^(Hangul|Han|Hiragana|Katakana|Latin|Greek|Cyrillic|Arabic|Hebrew|Thai|Devanagari|Armenian|Georgian|Bopomofo|Common|Inherited)$/;

function literal(ch: string): string {
  return JS_SYNTAX.has(ch) ? `\\${ch}` : ch;
}

function unicodeProperty(name: string): string {
  if (UNICODE_SCRIPTS.test(name)) return `Script=${name}`;
  return name;
}

/** Reads the escape at `i` (which points at the backslash). Returns [js, next index, needsUnicode]. */
function escapeAt(p: string, i: number, inClass: boolean): [string, number, boolean] {
  const c = p[i + 1];
  if (c === undefined) throw new Re2Error("trailing backslash");
  if (/[1-9]/.test(c) && !/[0-7]/.test(p[i + 2] ?? "")) throw new Re2Error(`backreference \\${c}`);
  if (c === "k" || c === "g") throw new Re2Error(`backreference \\${c}`);
  if (/[A-Za-z0-9]/.test(c) && !RE2_LETTER_ESCAPES.has(c) && !/[1-7]/.test(c)) throw new Re2Error(`escape \\${c} is not RE2 syntax`);
  switch (c) {
    case "z":
      if (inClass) throw new Re2Error("\\z inside a character class");
      return ["(?![\\s\\S])", i + 2, false];
    case "A":
      if (inClass) throw new Re2Error("\\A inside a character class");
      return ["(?<![\\s\\S])", i + 2, false];
    case "C":
      throw new Re2Error("\\C (any byte) is not supported");
    case "x": {
      if (p[i + 2] === "{") {
        const end = p.indexOf("}", i + 3);
        const hex = end < 0 ? "" : p.slice(i + 3, end);
        if (!/^[0-9A-Fa-f]{1,6}$/.test(hex)) throw new Re2Error("malformed \\x{...} escape");
        return [`\\u{${hex}}`, end + 1, true];
      }
      const hex = p.slice(i + 2, i + 4);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Re2Error("malformed \\x escape");
      return [`\\x${hex}`, i + 4, false];
    }
    case "p":
    case "P": {
      if (p[i + 2] === "{") {
        const end = p.indexOf("}", i + 3);
        if (end < 0) throw new Re2Error("malformed \\p{...} escape");
        const name = p.slice(i + 3, end);
        const neg = name.startsWith("^");
        const prop = unicodeProperty(neg ? name.slice(1) : name);
        return [`\\${(c === "P") !== neg ? "P" : "p"}{${prop}}`, end + 1, true];
      }
      const one = p[i + 2];
      if (!one || !/[A-Z]/.test(one)) throw new Re2Error("malformed \\p escape");
      return [`\\${c}{${one}}`, i + 3, true];
    }
    case "0":
    case "1":
    case "2":
    case "3":
    case "4":
    case "5":
    case "6":
    case "7": {
      const m = /^[0-7]{1,3}/.exec(p.slice(i + 1))![0];
      const code = parseInt(m, 8);
      return [`\\x${code.toString(16).padStart(2, "0")}`, i + 1 + m.length, false];
    }
    case "Q": {
      const end = p.indexOf("\\E", i + 2);
      const text = end < 0 ? p.slice(i + 2) : p.slice(i + 2, end);
      return [[...text].map((ch) => literal(ch)).join(""), end < 0 ? p.length : end + 2, false];
    }
    case "E":
      return ["", i + 2, false];
    default:
      if (/[A-Za-z]/.test(c)) return [`\\${c}`, i + 2, false];
      return [inClass && c === "-" ? "\\-" : literal(c), i + 2, false];
  }
}

function group(p: string, i: number, flags: Set<string>, atStart: boolean): [string, number] {
  // p[i] === "(" and p[i+1] === "?"
  const rest = p.slice(i + 2);
  if (/^[=!]/.test(rest) || /^<[=!]/.test(rest)) throw new Re2Error("lookaround");
  if (rest.startsWith(">")) throw new Re2Error("atomic group");
  if (rest.startsWith("(")) throw new Re2Error("conditional group");
  if (rest.startsWith("#")) throw new Re2Error("comment group");
  if (/^(R|[0-9]|&|P>|P=)/.test(rest)) throw new Re2Error("recursion or backreference group");
  const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
  if (named) return [`(?<${named[1]}>`, i + 2 + named[0].length];
  const f = /^([imsU]*)(?:-([imsU]*))?(\)|:)/.exec(rest);
  if (!f) throw new Re2Error("unknown group syntax");
  if (f[0].includes("U")) throw new Re2Error("the U (ungreedy) flag is not supported");
  const next = i + 2 + f[0].length;
  if (f[3] === ":") {
    if (!f[1] && f[2] === undefined) return ["(?:", next];
    return [`(?${f[1] ?? ""}${f[2] !== undefined && f[2] !== "" ? `-${f[2]}` : ""}:`, next];
  }
  // A bare `(?i)`: global when it opens the pattern; elsewhere it applies to the rest of the enclosing group,
  // which JS can only express as a modifier group, opened here and closed by the caller.
  if (atStart) {
    for (const ch of f[1] ?? "") flags.add(ch);
    return ["", next];
  }
  return [`\u0000MOD(?${f[1] ?? ""}${f[2] ? `-${f[2]}` : ""}:`, next];
}

function checkRepeat(p: string, i: number): number {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
  if (!m) return 0;
  if (Number(m[1]) > 1000 || (m[3] && Number(m[3]) > 1000)) throw new Re2Error("repeat count above 1000");
  if (p[i + m[0].length] === "+") throw new Re2Error("possessive quantifier");
  return m[0].length;
}

/** Translate one RE2 pattern; throws Re2Error (with a reason, never the pattern) if RE2 would reject it. */
export function translateRe2(p: string): Translated {
  const flags = new Set<string>();
  let out = "";
  let unicode = false;
  let inClass = false;
  // Modifier groups opened by a mid-pattern `(?i)`, per nesting depth: closed at `)` and reopened after `|`.
  let openMods: string[] = [];
  const depthMods: string[][] = [];
  let i = 0;
  let leading = true;
  while (i < p.length) {
    const c = p[i]!;
    if (c === "\\") {
      const [js, next, u] = escapeAt(p, i, inClass);
      out += js;
      unicode ||= u;
      i = next;
      leading = false;
      continue;
    }
    if (inClass) {
      if (c === "[" && p[i + 1] === ":") {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(i));
        if (!m || !(m[2]! in POSIX)) throw new Re2Error("unknown POSIX class");
        if (m[1]) throw new Re2Error("negated POSIX class inside a class");
        out += POSIX[m[2]!];
        i += m[0].length;
        continue;
      }
      if (c === "]") inClass = false;
      out += c === "[" || c === "/" ? `\\${c}` : c;
      i++;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += "[";
      i++;
      if (p[i] === "^") (out += "^"), i++;
      if (p[i] === "]") (out += "\\]"), i++;
      leading = false;
      continue;
    }
    if (c === "(" && p[i + 1] === "?") {
      const [js, next] = group(p, i, flags, leading);
      if (js.startsWith("\u0000MOD")) {
        out += js.slice(4);
        openMods.push(js.slice(4));
      } else {
        out += js;
        if (js !== "") depthMods.push(openMods), (openMods = []);
        leading = leading && js === "";
        i = next;
        continue;
      }
      i = next;
      continue;
    }
    leading = false;
    if (c === "(") {
      depthMods.push(openMods);
      openMods = [];
      out += "(";
      i++;
      continue;
    }
    if (c === ")") {
      out += `${")".repeat(openMods.length)})`;
      openMods = depthMods.pop() ?? [];
      i++;
      continue;
    }
    if (c === "|" && openMods.length) {
      out += `${")".repeat(openMods.length)}|${openMods.join("")}`;
      i++;
      continue;
    }
    if ((c === "*" || c === "+" || c === "?") && p[i + 1] === "+") throw new Re2Error("possessive quantifier");
    if (c === "{") {
      const len = checkRepeat(p, i);
      if (len) {
        out += p.slice(i, i + len);
        i += len;
        continue;
      }
      out += "\\{";
      i++;
      continue;
    }
    if (c === "}") {
      out += "\\}";
      i++;
      continue;
    }
    out += c === "/" ? "\\/" : c;
    i++;
  }
  if (inClass) throw new Re2Error("unterminated character class");
  out += ")".repeat(openMods.length);
  for (const f of flags) if (f !== "i" && f !== "m" && f !== "s") throw new Re2Error(`flag ${f}`);
  return { source: out, flags: [...flags].sort().join("") + (unicode ? "u" : "") };
}

/** Compile for scanning (global). Throws Re2Error for RE2-incompatible syntax, SyntaxError for plain bad regexes. */
export function compileRe2(p: string, extraFlags = "g"): RegExp {
  const t = translateRe2(p);
  return new RegExp(t.source, t.flags + extraFlags);
}
