/**
 * A small POSIX-shell lexer for product-path-guard: enough of the grammar to see what a Bash tool call would run
 * and write. Quotes are honoured (`'>'` is a word, not a redirection), and the expansions a static reader can do
 * exactly are done (DECISIONS D32): `$VAR`/`${VAR}` (also `${VAR:-word}` and friends) from the hook's environment
 * and from `VAR=value` assignments earlier in the same command (`D=/x; echo > $D/f`, `export`, `for D in ...`),
 * `$(echo|printf|pwd ...)` and backticks over literals, brace expansion (`{a,b}`, `{1..3}`) and `~`. Every
 * `$(...)`, backtick and `<(...)`/`>(...)` body is also collected to be checked on its own, heredoc bodies are
 * skipped (they are data), and `;`, `&&`, `||`, `&`, `|`, newlines and parentheses split commands. Anything it
 * cannot make sense of is a parse error, which the guard treats with suspicion rather than as "nothing to see".
 */
import { BRACE_CLOSE, BRACE_COMMA, BRACE_OPEN, braceExpand, ReadBudgetError, spend, staticOutput, unmark } from "./shell-expand.ts";

interface Redirect {
  op: string;
  target: string;
}

export interface SimpleCommand {
  words: string[];
  redirects: Redirect[];
}

/** Commands joined by `|`. */
type Pipeline = SimpleCommand[];

export interface ShellParse {
  pipelines: Pipeline[];
  /** Per pipeline: the operator before and after it and its subshell depth (where a `cd` certainly takes effect). */
  seps: PipeSep[];
  /** Bodies of $(...), backticks and process substitutions, to be analysed recursively. */
  nested: string[];
  /** The variables in force where each nested body appears (same order as `nested`). */
  nestedVars: LexEnv["vars"][];
  /** Names of shell functions the command defines (`f() {...}`, `function f`): they can shadow any command. */
  functions: string[];
  error?: string;
}

export interface LexEnv {
  vars: Record<string, string | undefined>;
  home: string;
  /**
   * Assignments: when a variable is assigned twice, the later value wins unless only the earlier one satisfies
   * `keep` (the guard passes "names the product"): either may be live at run time, so the reader keeps the one
   * that matters.
   */
  keep?: (value: string) => boolean;
}

interface PipeSep {
  before: string;
  after: string;
  depth: number;
}

type Token = { t: "w"; v: string } | { t: "op"; v: string };

const OPS = ["&&", "||", ";;", "|&", "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">&", ">>", ">|", ";", "|", "&", "(", ")", "<", ">", "\n"];
const OP_START = new Set([";", "&", "|", "(", ")", "<", ">", "\n"]);
const SPACE = new Set([" ", "\t"]);
const PLAIN = /[^\s'"\\$`;&|()<>#~]+/y;

class LexError extends Error {}

/** After `<<` at i inside a nested command: the index where its heredoc body ends (or i when it is not one). */
function skipNestedHeredoc(s: string, i: number): number {
  const m = /^<<(-?)\s*(?:'([^']*)'|"([^"]*)"|([^\s;&|()<>]+))/.exec(s.slice(i, i + 200));
  if (!m || s[i + 2] === "<") return i;
  if (m[4]?.endsWith("\\")) throw new LexError("a backslash-newline inside a heredoc delimiter");
  const delim = m[2] ?? m[3] ?? (m[4] ?? "").replace(/\\/g, "");
  let at = s.indexOf("\n", i);
  while (at >= 0) {
    const next = s.indexOf("\n", at + 1);
    spend((next < 0 ? s.length : next) - at);
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
    spend();
    const c = s[i]!;
    if (c === "<" && s[i + 1] === "<") {
      const end = skipNestedHeredoc(s, i);
      i = end > i ? end : i + (s[i + 2] === "<" ? 2 : 1);
    } else if (c === "\\") i++;
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

/** Index of the `}` that closes `${` (the `{` at `open`), nested `${...}` and quotes skipped. */
function closeBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    spend();
    const c = s[i]!;
    if (c === "\\") i++;
    else if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) break;
      i = j;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  throw new LexError("unterminated ${");
}

function closeDouble(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    spend();
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
    spend();
    if (s[i] === "\\") i++;
    else if (s[i] === "`") return i;
  }
  throw new LexError("unterminated backtick");
}

const ANSI: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"' };

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;
/** Words after which the next word starts a command again (`if x; then D=1 ...`). */
const KEEP_START = new Set(["!", "if", "then", "elif", "else", "do", "while", "until", "{", "time"]);
const DECLARE = new Set(["export", "local", "declare", "typeset", "readonly"]);

type VarState = "start" | "args" | "declare" | "forName" | "forIn" | "forWords";

class Lexer {
  private word: string | null = null;
  private wordQuoted = false;
  /** Where the current word starts in the source (assignments are spotted on the raw text). */
  private wordStart = 0;
  private hasMarks = false;
  readonly tokens: Token[] = [];
  readonly nested: string[] = [];
  readonly nestedVars: LexEnv["vars"][] = [];
  /** The hook's variables overlaid with the command's own assignments, in source order. */
  readonly vars: LexEnv["vars"];
  private own: Record<string, string> = {};
  private state: VarState = "start";
  private forVar = "";
  private heredocs: { delim: string; strip: boolean; quoted: boolean }[] = [];
  private expectDelim: boolean | null = null;

  constructor(
    private readonly s: string,
    private readonly env: LexEnv,
  ) {
    this.vars = Object.create(env.vars) as LexEnv["vars"];
  }

  private add(text: string, at?: number): void {
    if (this.word === null && at !== undefined) this.wordStart = at;
    this.word = (this.word ?? "") + text;
  }

  private assign(name: string, value: string): void {
    const old = this.vars[name];
    const keep = this.env.keep;
    if (old && keep?.(old) && !keep(value)) return;
    this.vars[name] = value;
    this.own[name] = value;
  }

  /** Tracks `NAME=value` (at a command's start, after export/local/..., and `for NAME in words`). */
  private track(word: string): void {
    const raw = ASSIGNMENT.exec(this.s.slice(this.wordStart, this.wordStart + 200));
    const st = this.state;
    if ((st === "start" || st === "declare") && raw) {
      const value = word.slice(word.indexOf("=") + 1);
      this.assign(raw[1]!, raw[2] ? (this.vars[raw[1]!] ?? "") + value : value);
      return;
    }
    if (st === "forName") {
      this.forVar = /^[A-Za-z_][A-Za-z0-9_]*$/.test(word) ? word : "";
      this.state = this.forVar ? "forIn" : "args";
    } else if (st === "forIn") this.state = word === "in" ? "forWords" : "args";
    else if (st === "forWords") this.assign(this.forVar, word);
    else if (st === "start") this.state = word === "for" || word === "select" ? "forName" : DECLARE.has(word) ? "declare" : KEEP_START.has(word) ? "start" : "args";
  }

  private flush(): void {
    if (this.word === null) return;
    let word = this.word;
    let words = [word];
    if (this.hasMarks) {
      words = braceExpand(word);
      word = unmark(word);
    }
    if (this.expectDelim !== null) {
      this.heredocs.push({ delim: word, strip: this.expectDelim, quoted: this.wordQuoted });
      this.expectDelim = null;
    } else this.track(word);
    for (const w of words) this.tokens.push({ t: "w", v: w });
    this.word = null;
    this.wordQuoted = false;
    this.hasMarks = false;
  }

  /** A nested body: collected for its own analysis; its static output (echo/printf/pwd) when it has one. */
  private substitute(body: string, literal: string): void {
    this.nested.push(body);
    this.nestedVars.push(Object.assign(Object.create(this.env.vars), this.own));
    this.add(this.output(body) ?? literal);
  }

  private output(body: string): string | null {
    if (!/^\s*(echo|printf|pwd)\b/.test(body)) return null;
    const inner = new Lexer(body, { ...this.env, vars: this.vars });
    try {
      inner.run();
      const pipes = group(inner.tokens);
      const cmd = pipes.length === 1 && pipes[0]!.length === 1 ? pipes[0]![0]! : null;
      if (!cmd || cmd.redirects.length || inner.nested.length) return null;
      return staticOutput(cmd.words, this.vars.PWD);
    } catch (e) {
      if (e instanceof LexError) return null;
      throw e;
    }
  }

  /** `$...` at i (unquoted or inside double quotes). Returns the new index. */
  private dollar(i: number, inDouble: boolean): number {
    const s = this.s;
    const n = s[i + 1];
    if (n === "(" && s[i + 2] === "(") {
      const end = closeParen(s, i + 1);
      arithmetic(s.slice(i + 3, end - 1));
      this.add("0");
      return end + 1;
    }
    if (n === "[") throw new LexError("old-style $[...] arithmetic");
    if (n === "(") {
      const end = closeParen(s, i + 1);
      this.substitute(s.slice(i + 2, end), s.slice(i, end + 1));
      return end + 1;
    }
    if (n === "'" && !inDouble) return this.ansi(i + 2);
    if (n === "{") {
      const end = closeBrace(s, i + 1);
      // Unquoted ${IFS} with IFS unchanged splits the word there, as bash does (`rm${IFS}-f${IFS}x`).
      if (!inDouble && s.slice(i + 2, end) === "IFS" && this.vars.IFS === undefined) {
        this.flush();
        return end + 1;
      }
      this.add(this.parameter(s.slice(i + 2, end)) ?? s.slice(i, end + 1));
      return end + 1;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i + 1, i + 200));
    if (m) {
      if (!inDouble && m[0] === "IFS" && this.vars.IFS === undefined) {
        this.flush();
        return i + 4;
      }
      this.add(this.vars[m[0]] ?? `$${m[0]}`);
      return i + 1 + m[0].length;
    }
    if (n !== undefined && /[0-9?#@*$!-]/.test(n)) {
      this.add(`$${n}`);
      return i + 2;
    }
    this.add("$");
    return i + 1;
  }

  /** `${NAME}`, `${NAME:-word}`, `${NAME:=word}`, `${NAME:+word}`; `${NAME%...}` and the like give the whole value. */
  private parameter(inner: string): string | undefined {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=+?])(.*)|([#%/^,@].*))?$/s.exec(inner);
    if (!m) return undefined;
    const [, name, op, word] = m;
    const val = this.vars[name!];
    const set = op?.startsWith(":") ? val !== undefined && val !== "" : val !== undefined;
    const literal = word !== undefined && !/[$`\\'"]/.test(word) ? word : undefined;
    if (!op) return val;
    if (op.endsWith("-") || op.endsWith("=")) {
      if (!set && literal !== undefined && op.endsWith("=")) this.assign(name!, literal);
      return set ? val : literal;
    }
    if (op.endsWith("+")) return set ? literal : "";
    return val;
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
          this.add('$`"\\'.includes(n) ? n : `\\${n}`);
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
    this.substitute(this.s.slice(i + 1, end).replace(/\\([`$\\])/g, "$1"), this.s.slice(i, end + 1));
    return end + 1;
  }

  /** After a newline: skip the bodies of pending heredocs. */
  private skipHeredocs(i: number): number {
    const s = this.s;
    for (const h of this.heredocs) {
      const from = i;
      let to = s.length;
      for (;;) {
        if (i >= s.length) break;
        const nl = s.indexOf("\n", i);
        spend((nl < 0 ? s.length : nl) - i + 1);
        const line = s.slice(i, nl < 0 ? s.length : nl);
        const start = i;
        i = nl < 0 ? s.length : nl + 1;
        if ((h.strip ? line.replace(/^\t+/, "") : line) === h.delim) {
          to = start;
          break;
        }
      }
      // An unquoted delimiter: bash expands $(...), backticks and $((...)) in the body. Those run: check them.
      if (!h.quoted) this.bodySubstitutions(s.slice(from, to));
    }
    this.heredocs = [];
    return i;
  }

  private bodySubstitutions(body: string): void {
    for (let k = 0; k < body.length; k++) {
      const c = body[k]!;
      if (c === "\\") k++;
      else if (c === "$" && body[k + 1] === "(") {
        const end = closeParen(body, k + 1);
        if (body[k + 2] === "(") arithmetic(body.slice(k + 3, end - 1));
        else {
          this.nested.push(body.slice(k + 2, end));
          this.nestedVars.push(Object.assign(Object.create(this.env.vars), this.own));
        }
        k = end;
      } else if (c === "`") {
        const end = closeBacktick(body, k);
        this.nested.push(body.slice(k + 1, end).replace(/\\([`$\\])/g, "$1"));
        this.nestedVars.push(Object.assign(Object.create(this.env.vars), this.own));
        k = end;
      }
    }
  }

  private operator(i: number): number {
    const s = this.s;
    const c = s[i]!;
    // `((...))` as a command (or `for ((...))`): arithmetic, not two subshells. Nothing in it runs unless it holds a
    // command substitution or a subscript, which bash would evaluate and this reader does not: refused.
    if (c === "(" && s[i + 1] === "(" && this.word === null && (this.state === "start" || this.state === "forName")) {
      let end = -1;
      try {
        end = closeParen(s, i);
      } catch {
        end = -1;
      }
      if (end > i + 2 && s[end - 1] === ")") {
        arithmetic(s.slice(i + 2, end - 1));
        this.flush();
        if (this.state === "start") this.tokens.push({ t: "w", v: ":" });
        this.state = "args";
        return end + 1;
      }
    }
    if ((c === "<" || c === ">") && s[i + 1] === "(") {
      const end = closeParen(s, i + 1);
      this.nested.push(s.slice(i + 2, end));
      this.nestedVars.push(Object.assign(Object.create(this.env.vars), this.own));
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
    if (!REDIRECT_OPS.has(op) && op !== "<<" && op !== "<<-") this.state = "start";
    if (op === "<<" || op === "<<-") this.expectDelim = op === "<<-";
    if (op === "\n" && this.heredocs.length) return this.skipHeredocs(i + 1);
    return i + op.length;
  }

  run(): void {
    const s = this.s;
    let i = 0;
    while (i < s.length) {
      spend();
      const c = s[i]!;
      if (this.word === null) this.wordStart = i;
      if (c === "\\" && s[i + 1] === "\n") {
        // bash and this reader disagree on a heredoc delimiter continued over a line: refuse to guess.
        if (this.expectDelim !== null) throw new LexError("a backslash-newline inside a heredoc delimiter");
        i += 2;
      } else if (c === "\r") throw new LexError("a carriage return outside quotes (bash reads it as part of a word)");
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
        // Unquoted braces and commas are marked for brace expansion (quoted ones never reach this branch).
        if (/[{},]/.test(run)) {
          this.add(run.replace(/[{},]/g, (b) => (b === "{" ? BRACE_OPEN : b === "," ? BRACE_COMMA : BRACE_CLOSE)));
          this.hasMarks = true;
        } else this.add(run);
        i += run.length;
      }
    }
    this.flush();
  }
}

const REDIRECT_OPS = new Set(["<", ">", ">>", ">|", "&>", "&>>", "<>", "<&", ">&", "<<<"]);
const SPLIT_OPS = new Set([";", "&&", "||", "&", "\n", "(", ")", ";;"]);

function group(tokens: Token[], functions?: string[], seps: PipeSep[] = []): Pipeline[] {
  const pipelines: Pipeline[] = [];
  let before = "";
  let depth = 0;
  let pipe: Pipeline = [];
  let cmd: SimpleCommand = { words: [], redirects: [] };
  let pending: string | null = null;
  let heredocDelim = false;
  const endCmd = () => {
    if (cmd.words.length || cmd.redirects.length) pipe.push(cmd);
    cmd = { words: [], redirects: [] };
  };
  const endPipe = (after = "") => {
    endCmd();
    if (pipe.length) {
      pipelines.push(pipe);
      seps.push({ before, after, depth });
    }
    if (after === "(") depth++;
    else if (after === ")") depth = Math.max(0, depth - 1);
    before = after;
    pipe = [];
  };
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k]!;
    if (functions && tok.t === "w" && pending === null) {
      const next = tokens[k + 1];
      if (next?.t === "op" && next.v === "(" && tokens[k + 2]?.v === ")") functions.push(tok.v);
      else if (tok.v === "function" && next?.t === "w" && cmd.words.length === 0) functions.push(next.v);
    }
    if (tok.t === "w") {
      if (pending !== null) {
        cmd.redirects.push({ op: pending, target: tok.v });
        pending = null;
      } else if (heredocDelim) {
        heredocDelim = false;
        cmd.redirects.push({ op: "<<", target: tok.v });
      } else cmd.words.push(tok.v);
      continue;
    }
    if (pending !== null) throw new LexError(`redirection ${pending} without a target`);
    if (REDIRECT_OPS.has(tok.v)) pending = tok.v;
    else if (tok.v === "<<" || tok.v === "<<-") heredocDelim = true;
    else if (tok.v === "|" || tok.v === "|&") endCmd();
    else if (SPLIT_OPS.has(tok.v)) endPipe(tok.v);
  }
  if (pending !== null) throw new LexError(`redirection ${pending} without a target`);
  endPipe();
  return pipelines;
}

/** Arithmetic bash evaluates: a command substitution or an array subscript in it runs code this reader cannot see. */
function arithmetic(body: string): void {
  if (/\$\(|`|\[/.test(body)) throw new LexError("a command substitution or subscript inside arithmetic");
}

/** A variable's text evaluated as arithmetic (`x='a[$(cmd)]'; ((x))`) runs the substitution: refused. */
const ARITH_CONTEXT = /\$\(\(|\(\(|\blet\s|\s-(eq|ne|lt|le|gt|ge)\s|\bdeclare\s+-\w*i|\btypeset\s+-\w*i/;
const SUBSCRIPT_CODE = /\[[^\]\n]*(\$\(|`)/;

export function parseShell(src: string, env: LexEnv): ShellParse {
  const lx = new Lexer(src, env);
  const functions: string[] = [];
  const seps: PipeSep[] = [];
  try {
    if (SUBSCRIPT_CODE.test(src) && ARITH_CONTEXT.test(src)) throw new LexError("a subscript holding a command substitution where bash evaluates arithmetic");
    lx.run();
    return { pipelines: group(lx.tokens, functions, seps), seps, nested: lx.nested, nestedVars: lx.nestedVars, functions };
  } catch (e) {
    if (e instanceof LexError || e instanceof ReadBudgetError) return { pipelines: [], seps, nested: lx.nested, nestedVars: lx.nestedVars, functions, error: e.message };
    // Quotes and substitutions nested thousands deep exhaust the stack: that is not a command to read.
    if (e instanceof RangeError) return { pipelines: [], seps, nested: [], nestedVars: [], functions, error: "the command nests too deeply to read" };
    throw e;
  }
}
