/**
 * The exact static expansions of product-path-guard's lexer (DECISIONS D32) that need no lexer state: brace
 * expansion over words whose unquoted `{`, `,` and `}` were marked, backslash escapes as `echo -e` and `printf`
 * read them, and the output of `echo` / `printf` over literal words (what `$(echo ...)` would produce).
 */

/** The reader ran out of its work or time budget: the command is too complex to read, which is never an allow. */
export class ReadBudgetError extends Error {
  override name = "ReadBudgetError";
}

let work = Number.POSITIVE_INFINITY;
let deadline = Number.POSITIVE_INFINITY;
let ticks = 0;

/**
 * Bound the work of one reading (product-path-guard, issue 23): a hook that runs past the host's timeout is not a
 * block, so a pathological command (thousands of nested braces, of heredocs) must end in a refusal, in time.
 * `units` is a count of characters scanned and paths probed; `ms` a wall-clock limit. Infinity (the default) lifts it.
 */
export function startReadBudget(units: number, ms: number): void {
  work = units;
  deadline = ms === Number.POSITIVE_INFINITY ? ms : performance.now() + ms;
  ticks = 0;
}

export function spend(units = 1): void {
  work -= units;
  if (work < 0) throw new ReadBudgetError("the command is too complex to read (work budget spent)");
  if ((++ticks & 1023) === 0 && deadline !== Number.POSITIVE_INFINITY && performance.now() > deadline) throw new ReadBudgetError("the command is too complex to read in time");
}

/** Unquoted `{`, `,` and `}` as the lexer marks them (private-use code points never typed in a command). */
export const BRACE_OPEN = "\uE000";
export const BRACE_COMMA = "\uE001";
export const BRACE_CLOSE = "\uE002";
const MARKS = /[\uE000-\uE002]/g;
const UNMARK: Record<string, string> = { [BRACE_OPEN]: "{", [BRACE_COMMA]: ",", [BRACE_CLOSE]: "}" };
/** More words than this from one word is an attack on the reader, not a command: the rest are cut. */
const MAX_WORDS = 256;

export function unmark(word: string): string {
  return word.replace(MARKS, (c) => UNMARK[c]!);
}

/** `{1..3}`, `{a..c}`, `{3..1}`: the items, or null when the body is no sequence. */
function sequence(body: string): string[] | null {
  const m = /^(-?\d{1,6}|[A-Za-z])\.\.(-?\d{1,6}|[A-Za-z])$/.exec(body);
  if (!m) return null;
  const num = /\d/.test(m[1]!) && /\d/.test(m[2]!);
  if (!num && (/\d/.test(m[1]!) || /\d/.test(m[2]!))) return null;
  const a = num ? Number(m[1]) : m[1]!.charCodeAt(0);
  const b = num ? Number(m[2]) : m[2]!.charCodeAt(0);
  const out: string[] = [];
  const step = a <= b ? 1 : -1;
  for (let x = a; out.length < MAX_WORDS; x += step) {
    out.push(num ? String(x) : String.fromCharCode(x));
    if (x === b) break;
  }
  return out;
}

/** The first expandable `{...}` in a marked word: [start, end, alternatives], or null. */
function firstBrace(w: string): [number, number, string[]] | null {
  for (let open = w.indexOf(BRACE_OPEN); open >= 0; open = w.indexOf(BRACE_OPEN, open + 1)) {
    let depth = 0;
    const cuts: number[] = [];
    for (let i = open; i < w.length; i++) {
      spend();
      const c = w[i];
      if (c === BRACE_OPEN) depth++;
      else if (c === BRACE_COMMA && depth === 1) cuts.push(i);
      else if (c === BRACE_CLOSE && --depth === 0) {
        const body = w.slice(open + 1, i);
        if (cuts.length) {
          const alts: string[] = [];
          let from = open + 1;
          for (const cut of [...cuts, i]) {
            alts.push(w.slice(from, cut));
            from = cut + 1;
          }
          return [open, i, alts];
        }
        // A sequence body is short (`-999999..999999`): a long one is not worth unmarking (nested braces would
        // make that quadratic).
        const seq = body.length <= 16 ? sequence(unmark(body)) : null;
        if (seq) return [open, i, seq];
        break;
      }
    }
  }
  return null;
}

/** Brace expansion of one marked word (bash order: left to right, nested braces included); marks removed. */
export function braceExpand(word: string): string[] {
  const out: string[] = [];
  const todo = [word];
  // Bounded work too: a command of a thousand `{a,b}` must not stall a hook that runs on every tool call.
  for (let steps = 0; todo.length && out.length < MAX_WORDS; steps++) {
    const w = todo.shift()!;
    const hit = steps < MAX_WORDS * 16 ? firstBrace(w) : null;
    if (!hit) {
      out.push(unmark(w));
      continue;
    }
    const [start, end, alts] = hit;
    const expanded = alts.map((a) => w.slice(0, start) + a + w.slice(end + 1));
    todo.unshift(...expanded.slice(0, MAX_WORDS));
  }
  return out;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\" };

/** Backslash escapes as `echo -e`, `printf %b` and a printf format read them (`\n`, `\x2f`, `\0NNN`, `\NNN`). */
function unescapeBackslashes(s: string, octalNeedsZero: boolean): string {
  return s.replace(/\\(x[0-9A-Fa-f]{1,2}|0[0-7]{0,3}|[0-7]{1,3}|.)/gs, (all, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) {
      if (octalNeedsZero && e[0] !== "0") return all;
      const digits = octalNeedsZero ? e.slice(1) : e;
      return String.fromCharCode(parseInt(digits || "0", 8));
    }
    return ESCAPES[e] ?? all;
  });
}

function echoOutput(args: string[]): string {
  let escapes = false;
  let i = 0;
  for (; i < args.length && /^-[neE]+$/.test(args[i]!); i++) {
    if (args[i]!.includes("e")) escapes = true;
    if (args[i]!.includes("E")) escapes = false;
  }
  const text = args.slice(i).join(" ");
  return escapes ? unescapeBackslashes(text, true) : text;
}

/** printf with %s, %b, %d, %i, %c and %%; the format is reused while arguments remain. Null on anything else. */
function printfOutput(args: string[]): string | null {
  if (args[0] === "--") args = args.slice(1);
  if (!args.length || args[0]!.startsWith("-")) return null;
  const format = args[0]!;
  const rest = args.slice(1);
  let out = "";
  let used = 0;
  for (let round = 0; round < 64; round++) {
    let failed = false;
    const once = format.replace(/%(%|[sbdic])/g, (_, k: string) => {
      if (k === "%") return "%";
      const a = rest[used++] ?? "";
      if (k === "b") return unescapeBackslashes(a, true);
      if (k === "c") return a.slice(0, 1);
      if (k === "d" || k === "i") {
        if (a !== "" && !/^-?\d+$/.test(a)) failed = true;
        return a === "" ? "0" : String(Number(a));
      }
      return a;
    });
    if (failed || /%[^%sbdic]/.test(format.replace(/%%/g, ""))) return null;
    out += unescapeBackslashes(once, false);
    if (used >= rest.length || !/%[sbdic]/.test(format)) break;
  }
  return out;
}

/** What `echo`/`printf`/`pwd` over these (already expanded) words prints, as `$(...)` would use it; else null. */
export function staticOutput(words: string[], pwd: string | undefined): string | null {
  const name = words[0];
  const args = words.slice(1);
  let out: string | null;
  if (name === "echo") out = echoOutput(args);
  else if (name === "printf") out = printfOutput(args);
  else if (name === "pwd" && pwd !== undefined && args.every((a) => a === "-L" || a === "-P")) out = pwd;
  else return null;
  // Command substitution drops trailing newlines.
  return out === null ? null : out.replace(/\n+$/, "");
}
