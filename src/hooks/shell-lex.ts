/**
 * A small POSIX-shell lexer for product-path-guard: enough of the grammar to see what a Bash tool call would run
 * and write. Quotes are honoured (`'>'` is a word, not a redirection), `$VAR`/`${VAR}`/`~` expand from the hook's
 * environment when known, `$(...)`, backticks and `<(...)`/`>(...)` are collected as nested command strings to be
 * checked on their own, heredoc bodies are skipped (they are data), and `;`, `&&`, `||`, `&`, `|`, newlines and
 * parentheses split commands. Anything it cannot make sense of is a parse error, which the guard treats with
 * suspicion rather than as "nothing to see".
 */

export interface Redirect {
  op: string;
  target: string;
}

export interface SimpleCommand {
  words: string[];
  redirects: Redirect[];
}

/** Commands joined by `|`. */
export type Pipeline = SimpleCommand[];

export interface ShellParse {
  pipelines: Pipeline[];
  /** Bodies of $(...), backticks and process substitutions, to be analysed recursively. */
  nested: string[];
  error?: string;
}

export interface LexEnv {
  vars: Record<string, string | undefined>;
  home: string;
}

type Token = { t: "w"; v: string } | { t: "op"; v: string };

const OPS = ["&&", "||", ";;", "|&", "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">&", ">>", ">|", ";", "|", "&", "(", ")", "<", ">", "\n"];
const OP_START = new Set([";", "&", "|", "(", ")", "<", ">", "\n"]);
const SPACE = new Set([" ", "\t", "\r"]);
const PLAIN = /[^\s'"\\$`;&|()<>#~]+/y;

class LexError extends Error {}

/** After `<<` at i inside a nested command: the index where its heredoc body ends (or i when it is not one). */
function skipNestedHeredoc(s: string, i: number): number {
  const m = /^<<(-?)\s*(?:'([^']*)'|"([^"]*)"|([^\s;&|()<>]+))/.exec(s.slice(i, i + 200));
  if (!m || s[i + 2] === "<") return i;
  const delim = m[2] ?? m[3] ?? (m[4] ?? "").replace(/\\/g, "");
  let at = s.indexOf("\n", i);
  while (at >= 0) {
    const next = s.indexOf("\n", at + 1);
    const line = s.slice(at + 1, next < 0 ? s.length : next);
    if ((m[1] ? line.replace(/^\t+/, "") : line) === delim) return next < 0 ? s.length : next;
    at = next;
  }
  return i;
}

/** Index of the `)` that closes the `(` at `open`, skipping quotes, escapes, heredoc bodies and nested parens. */
function closeParen(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i]!;
    if (c === "<" && s[i + 1] === "<") {
      const end = skipNestedHeredoc(s, i);
      i = end > i ? end : i + (s[i + 2] === "<" ? 2 : 1);
    }
    else if (c === "\\") i++;
    else if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) break;
      i = j;
    } else if (c === '"') i = closeDouble(s, i);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  throw new LexError("unbalanced parenthesis");
}

function closeDouble(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\") i++;
    else if (c === '"') return i;
    else if (c === "$" && s[i + 1] === "(") i = closeParen(s, i + 1);
    else if (c === "`") i = closeBacktick(s, i);
  }
  throw new LexError("unterminated double quote");
}

function closeBacktick(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "`") return i;
  }
  throw new LexError("unterminated backtick");
}

const ANSI: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"' };

class Lexer {
  private word: string | null = null;
  private wordQuoted = false;
  readonly tokens: Token[] = [];
  readonly nested: string[] = [];
  private heredocs: { delim: string; strip: boolean }[] = [];
  private expectDelim: boolean | null = null;

  constructor(
    private readonly s: string,
    private readonly env: LexEnv,
  ) {}

  private add(text: string): void {
    this.word = (this.word ?? "") + text;
  }

  private flush(): void {
    if (this.word === null) return;
    if (this.expectDelim !== null) {
      this.heredocs.push({ delim: this.word, strip: this.expectDelim });
      this.expectDelim = null;
    }
    this.tokens.push({ t: "w", v: this.word });
    this.word = null;
    this.wordQuoted = false;
  }

  /** `$...` at i (unquoted or inside double quotes). Returns the new index. */
  private dollar(i: number, inDouble: boolean): number {
    const s = this.s;
    const n = s[i + 1];
    if (n === "(" && s[i + 2] === "(") {
      const end = closeParen(s, i + 1);
      this.add("0");
      return end + 1;
    }
    if (n === "(") {
      const end = closeParen(s, i + 1);
      this.nested.push(s.slice(i + 2, end));
      this.add(s.slice(i, end + 1));
      return end + 1;
    }
    if (n === "'" && !inDouble) return this.ansi(i + 2);
    if (n === "{") {
      const end = s.indexOf("}", i + 2);
      if (end < 0) throw new LexError("unterminated ${");
      const name = s.slice(i + 2, end);
      const val = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? this.env.vars[name] : undefined;
      this.add(val ?? s.slice(i, end + 1));
      return end + 1;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i + 1, i + 200));
    if (m) {
      this.add(this.env.vars[m[0]] ?? `$${m[0]}`);
      return i + 1 + m[0].length;
    }
    if (n !== undefined && /[0-9?#@*$!-]/.test(n)) {
      this.add(`$${n}`);
      return i + 2;
    }
    this.add("$");
    return i + 1;
  }

  private ansi(i: number): number {
    const s = this.s;
    let out = "";
    for (; i < s.length; i++) {
      const c = s[i]!;
      if (c === "'") {
        this.add(out);
        this.wordQuoted = true;
        return i + 1;
      }
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = s[++i] ?? "";
      const hex = e === "x" ? /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1, i + 3)) : null;
      const oct = /^[0-7]{1,3}/.exec(s.slice(i, i + 3));
      if (hex) {
        out += String.fromCharCode(parseInt(hex[0], 16));
        i += hex[0].length;
      } else if (oct) {
        out += String.fromCharCode(parseInt(oct[0], 8));
        i += oct[0].length - 1;
      } else out += ANSI[e] ?? `\\${e}`;
    }
    throw new LexError("unterminated $'...'");
  }

  private double(i: number): number {
    const s = this.s;
    this.add("");
    this.wordQuoted = true;
    for (i++; i < s.length; ) {
      const c = s[i]!;
      if (c === '"') return i + 1;
      if (c === "\\") {
        const n = s[i + 1] ?? "";
        if (n === "\n") i += 2;
        else {
          this.add("$`\"\\".includes(n) ? n : `\\${n}`);
          i += 2;
        }
      } else if (c === "$") i = this.dollar(i, true);
      else if (c === "`") i = this.backtick(i);
      else {
        this.add(c);
        i++;
      }
    }
    throw new LexError("unterminated double quote");
  }

  private backtick(i: number): number {
    const end = closeBacktick(this.s, i);
    this.nested.push(this.s.slice(i + 1, end).replace(/\\([`$\\])/g, "$1"));
    this.add(this.s.slice(i, end + 1));
    return end + 1;
  }

  /** After a newline: skip the bodies of pending heredocs. */
  private skipHeredocs(i: number): number {
    const s = this.s;
    for (const h of this.heredocs) {
      for (;;) {
        if (i >= s.length) break;
        const nl = s.indexOf("\n", i);
        const line = s.slice(i, nl < 0 ? s.length : nl);
        i = nl < 0 ? s.length : nl + 1;
        if ((h.strip ? line.replace(/^\t+/, "") : line) === h.delim) break;
      }
    }
    this.heredocs = [];
    return i;
  }

  private operator(i: number): number {
    const s = this.s;
    const c = s[i]!;
    if ((c === "<" || c === ">") && s[i + 1] === "(") {
      const end = closeParen(s, i + 1);
      this.nested.push(s.slice(i + 2, end));
      this.add(s.slice(i, end + 1));
      return end + 1;
    }
    // `2>file`: a word of digits right before < or > is the fd number, part of the operator.
    if ((c === "<" || c === ">") && this.word !== null && !this.wordQuoted && /^\d+$/.test(this.word)) this.word = null;
    this.flush();
    let op = "";
    for (const o of OPS) {
      if (s.startsWith(o, i)) {
        op = o;
        break;
      }
    }
    this.tokens.push({ t: "op", v: op });
    if (op === "<<" || op === "<<-") this.expectDelim = op === "<<-";
    if (op === "\n" && this.heredocs.length) return this.skipHeredocs(i + 1);
    return i + op.length;
  }

  run(): void {
    const s = this.s;
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === "\\" && s[i + 1] === "\n") i += 2;
      else if (SPACE.has(c)) {
        this.flush();
        i++;
      } else if (c === "#" && this.word === null) {
        const nl = s.indexOf("\n", i);
        i = nl < 0 ? s.length : nl;
      } else if (OP_START.has(c)) i = this.operator(i);
      else if (c === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) throw new LexError("unterminated single quote");
        this.add(s.slice(i + 1, end));
        this.wordQuoted = true;
        i = end + 1;
      } else if (c === '"') i = this.double(i);
      else if (c === "$") i = this.dollar(i, false);
      else if (c === "`") i = this.backtick(i);
      else if (c === "\\") {
        this.add(s[i + 1] ?? "");
        this.wordQuoted = true;
        i += 2;
      } else if (c === "~" && this.word === null && /^(\/|$|[\s;&|)<>])/.test(s.slice(i + 1, i + 2) || "")) {
        this.add(this.env.home);
        i++;
      } else {
        // A run of ordinary characters in one step (hooks run on every tool call: fewer iterations, less time).
        PLAIN.lastIndex = i;
        const m = PLAIN.exec(s);
        const run = m ? m[0] : c;
        this.add(run);
        i += run.length;
      }
    }
    this.flush();
  }
}

const REDIRECT_OPS = new Set(["<", ">", ">>", ">|", "&>", "&>>", "<>", "<&", ">&", "<<<"]);
const SPLIT_OPS = new Set([";", "&&", "||", "&", "\n", "(", ")", ";;"]);

function group(tokens: Token[]): Pipeline[] {
  const pipelines: Pipeline[] = [];
  let pipe: Pipeline = [];
  let cmd: SimpleCommand = { words: [], redirects: [] };
  let pending: string | null = null;
  let heredocDelim = false;
  const endCmd = () => {
    if (cmd.words.length || cmd.redirects.length) pipe.push(cmd);
    cmd = { words: [], redirects: [] };
  };
  const endPipe = () => {
    endCmd();
    if (pipe.length) pipelines.push(pipe);
    pipe = [];
  };
  for (const tok of tokens) {
    if (tok.t === "w") {
      if (pending !== null) {
        cmd.redirects.push({ op: pending, target: tok.v });
        pending = null;
      } else if (heredocDelim) heredocDelim = false;
      else cmd.words.push(tok.v);
      continue;
    }
    if (pending !== null) throw new LexError(`redirection ${pending} without a target`);
    if (REDIRECT_OPS.has(tok.v)) pending = tok.v;
    else if (tok.v === "<<" || tok.v === "<<-") heredocDelim = true;
    else if (tok.v === "|" || tok.v === "|&") endCmd();
    else if (SPLIT_OPS.has(tok.v)) endPipe();
  }
  if (pending !== null) throw new LexError(`redirection ${pending} without a target`);
  endPipe();
  return pipelines;
}

export function parseShell(src: string, env: LexEnv): ShellParse {
  const lx = new Lexer(src, env);
  try {
    lx.run();
    return { pipelines: group(lx.tokens), nested: lx.nested };
  } catch (e) {
    if (e instanceof LexError) return { pipelines: [], nested: lx.nested, error: e.message };
    throw e;
  }
}
