/**
 * product-path-guard's Bash rules (reference §28.5, DECISIONS D32). The command is read after the expansions a
 * static reader can do exactly (src/hooks/shell-lex.ts). A command "touches" the product repo when it runs there
 * (its working directory is inside) or names a path inside it. Read-only commands may touch it; everything else
 * that touches it is BLOCKED (the catch-all), with a named class for the common shapes: redirections into the
 * product, write-capable arguments of read-only tools (`find -exec`, `rg --pre`, ...), in-place editors, opaque
 * interpreters (`bash -c`, `python -c`, `awk` programs ...) whose program names the product, git mutations
 * (src/hooks/guard-git.ts), command-valued environment variables, shell functions and aliases that could shadow a
 * read-only command, and (legacy mode) `cd` into the product. With MOGUI_PRODUCT_GUARD_FAIL_CLOSED=1 the
 * read-only set is replaced by the allowlist file.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute } from "node:path";
import { BENIGN_PAGER, gitRule } from "./guard-git.ts";
import { canonical, GuardUnsure, rawFrom, resolveFrom, shortPath } from "./guard-paths.ts";
import { deny, type GuardPolicy, type Verdict } from "./guard-verdict.ts";
import { ReadBudgetError, startReadBudget } from "../../lib/shell-expand.ts";
import { parseShell, type LexEnv, type SimpleCommand } from "../../lib/shell-lex.ts";
import { errnoCode } from "../../lib/errors.ts";

export type { GuardPolicy, Verdict } from "./guard-verdict.ts";

const READ_ONLY = new Set([
  "pwd",
  "ls",
  "ll",
  "cat",
  "head",
  "tail",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "stat",
  "file",
  "whoami",
  "env",
  "true",
  "false",
  "test",
  "[",
  "printf",
  "echo",
  ":",
  "wc",
  "realpath",
  "readlink",
  "basename",
  "dirname",
  "which",
  "du",
  "df",
  "diff",
  "cmp",
  "comm",
  "cut",
  "tr",
  "nl",
  "tac",
  "sha256sum",
  "sha1sum",
  "sha512sum",
  "md5sum",
  "shasum",
  "cksum",
  "b2sum",
  "strings",
  "od",
  "hexdump",
  "jq",
  "column",
  "date",
  "id",
  "uname",
  "type",
  "sleep",
  "sort",
  "uniq",
]);
const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "pdksh", "oksh", "loksh", "fish", "csh", "tcsh", "busybox", "ash", "yash", "posh", "rbash", "elvish", "nu", "xonsh", "osh", "ysh", "oil", "pwsh", "powershell"]);
const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "ipython",
  "node",
  "nodejs",
  "deno",
  "bun",
  "ts-node",
  "tsx",
  "perl",
  "ruby",
  "irb",
  "php",
  "osascript",
  "lua",
  "luajit",
  "Rscript",
  "R",
  "julia",
  "pwsh",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "busybox-awk",
  "sed",
  "gsed",
  "tclsh",
  "wish",
  "expect",
  "guile",
  "racket",
  "sbcl",
  "ocaml",
  "ghci",
  "erl",
  "elixir",
  "iex",
  "groovy",
  "scala",
  "jshell",
  "swift",
  "gnuplot",
  "octave",
  "jq-run",
]);
/** Programs that read commands (and may write files or run a shell) from stdin or a script argument. */
const STDIN_PROGRAMS = new Set([
  "ed",
  "red",
  "ex",
  "vi",
  "vim",
  "nvim",
  "view",
  "vimdiff",
  "emacs",
  "sqlite",
  "sqlite3",
  "duckdb",
  "mysql",
  "psql",
  "gdb",
  "lldb",
  "dc",
  "bc",
  "ftp",
  "sftp",
  "lftp",
  "telnet",
  "mail",
  "mailx",
  "make",
  "gmake",
  "ninja",
  "m4",
  "at",
  "batch",
  "crontab",
  "script",
  "su",
  "sudo",
  "doas",
  "runuser",
  "ssh",
  "nsenter",
  "chroot",
  "unshare",
  "strace",
  "ltrace",
  "watch",
  "flock",
]);
/** Filters that treat stdin as data: fed by a pipe that carries product text, they run nothing new. */
const DATA_FILTERS = new Set([
  "tee",
  "less",
  "more",
  "base64",
  "gzip",
  "gunzip",
  "zcat",
  "bzip2",
  "bunzip2",
  "xz",
  "unxz",
  "zstd",
  "xxd",
  "iconv",
  "fold",
  "fmt",
  "paste",
  "expand",
  "unexpand",
  "rev",
  "shuf",
  "split",
  "csplit",
  "pr",
  "sponge",
  "ts",
  "pv",
  "cat",
  "grep",
]);
/** A versioned name (`python3.11`, `bash5`, `perl5.36`, `node-18`) is the program it versions. */
const VERSION_SUFFIX = /^([A-Za-z][A-Za-z-]*?[A-Za-z])[-_.]?\d+(?:\.\d+)*$/;
const INLINE_FLAGS = new Set(["-c", "-e", "-E", "-r", "--eval", "-p", "--print", "--command", "--expression"]);
const EXECUTORS = new Set(["xargs", "parallel"]);
const FIND_WRITES = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);
const IN_PLACE = new Set(["sed", "gsed", "perl", "ruby"]);
const SKIP_WORDS = new Set(["!", "if", "then", "elif", "else", "do", "while", "until", "{", "}", "time"]);
const NOT_COMMANDS = new Set(["for", "case", "select", "function", "done", "fi", "esac", "in"]);
/** Environment variables whose value is run (or redirects what runs): set while touching the product = blocked. */
const COMMAND_ENV =
  /^(PAGER|GIT_PAGER|MANPAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_EXTERNAL_DIFF|GIT_SSH|GIT_SSH_COMMAND|GIT_ASKPASS|SSH_ASKPASS|LESSOPEN|LESSCLOSE|BASH_ENV|ENV|PROMPT_COMMAND|PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_INSERT_LIBRARIES|GIT_CONFIG_.*|GIT_DIR|GIT_WORK_TREE|GIT_INDEX_FILE|GIT_EXEC_PATH|XARGS_.*)$/;
const MAX_DEPTH = 12;
/** Longer than this is an attack on the reader, not a command (a Bash tool call of 256 KiB is not read, it is blocked). */
const MAX_COMMAND = 256 * 1024;
/** Candidate working directories tracked at once; beyond, the cwd is unknown. */
const MAX_CWDS = 8;
const GLOB = /[*?[]/;
const EXTGLOB = /[?*+@!]\(/;
const FRAGMENT_SPLIT = /[\s'"=<>(){};,:|&`[\]]+/;

const allow = (touched: boolean, commandClass = touched ? "read_only" : "outside_product"): Verdict => ({
  block: false,
  reason: touched ? "read-only access to the product repo" : "does not touch the product repo",
  commandClass,
  targetScope: touched ? "product" : "outside",
});

interface Scope {
  policy: GuardPolicy;
  /** The raw command text (some classes are only visible there). */
  raw: string;
  /** IFS is changed by a standalone assignment: word splitting is no longer what this reader assumes. */
  ifs?: boolean;
  /** The whole top-level command mentions the product root (catches `$var` targets set at run time). */
  mentions: boolean;
  /** A command-valued variable (`PATH=...`, `export GIT_PAGER=...`) set by an earlier command of this one. */
  envRisk?: string;
  /** `alias`, `hash` or `enable` used: a later read-only name may run something else. */
  shadow?: string;
}

/** The program a command word names: its basename, a version suffix dropped (`python3.11` is python3's family). */
function programName(word: string): string {
  const b = basename(word);
  if (SHELLS.has(b) || INTERPRETERS.has(b) || READ_ONLY.has(b)) return b;
  const m = VERSION_SUFFIX.exec(b);
  if (m && (SHELLS.has(m[1]!) || INTERPRETERS.has(m[1]!) || STDIN_PROGRAMS.has(m[1]!))) return m[1]!;
  return b;
}

/** Is cwd the product's parent or any other ancestor (a relative word there may be the product itself)? */
function cwdAbove(s: Scope, cwd: string): boolean {
  return s.policy.product.isAncestor(cwd);
}

/** Does this word, taken as a path (or `--opt=path`, `-Xpath`, a cluster `-fo<path>`), land inside the product? */
function argTouches(s: Scope, cwd: string, arg: string, reach = false): boolean {
  if (arg === "") return false;
  const { product } = s.policy;
  const test = reach ? (p: string) => product.reaches(p) : (p: string) => product.contains(p);
  if (arg.charCodeAt(0) === 45) {
    // A bare flag (-la, --short, -20) names no path; skipping it saves syscalls on every tool call. Where cwd is
    // the product's ancestor, a glued relative name (`-tproduct`) may be the product: then every suffix is tried.
    const pathy = arg.includes("/") || arg.includes("=") || arg.includes("~") || arg.includes(".");
    if (!pathy && !cwdAbove(s, cwd) && !product.contains(cwd)) return false;
    const eq = arg.indexOf("=");
    if (eq > 0 && arg.length > eq + 1 && test(rawFrom(cwd, arg.slice(eq + 1)))) return true;
    if (arg.charCodeAt(1) !== 45) {
      // `-o<path>`, `-xvf<path>`, `-C<dir>`: a path glued to a short option, after any cluster of flags.
      for (let k = 2; k < Math.min(arg.length, 18); k++) if (test(rawFrom(cwd, arg.slice(k)))) return true;
    }
    return false;
  }
  if (test(rawFrom(cwd, arg))) return true;
  const eq = arg.indexOf("=");
  if (eq > 0 && arg.length > eq + 1 && test(rawFrom(cwd, arg.slice(eq + 1)))) return true;
  if (GLOB.test(arg) && globReaches(s, cwd, arg)) return true;
  return false;
}

function globRegex(component: string): RegExp {
  if (EXTGLOB.test(component)) return /^.*$/s;
  let re = "";
  for (let k = 0; k < component.length; k++) {
    const c = component[k]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = component.indexOf("]", k + 2);
      if (end < 0) re += "\\[";
      else {
        let body = component.slice(k + 1, end);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, "\\\\")}]`;
        k = end;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${re}$`, "s");
  } catch {
    return /^.*$/s;
  }
}

/**
 * A word with glob characters: could bash's expansion of it reach the product? The fixed part before the first
 * glob component is resolved; a glob at or above the product's parent that could match the way down to the product,
 * or a directory entry matching it that leads into the product (a symlink), means yes.
 */
function globReaches(s: Scope, cwd: string, word: string, depth = 0): boolean {
  const { product } = s.policy;
  const abs = rawFrom(cwd, word);
  const parts = abs.split("/");
  const at = parts.findIndex((p) => GLOB.test(p) || EXTGLOB.test(p));
  if (at < 0) return product.reaches(abs);
  const prefix = parts.slice(0, at).join("/") || "/";
  if (product.contains(prefix)) return true;
  if (parts[at] === "**" || depth > 3) return product.isAncestor(prefix);
  const re = globRegex(parts[at]!);
  const rest = parts.slice(at + 1).join("/");
  // The way down from the fixed part to the product: the glob component must match the next step of it.
  const real = canonical(prefix);
  for (const root of product.roots) {
    const pre = real.endsWith("/") ? real : `${real}/`;
    if (root.startsWith(pre)) {
      const step = root.slice(pre.length).split("/")[0]!;
      if (re.test(step)) return true;
    }
  }
  let names: string[];
  try {
    names = readdirSync(real);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw new GuardUnsure(`cannot list ${shortPath(prefix)} to expand a glob (${code ?? "error"})`);
  }
  let seen = 0;
  for (const n of names) {
    if (!re.test(n)) continue;
    if (++seen > 512) return true;
    const next = `${prefix}/${n}`;
    if (product.reaches(next)) return true;
    if (rest && globReaches(s, "/", `${next}/${rest}`, depth + 1)) return true;
  }
  return false;
}

/**
 * The catch-all's test: the word is a product path, or has one inside it (an awk/python/sed program, `of=...`,
 * `--out=...`): the product root spelled out, or any path-like fragment that resolves into it.
 */
function namesProduct(s: Scope, cwd: string, word: string, reach = false): boolean {
  if (argTouches(s, cwd, word, reach)) return true;
  if (s.policy.product.mentionedIn(word)) return true;
  if (!FRAGMENT_SPLIT.test(word)) return false;
  for (const f of word.split(FRAGMENT_SPLIT)) {
    if (!f || f === word || !(f.includes("/") || f === "..")) continue;
    const p = rawFrom(cwd, f);
    // An ancestor spelled inside a program (`os.rename("/src", ...)`): the bare root `/` alone is too common to count.
    if (s.policy.product.contains(p) || (reach && f !== "/" && f !== "//" && s.policy.product.isAncestor(p))) return true;
  }
  return false;
}

/** Loops, not Array.prototype.some: a hook runs cold, and each array builtin's first call costs (issue 8). */
function anyTouches(s: Scope, cwd: string, args: readonly string[]): boolean {
  for (const a of args) if (argTouches(s, cwd, a)) return true;
  return false;
}

function anyNames(s: Scope, cwd: string, words: readonly string[], reach = false): boolean {
  for (const w of words) if (namesProduct(s, cwd, w, reach)) return true;
  return false;
}

function allowlisted(p: GuardPolicy, words: readonly string[]): boolean {
  return p.allowlist.some((e) => e.length > 0 && e.every((t, i) => words[i] === t));
}

const VALUE_OPTS: Record<string, Set<string>> = {
  sudo: new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"]),
  doas: new Set(["-u", "-C"]),
  env: new Set(["-u", "-S", "-C", "--unset", "--chdir", "--split-string"]),
  nice: new Set(["-n", "--adjustment"]),
  ionice: new Set(["-c", "-n", "-p", "-t"]),
  stdbuf: new Set(["-i", "-o", "-e"]),
  timeout: new Set(["-s", "-k", "--signal", "--kill-after"]),
  exec: new Set(["-a"]),
  caffeinate: new Set(["-w", "-t"]),
  time: new Set(["-o", "--output", "-f", "--format"]),
  setsid: new Set([]),
};
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "time", "exec", "command", "builtin", "nice", "ionice", "stdbuf", "timeout", "chronic", "caffeinate", "setsid", "unbuffer"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const DECLARE = new Set(["export", "local", "declare", "typeset", "readonly"]);

interface Unwrapped {
  words: string[];
  cwd: string;
  /** `NAME=value` words the command runs under (prefix assignments, `env NAME=value`). */
  assigns: string[];
  /** The wrappers' own option words and values (`time -o FILE`, `sudo -D DIR`): checked as paths too. */
  wrapperArgs: string[];
  /** The wrapper left the command unknowable (`env -S` with a string this reader cannot split). */
  unknown?: string;
  /** The cwd became unknown (a `-C` this reader cannot place). */
  cwdUnknown?: boolean;
}

/** Strip assignments, shell keywords and wrappers (`sudo`, `env -C dir`, `timeout 5`, ...) down to the command run. */
function unwrap(words: string[], cwd: string, lex: LexEnv): Unwrapped {
  let w = words;
  const assigns: string[] = [];
  const wrapperArgs: string[] = [];
  let cwdUnknown = false;
  for (let guard = 0; guard < 16 && w.length; guard++) {
    const head = w[0]!;
    if (SKIP_WORDS.has(head) || (head.includes("=") && ASSIGNMENT.test(head))) {
      if (!SKIP_WORDS.has(head)) assigns.push(head);
      w = w.slice(1);
      continue;
    }
    const name = basename(head);
    if (!WRAPPERS.has(name)) break;
    if (name === "command" && (w[1] === "-v" || w[1] === "-V")) return { words: [], cwd, assigns, wrapperArgs };
    const values = VALUE_OPTS[name] ?? new Set<string>();
    let i = 1;
    let split: string | undefined;
    while (i < w.length) {
      const a = w[i]!;
      if (a === "--") {
        i++;
        break;
      }
      if (name === "env" && ASSIGNMENT.test(a)) {
        assigns.push(a);
        i++;
        continue;
      }
      if (!a.startsWith("-") || a === "-") break;
      if (!/^-(C|D|-chdir)/.test(a)) wrapperArgs.push(a);
      // Directory changes: `env -C DIR`, `env --chdir=DIR`, `sudo -D DIR`, glued or clustered (`-iC DIR`, `-CDIR`).
      const chdirFlag = name === "env" ? "C" : name === "sudo" ? "D" : "";
      const long = a.startsWith("--");
      if (long && (a === "--chdir" || a.startsWith("--chdir="))) {
        const v = a === "--chdir" ? w[++i] : a.slice(8);
        if (v === undefined || /[$`*?[]/.test(v)) cwdUnknown = true;
        else cwd = resolveFrom(cwd, v);
        i++;
        continue;
      }
      if (name === "env" && long && (a === "--split-string" || a.startsWith("--split-string="))) {
        split = a === "--split-string" ? (w[++i] ?? "") : a.slice(15);
        i++;
        break;
      }
      if (!long && name === "env") {
        // A short cluster: flags up to the first letter taking a value (u, C, S), the rest of it or the next word.
        let k = 1;
        for (; k < a.length && !"uCS".includes(a[k]!); k++);
        if (k < a.length) {
          const letter = a[k]!;
          let v = a.slice(k + 1);
          if (v === "") v = w[++i] ?? "";
          i++;
          if (letter === "S") {
            split = v;
            break;
          }
          if (letter === "C") {
            if (/[$`*?[]/.test(v)) cwdUnknown = true;
            else cwd = resolveFrom(cwd, v);
          }
          continue;
        }
        i++;
        continue;
      }
      if (!long && chdirFlag && a.length > 1 && a.slice(1).includes(chdirFlag)) {
        const at = a.indexOf(chdirFlag, 1);
        let v = a.slice(at + 1);
        if (v === "") v = w[++i] ?? "";
        if (/[$`*?[]/.test(v)) cwdUnknown = true;
        else cwd = resolveFrom(cwd, v);
        i++;
        continue;
      }
      if (values.has(a)) {
        wrapperArgs.push(w[i + 1] ?? "");
        i += 2;
      } else i++;
    }
    if (name === "timeout" && i < w.length) i++; // the duration
    w = w.slice(i);
    if (split !== undefined) {
      // `env -S 'cmd args'`: env splits the string itself (quotes, ${VAR}); read as one simple command or refused.
      const inner = parseShell(split, { home: lex.home, vars: lex.vars });
      const only = !inner.error && inner.pipelines.length === 1 && inner.pipelines[0]!.length === 1 && !inner.nested.length ? inner.pipelines[0]![0]! : null;
      if (!only || only.redirects.length) return { words: w, cwd, assigns, wrapperArgs, unknown: "env -S with a string this reader cannot split" };
      w = [...only.words, ...w];
    }
  }
  return { words: w, cwd, assigns, wrapperArgs, cwdUnknown };
}

function checkRedirects(s: Scope, cmd: SimpleCommand, cwds: readonly string[]): Verdict | null {
  for (const r of cmd.redirects) {
    if (!WRITE_REDIRECTS.has(r.op)) continue;
    if ((r.op === ">&" && /^(\d+|-)$/.test(r.target)) || /^[<>]\(/.test(r.target)) continue;
    for (const cwd of cwds) {
      if (s.policy.product.contains(rawFrom(cwd, r.target)) || (GLOB.test(r.target) && globReaches(s, cwd, r.target))) {
        return deny(`redirection '${r.op} ${shortPath(r.target)}' writes into the product repo`, "redirection");
      }
    }
    // A target only known at run time, in a command that names the product: assume the worst.
    if (s.mentions && /[$`]/.test(r.target)) return deny(`redirection '${r.op} ${shortPath(r.target)}' is computed at run time in a command naming the product repo`, "redirection");
  }
  return null;
}

function inlineCode(name: string, args: readonly string[]): boolean {
  if (name === "eval" || name === "source" || name === ".") return true;
  if (SHELLS.has(name)) return args.some((a) => a === "-c" || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
  if (INTERPRETERS.has(name)) return /awk$/.test(name) || /sed$/.test(name) || args.some((a) => INLINE_FLAGS.has(a) || /^-[a-zA-Z]*e$/.test(a));
  return false;
}

/** A shell or interpreter with no script argument reads its program from stdin (`... | sh`). */
function readsStdinProgram(name: string, args: readonly string[]): boolean {
  if (STDIN_PROGRAMS.has(name)) return true;
  return (SHELLS.has(name) || (INTERPRETERS.has(name) && !/awk$|sed$/.test(name))) && args.every((a) => a.startsWith("-"));
}

function isInPlace(name: string, a: string): boolean {
  if (!IN_PLACE.has(name)) return false;
  return a === "--in-place" || a.startsWith("--in-place=") || (/^-[a-zA-Z]*i/.test(a) && !a.startsWith("--"));
}

/** xargs's own options, then the command it runs. */
function xargsInner(args: readonly string[]): string[] {
  const withValue = new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"]);
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += withValue.has(args[i]!) ? 2 : 1;
  return args.slice(i);
}

/** An environment variable that runs a command or changes what runs; a plain pager (`GIT_PAGER=cat`) is fine. */
function commandEnv(assign: string): string | null {
  const eq = assign.indexOf("=");
  const name = assign.slice(0, eq).replace(/\+$/, "");
  if (!COMMAND_ENV.test(name)) return null;
  return /PAGER$/.test(name) && BENIGN_PAGER.test(assign.slice(eq + 1)) ? null : name;
}

interface Outcome {
  verdict?: Verdict;
  /** A directory change: the new candidates (the product root among them when the target is unknown). */
  cd?: { to: string[]; certain: boolean };
  touched: boolean;
}

/** Where `cd`/`pushd`/`popd` leads, or null when static reading cannot know (`cd -`, `popd`, `$VAR`, globs, CDPATH). */
function cdTarget(s: Scope, name: string, args: readonly string[], cwd: string): string[] | null {
  if (name === "popd") return null;
  const operands = args.filter((a) => !a.startsWith("-") || a === "-");
  const physical = args.some((a) => /^-[a-zA-Z]*P/.test(a)) || /\bset\s+(-[a-zA-Z]*P|-o\s+physical)/.test(s.raw);
  // `HOME=`, `OLDPWD=`, `CDPATH=` anywhere in the command, or CDPATH in the environment: `cd x` may go elsewhere.
  const reassigned = /(^|[\s;&|(])(HOME|OLDPWD|CDPATH|PWD)\+?=/.test(s.raw) || /\b(HOME|OLDPWD|CDPATH)\b/.test(s.raw.replace(/\$\{?HOME\}?/g, ""));
  const target = operands[0];
  if (name === "pushd" && (target === undefined || /^[+-]\d*$/.test(target))) return null;
  if (target === "-" || /[$`*?[~]/.test(target ?? "") || operands.length > 1) return null;
  if (target === undefined) return reassigned ? null : [s.policy.lex.home];
  const cdpath = s.policy.lex.vars.CDPATH;
  const relative = !isAbsolute(target) && !/^\.\.?(\/|$)/.test(target);
  if (reassigned || (cdpath && relative)) return null;
  const lexical = resolveFrom(cwd, target);
  const real = canonical(rawFrom(cwd, target));
  if (physical) return [real];
  return real === lexical ? [lexical] : [lexical, real];
}

function cdRule(s: Scope, name: string, args: readonly string[], cwd: string): Outcome {
  const to = cdTarget(s, name, args, cwd);
  const { product } = s.policy;
  // Unknown: the product root stands for "anywhere", so a relative write after it is judged as one into the product.
  const next = to ?? [...product.roots];
  const into = next.some((d) => product.contains(d));
  if (into && s.policy.failClosed && !allowlisted(s.policy, ["cd"])) return { verdict: deny("cd into the product repo is not in the fail-closed allowlist", "not_allowlisted"), touched: true };
  let certain = to !== null;
  if (certain) {
    try {
      certain = next.every((d) => statSync(d).isDirectory());
    } catch {
      certain = false;
    }
  }
  return { cd: { to: next, certain }, touched: into };
}

/** Write-capable arguments of otherwise read-only tools. */
function readOnlyArgVerdict(name: string, args: readonly string[]): Verdict | null {
  if (name === "find") {
    const w = args.find((a) => FIND_WRITES.has(a));
    if (w) return deny(`find ${w} can write or run commands in the product repo`, "write_capable_arg");
  }
  if (name === "rg" && args.some((a) => a === "--pre" || a.startsWith("--pre="))) return deny("rg --pre runs a command on product files", "write_capable_arg");
  if (name === "file" && args.some((a) => a === "-C" || a === "--compile")) return deny("file -C writes a compiled magic file", "write_capable_arg");
  if (name === "sort" && args.some((a) => /^-[A-Za-z]*o/.test(a) || a.startsWith("--output"))) return deny("sort -o writes a file", "write_capable_arg");
  if (name === "uniq" && args.filter((a) => !a.startsWith("-")).length > 1) return deny("uniq with an output file writes it", "write_capable_arg");
  return null;
}

/** find's starting points (default `.`), before its first expression word. */
function findRoots(args: readonly string[]): string[] {
  const roots: string[] = [];
  for (const a of args) {
    if (a === "-H" || a === "-L" || a === "-P" || a.startsWith("-O") || a === "-D") continue;
    if (a.startsWith("-") || a === "(" || a === "!" || a === ",") break;
    roots.push(a);
  }
  return roots.length ? roots : ["."];
}

/**
 * Programs whose product operands are only read, by their options: `cp` (sources), `tar c`/`tar t` (the -C
 * directory and members), `sed` without `-i` and without a w/W/e command, `awk` without output redirection,
 * pipes or system(). The destination is still judged as a write.
 */
function readsOnly(s: Scope, name: string, args: readonly string[], cwd: string): boolean {
  const { product } = s.policy;
  const inProduct = (w: string) => argTouches(s, cwd, w, true);
  if (name === "cp") {
    if (args.some((a) => /^-[a-zA-Z]*[lsT]/.test(a) || /^--(link|symbolic-link|target-directory|no-target-directory|remove-destination|attributes-only)/.test(a) || a.startsWith("-t"))) return false;
    const ops = args.filter((a) => !a.startsWith("-"));
    if (ops.length < 2) return false;
    const dest = ops[ops.length - 1]!;
    return !inProduct(dest) && !GLOB.test(dest) && !/[$`]/.test(dest) && !product.mentionedIn(dest);
  }
  if (name === "tar") {
    const mode = args[0] && !args[0].startsWith("--") ? args[0].replace(/^-/, "") : "";
    const create = /^[a-zA-Z]*c/.test(mode) || args.includes("--create") || args.includes("-c");
    const list = /^[a-zA-Z]*t/.test(mode) || args.includes("--list") || args.includes("-t");
    if (
      !(create || list) ||
      /[xurAgG]/.test(mode) ||
      args.some((a) => /^--(extract|get|append|update|delete|remove-files|to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rsh-command|index-file|listed-incremental|incremental|volno-file)/.test(a) || /^-[a-zA-Z]*[IFgG]/.test(a))
    )
      return false;
    // The archive file: the value of f (in the mode cluster, the next word) or -f/--file.
    let file: string | undefined;
    const fAt = args.findIndex((a) => a === "-f" || a === "--file");
    if (fAt >= 0) file = args[fAt + 1];
    else if (args.some((a) => a.startsWith("--file="))) file = args.find((a) => a.startsWith("--file="))!.slice(7);
    else if (mode.includes("f")) file = args[1];
    else if (args.some((a) => /^-[a-zA-Z]*f./.test(a))) return false;
    return file !== undefined && !inProduct(file) && !/[$`*?[]/.test(file) && !product.mentionedIn(file);
  }
  if (name === "sed" || name === "gsed") {
    // Only flags that cannot write or run: every script is then checked for w, W and e commands.
    const SAFE = /^(-n|--quiet|--silent|-E|-r|--regexp-extended|-s|--separate|-u|--unbuffered|-z|--null-data|--posix|--debug|--sandbox|-[nErsuz]+)$/;
    const scripts: string[] = [];
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a === "-e" || a === "--expression") scripts.push(args[++k] ?? "");
      else if (a.startsWith("--expression=")) scripts.push(a.slice(13));
      else if (a.startsWith("-") && a !== "-" && !SAFE.test(a)) return false;
    }
    if (!scripts.length) {
      const first = args.find((a) => !a.startsWith("-"));
      if (first === undefined) return false;
      scripts.push(first);
    }
    return scripts.every((p) => !/[wWe]/.test(p));
  }
  if (/^(g|m|n)?awk$/.test(name)) {
    // Only -v and -F (and their long forms): any other flag may load a program (-f, -e, --source, -i, -l ...).
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a === "-v" || a === "-F") k++;
      else if (a.startsWith("-") && a !== "-" && !/^(-F.|-v.|--assign=|--field-separator=)/.test(a)) return false;
      else if (!a.startsWith("-")) break;
    }
    const program = args.filter((a, k) => !a.startsWith("-") && !(k > 0 && (args[k - 1] === "-v" || args[k - 1] === "-F")))[0];
    return program !== undefined && !/[>|]|system|getline|close|fflush|ENVIRON|PROCINFO|@/.test(program);
  }
  return false;
}

/** Environment reads inside a program's text: `os.environ["P"]`, `$ENV{P}`, `process.env.P`, `ENVIRON["P"]`, `ENV["P"]`, `getenv("P")`. */
const ENV_READS = [
  /\b(?:environ(?:\.get)?\s*[[(]\s*|getenv\s*\(\s*|ENV(?:\.fetch)?\s*[[(]\s*)(["']?)([A-Za-z_]\w*)?/gi,
  /\$ENV\{\s*["']?([A-Za-z_]\w*)?/g,
  /\bprocess\.env(?:\.([A-Za-z_$][\w$]*)|\[\s*["'`]([A-Za-z_]\w*)?)?/g,
  /\bDeno\.env\.get\(\s*["']([A-Za-z_]\w*)?/g,
];

/**
 * Does a program's text read an environment variable whose value this guard cannot vouch for? One the hook's own
 * environment does not hold (exported by an earlier call: it may be the product), or one that names the product.
 * A read by a computed name (`os.environ[k]`) is unknowable too.
 */
function readsUnknownEnv(s: Scope, text: string, shellProgram: boolean): string | null {
  const vars = s.policy.lex.vars;
  const judge = (name: string | undefined): string | null => {
    if (name === undefined || name === "") return "a variable by a computed name";
    const v = vars[name];
    if (v === undefined) return name;
    return s.policy.product.mentionedIn(v) ? name : null;
  };
  for (const re of ENV_READS) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const name = m[3] ?? m[2] ?? m[1];
      const bad = judge(/^["'`]?$/.test(name ?? "") ? undefined : name);
      // `ENV[` and friends only count with a quoted literal or an identifier after them.
      if (bad) return bad;
    }
  }
  if (shellProgram) {
    for (const m of text.matchAll(/\$\{?(!?)([A-Za-z_]\w*)/g)) {
      if (m[1]) return `\${!${m[2]}}`;
      const bad = judge(m[2]);
      if (bad) return bad;
    }
  }
  return null;
}

/** The class and reason for a command that is not read-only and touches the product. */
function writeVerdict(s: Scope, name: string, args: readonly string[], opaque: boolean, stdinProgram: boolean): Verdict | null {
  if (args.some((a) => isInPlace(name, a))) return deny(`${name} in-place editing touches the product repo`, "write_capable_arg");
  if (opaque || stdinProgram) return deny(`opaque interpreter '${name}' would run a program against the product repo`, "opaque_interpreter");
  if (s.policy.failClosed) {
    return allowlisted(s.policy, [name, ...args]) ? null : deny(`'${name}' is not in the fail-closed allowlist and touches the product repo`, "not_allowlisted");
  }
  return deny(`'${name}' is not read-only and touches the product repo`, "write_command");
}

/** `ln -s TARGET... LINK`: a link whose target (read from the link's own directory) reaches the product. */
function symlinkReaches(s: Scope, args: readonly string[], cwd: string): boolean {
  if (!args.some((a) => a === "--symbolic" || /^-[a-zA-Z]*s/.test(a))) return false;
  const ops = args.filter((a) => !a.startsWith("-"));
  if (!ops.length) return false;
  const tFlag = args.findIndex((a) => a === "-t" || a.startsWith("--target-directory"));
  let dir: string;
  let targets: string[];
  if (tFlag >= 0) {
    const a = args[tFlag]!;
    dir = rawFrom(cwd, a.includes("=") ? a.slice(a.indexOf("=") + 1) : (args[tFlag + 1] ?? "."));
    targets = ops.filter((o) => o !== args[tFlag + 1]);
  } else if (ops.length === 1) {
    dir = cwd;
    targets = ops;
  } else {
    const last = ops[ops.length - 1]!;
    let isDir = false;
    try {
      isDir = statSync(rawFrom(cwd, last)).isDirectory();
    } catch {
      isDir = false;
    }
    dir = isDir ? rawFrom(cwd, last) : dirname(rawFrom(cwd, last));
    targets = ops.slice(0, -1);
  }
  for (const t of targets) {
    if (/[$`*?[]/.test(t)) return true;
    if (s.policy.product.reaches(rawFrom(dir, t)) || s.policy.product.reaches(rawFrom(cwd, t))) return true;
  }
  return false;
}

/** Writers that cannot change what is below an existing directory they are given (an ancestor of the product). */
const ANCESTOR_SAFE = new Set(["mkdir", "mktemp", "touch", "cd", "pushd", "popd", "echo", "printf", "true", "false", ":", "test", "["]);
/** git subcommands that rewrite a working tree's files: run in an ancestor repo, they can change the product. */
const GIT_TREE_WRITERS = /^(clean|checkout|restore|reset|stash|rm|mv|switch|read-tree|checkout-index|apply|am|merge|rebase|pull|cherry-pick|revert|submodule|filter-branch|sparse-checkout|worktree)$/;

interface Ctx1 {
  cwd: string;
  /** Position in its pipeline (0 = first); what came through the pipe before it touched the product. */
  piped: boolean;
  pipeTouched: boolean;
}

function commandRule(s: Scope, cmd: SimpleCommand, c: Ctx1): Outcome {
  const cwdIn = c.cwd;
  const redirect = checkRedirects(s, cmd, [cwdIn]);
  if (redirect) return { verdict: redirect, touched: true };
  if (cmd.words.length && NOT_COMMANDS.has(cmd.words[0]!)) return { touched: false };
  const u = unwrap(cmd.words, cwdIn, s.policy.lex);
  const { words, assigns, wrapperArgs } = u;
  const { product } = s.policy;
  const cwds = u.cwdUnknown ? [...product.roots] : [u.cwd];
  const cwd = cwds[0]!;
  if (u.unknown) {
    if (s.mentions || product.contains(cwd)) return { verdict: deny(`${u.unknown}, in a command that concerns the product repo`, "opaque_interpreter"), touched: true };
  }
  const name = words.length ? programName(words[0]!) : "";
  const args = words.slice(1);
  const declared = DECLARE.has(name) ? args.filter((a) => ASSIGNMENT.test(a)) : [];
  if (!words.length || declared.length) {
    const all = [...assigns, ...declared];
    s.envRisk ??= all.map(commandEnv).find((x) => x !== null) ?? undefined;
    if (all.some((a) => /^IFS\+?=/.test(a))) s.ifs = true;
    return { touched: anyNames(s, cwd, all) };
  }
  // `printf -v NAME`, `read NAME`, `mapfile`: assignments bash makes at run time to a variable that changes what runs.
  if ((name === "printf" && args[0] === "-v") || name === "read" || name === "mapfile" || name === "readarray") {
    const targets = name === "printf" ? [args[1] ?? ""] : args.filter((a) => !a.startsWith("-"));
    for (const t of targets) {
      if (t === "IFS" && !(name === "read" && /^IFS=/.test(cmd.words[0] ?? ""))) s.ifs = true;
      else if (commandEnv(`${t}=x`)) s.envRisk ??= t;
    }
  }
  if (s.ifs && !READ_ONLY.has(name)) return { verdict: deny("IFS is changed earlier in the command: its words may split differently from how this reader reads them", "lexer_disagreement"), touched: true };
  if (name === "alias" || name === "hash" || name === "enable" || (name === "shopt" && args.includes("expand_aliases"))) s.shadow ??= name;
  const blocked = (v: Verdict | null): Outcome => (v ? { verdict: v, touched: true } : { touched: true });
  // Wrapper options: `time -o FILE`, `sudo -D DIR`, `env -C DIR` (a read-only command run there is still fine).
  const wrapperTouch = anyNames(
    s,
    cwdIn,
    wrapperArgs.filter((a) => !/^-/.test(a) || a.includes("/")),
  );
  if (wrapperTouch) return blocked(deny(`an option of '${basename(cmd.words.find((w) => WRAPPERS.has(basename(w))) ?? "a wrapper")}' names a path inside the product repo`, "write_capable_arg"));
  const envTouch = anyNames(s, cwd, assigns) || wrapperTouch;
  const envRisk = assigns.map(commandEnv).find((x) => x !== null) ?? s.envRisk;
  const wrapped = cmd.words.map((w) => basename(w));
  if (wrapped.includes("nohup") && cwds.some((d) => product.contains(d)) && !cmd.redirects.some((r) => r.op === ">" || r.op === "&>")) {
    return blocked(deny("nohup writes nohup.out into its working directory, the product repo", "write_command"));
  }
  if (name === "cd" || name === "pushd" || name === "popd") return cdRule(s, name, args, cwd);
  if (name === "git") {
    const g = gitRule(s.policy, args, cwd, (d, a) => anyTouches(s, d, a) || a.some((w) => /^file:/.test(w) && product.mentionedIn(w)), s.policy.failClosed ? (w) => allowlisted(s.policy, w) : null);
    if ("block" in g) return { verdict: g, touched: true };
    if (g.sub && GIT_TREE_WRITERS.test(g.sub) && g.gcwd && product.isAncestor(g.gcwd)) {
      return blocked(deny(`git ${g.sub} in a repository above the product repo can rewrite its files`, "git_mutation"));
    }
    if ((g.touched || envTouch) && envRisk) return blocked(deny(`${envRisk}=... changes what git runs or where it writes while touching the product repo`, "env_command"));
    return { touched: g.touched || envTouch };
  }
  const inCwd = cwds.some((d) => product.contains(d));
  if (EXECUTORS.has(name)) {
    // xargs and parallel run what their input names: unless the command they run only reads, block.
    const inner = xargsInner(args);
    const innerName = inner[0] ? programName(inner[0]) : "echo";
    const ok = s.policy.failClosed ? allowlisted(s.policy, [innerName, ...inner.slice(1)]) && !(inCwd || s.mentions) : READ_ONLY.has(innerName) && !readOnlyArgVerdict(innerName, inner.slice(1)) && innerName !== "env";
    if (!ok) return blocked(deny(`${name} runs '${innerName}' on arguments known only at run time`, "write_capable_arg"));
    return { touched: c.pipeTouched || s.mentions || inCwd };
  }
  if (READ_ONLY.has(name) && !s.policy.failClosed && !envRisk) {
    const touched = inCwd || anyTouches(s, cwd, args) || envTouch;
    if (name === "find" && readOnlyArgVerdict(name, args)) {
      // find with an action: its starting points (default `.`) decide, and one above the product reaches it.
      if (touched || findRoots(args).some((r) => argTouches(s, cwd, r, true))) return blocked(readOnlyArgVerdict(name, args));
      return { touched: false };
    }
    return touched ? blocked(readOnlyArgVerdict(name, args)) : { touched: false };
  }
  const opaque = inlineCode(name, args);
  const stdinProgram = readsStdinProgram(name, args);
  const fedInput = c.piped || cmd.redirects.some((r) => r.op === "<<" || r.op === "<<<" || r.op === "<");
  // A program that reads the environment: a variable the shell already holds may be the product's path.
  if (opaque || (stdinProgram && fedInput)) {
    const text = opaque ? args.join("\n") : s.raw;
    const shellProgram = SHELLS.has(name) || name === "eval";
    const unknown = readsUnknownEnv(s, text, shellProgram);
    if (unknown) return blocked(deny(`'${name}' runs a program that reads the environment (${unknown}), whose value this guard cannot see; it may name the product repo`, "opaque_interpreter"));
  }
  // Name references and indirection (`declare -n r=P`, `${!v}`): the variable read is chosen at run time.
  if (!ANCESTOR_SAFE.has(name) && /(^|[\s;&|(])(declare|local|typeset)\s+-\w*n\b|\$\{!/.test(s.raw)) {
    return blocked(deny(`a name reference or \${!...} indirection chooses at run time which variable '${name}' reads`, "lexer_disagreement"));
  }
  // A non-read-only command whose words reach the product or an ancestor of it (mv/rm/chmod of a parent too).
  const reach = !ANCESTOR_SAFE.has(name);
  let touched = inCwd || envTouch || anyNames(s, cwd, words, reach);
  if (name === "ln" && symlinkReaches(s, args, cwd)) return blocked(deny("ln -s makes a link to the product repo or a directory above it", "symlink"));
  if (touched && !inCwd && !envTouch && (!opaque || /awk$|sed$/.test(name)) && !c.pipeTouched && readsOnly(s, name, args, cwd) && !envRisk) return { touched: true };
  if (opaque && s.mentions) touched = true;
  if ((EXECUTORS.has(name) || stdinProgram) && c.pipeTouched) touched = true;
  // xargs reads its arguments (`< <(echo <P>/f)`, a heredoc): what it runs them with decides.
  if (EXECUTORS.has(name) && s.mentions) touched = true;
  // `bash <<EOF ... EOF` and `cat <<EOF | sh`: the program is a heredoc, which only the raw text can show.
  if (stdinProgram && s.mentions) touched = true;
  // Any program of unknown nature fed a pipe or heredoc in a command that names the product: it may read a program.
  if (fedInput && s.mentions && !DATA_FILTERS.has(name) && !READ_ONLY.has(name) && !EXECUTORS.has(name)) touched = true;
  // A word only known at run time (`rm "$f"` in a loop over product files) in a command that names the product.
  if (s.mentions && args.some((a) => a.includes("$") || a.includes("`"))) touched = true;
  // The command name itself is computed at run time (`$cmd`, `"$@"`) in a command that names the product.
  if (s.mentions && /[$`]/.test(words[0]!)) touched = true;
  if (!touched) return { touched: false };
  if (envRisk) return blocked(deny(`${envRisk}=... changes what runs while touching the product repo`, "env_command"));
  if (READ_ONLY.has(name)) return blocked(readOnlyArgVerdict(name, args) ?? writeVerdict(s, name, args, false, false));
  if (stdinProgram && fedInput && !opaque && !SHELLS.has(name) && !INTERPRETERS.has(name)) return blocked(deny(`'${name}' reads commands from its input in a command that names the product repo`, "opaque_interpreter"));
  const v = writeVerdict(s, name, args, opaque, stdinProgram);
  return v ? blocked(v) : { touched };
}

type Analysis = Verdict & { touched: boolean };

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}

function analyse(s: Scope, command: string, cwdsIn: string[], depth: number, vars: LexEnv["vars"]): Analysis {
  if (depth > MAX_DEPTH) return { ...deny("command nests too deeply to check", "unparseable"), touched: true };
  const scoped = Object.create(vars) as LexEnv["vars"];
  if (cwdsIn.length === 1) scoped.PWD = cwdsIn[0];
  const parsed = parseShell(command, { home: s.policy.lex.home, vars: scoped, keep: (v) => s.policy.product.mentionedIn(v) || namesProduct(s, cwdsIn[0]!, v) });
  // When this reader and bash could disagree, block (issue 23): a parse error is never waved through.
  if (parsed.error) return { ...deny(`could not read the command the way bash would (${parsed.error})`, "unparseable"), touched: true };
  let touched = false;
  const seen = new Set(cwdsIn);
  /** One reading of the pipelines from the given directories; a verdict, or null. */
  const pass = (start: string[], loopRound = false): Analysis | null => {
    let cur = start;
    // Where each `(` opened: a subshell's directory changes end at its `)` (the union is kept, to stay safe).
    const saved: string[][] = [];
    for (const [k, pipe] of parsed.pipelines.entries()) {
      const sep = parsed.seps[k] ?? { before: "", after: "", depth: 0 };
      if (sep.before === "(") saved.push(cur);
      let pipeTouched = false;
      let moved: string[] | null = null;
      let certain = false;
      for (const [j, cmd] of pipe.entries()) {
        for (const cwd of cur) {
          const o = commandRule(s, cmd, { cwd, piped: j > 0, pipeTouched });
          if (o.verdict) return { ...o.verdict, touched: true };
          pipeTouched ||= o.touched;
          touched ||= o.touched;
          if (o.cd) {
            moved = uniq([...(moved ?? []), ...o.cd.to]);
            certain = o.cd.certain;
          }
        }
      }
      if (moved) {
        // bash certainly changes directory only for a lone `cd` that runs in this shell, whatever came before, and
        // succeeds: not in a pipeline, not in the background, not on the right of `&&`/`||` (it may not run), not
        // on the left of `||` (it failed). Otherwise both the old and the new directories stay possible.
        const sure = !loopRound && certain && pipe.length === 1 && sep.after !== "&" && sep.after !== "||" && sep.before !== "&&" && sep.before !== "||";
        cur = sure ? moved : uniq([...cur, ...moved]);
      }
      if (sep.after === ")" && saved.length) cur = uniq([...saved.pop()!, ...cur]);
      if (cur.length > MAX_CWDS) cur = uniq([...s.policy.product.roots, ...cur.slice(0, MAX_CWDS)]);
      for (const d of cur) seen.add(d);
    }
    return null;
  };
  const first = pass(cwdsIn);
  if (first) return first;
  // A `cd` inside a loop moves again on the next round: read the whole command once more from every directory
  // the first reading reached.
  if (seen.size > cwdsIn.length && /(^|[\s;&|(])(for|while|until|select)\s/.test(command)) {
    const again = pass([...seen].slice(0, MAX_CWDS * 2), true);
    if (again) return again;
  }
  // $(...), backticks and <(...) run where the shell is when it reaches them: judged from every directory seen.
  const all = [...seen].slice(0, MAX_CWDS * 2);
  for (const [i, inner] of parsed.nested.entries()) {
    const v = analyse(s, inner, all, depth + 1, parsed.nestedVars[i] ?? vars);
    if (v.block) return v;
    touched ||= v.touched;
  }
  if (s.envRisk && touched) return { ...deny(`${s.envRisk}=... set earlier changes what runs while touching the product repo`, "env_command"), touched: true };
  if (s.shadow && (touched || s.mentions)) return { ...deny(`'${s.shadow}' can make a read-only command name run something else, and the command touches the product repo`, "shadowing"), touched: true };
  if (parsed.functions.length && (touched || s.mentions)) {
    return { ...deny(`defines shell function '${parsed.functions[0]}', which can shadow a read-only command, and touches the product repo`, "shadowing"), touched: true };
  }
  return { ...allow(touched), touched };
}

/** Work (characters scanned, paths probed x 64) and wall time one reading may take before it refuses. */
const READ_WORK = 8_000_000;
const READ_MS = 3000;

export function checkBash(policy: GuardPolicy, command: string, cwd: string): Verdict {
  if (command.length > MAX_COMMAND) return deny(`the command is ${command.length} characters long, over the ${MAX_COMMAND} this guard reads`, "unparseable");
  // A hook that outlives the host's timeout lets the call run: a reading too costly ends in a block, in time.
  startReadBudget(READ_WORK, READ_MS);
  try {
    const r = analyse({ policy, raw: command, mentions: policy.product.mentionedIn(command) }, command, [cwd], 0, policy.lex.vars);
    return { block: r.block, reason: r.reason, commandClass: r.commandClass, targetScope: r.targetScope };
  } catch (e) {
    if (e instanceof ReadBudgetError) return deny(e.message, "unparseable");
    throw e;
  } finally {
    startReadBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  }
}
