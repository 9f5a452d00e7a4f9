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
import { basename } from "node:path";
import { BENIGN_PAGER, gitRule } from "./guard-git.ts";
import { resolveFrom } from "./guard-paths.ts";
import { deny, type GuardPolicy, type Verdict } from "./guard-verdict.ts";
import { parseShell, type LexEnv, type SimpleCommand } from "../../lib/shell-lex.ts";

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
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox"]);
const INTERPRETERS = new Set(["python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "osascript", "lua", "Rscript", "pwsh", "awk", "gawk", "mawk", "nawk", "sed", "gsed", "tclsh", "expect"]);
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
const FRAGMENT_SPLIT = /[\s'"=<>(){};,:|&`[\]]+/;

const allow = (touched: boolean, commandClass = touched ? "read_only" : "outside_product"): Verdict => ({
  block: false,
  reason: touched ? "read-only access to the product repo" : "does not touch the product repo",
  commandClass,
  targetScope: touched ? "product" : "outside",
});

interface Scope {
  policy: GuardPolicy;
  /** The whole top-level command mentions the product root (catches `$var` targets set at run time). */
  mentions: boolean;
  /** A command-valued variable (`PATH=...`, `export GIT_PAGER=...`) set by an earlier command of this one. */
  envRisk?: string;
  /** `alias`, `hash` or `enable` used: a later read-only name may run something else. */
  shadow?: string;
}

/** Does this word, taken as a path (or `--opt=path`, `-Xpath`), land inside the product? */
function argTouches(s: Scope, cwd: string, arg: string): boolean {
  // A bare flag (-la, --short, -20) names no path; skipping it saves syscalls on every tool call.
  if (arg === "" || (arg.charCodeAt(0) === 45 && !arg.includes("/") && !arg.includes("=") && !arg.includes("~"))) return false;
  const { product } = s.policy;
  if (product.contains(resolveFrom(cwd, arg))) return true;
  const eq = arg.indexOf("=");
  if (eq > 0 && arg.length > eq + 1 && product.contains(resolveFrom(cwd, arg.slice(eq + 1)))) return true;
  return arg.charCodeAt(0) === 45 && /^-[A-Za-z][/~.]/.test(arg) && product.contains(resolveFrom(cwd, arg.slice(2)));
}

/**
 * The catch-all's test: the word is a product path, or has one inside it (an awk/python/sed program, `of=...`,
 * `--out=...`): the product root spelled out, or any path-like fragment that resolves into it.
 */
function namesProduct(s: Scope, cwd: string, word: string): boolean {
  if (argTouches(s, cwd, word)) return true;
  if (s.policy.product.mentionedIn(word)) return true;
  if (!FRAGMENT_SPLIT.test(word)) return false;
  for (const f of word.split(FRAGMENT_SPLIT)) {
    if (f && f !== word && (f.includes("/") || f === "..") && s.policy.product.contains(resolveFrom(cwd, f))) return true;
  }
  return false;
}

/** Loops, not Array.prototype.some: a hook runs cold, and each array builtin's first call costs (issue 8). */
function anyTouches(s: Scope, cwd: string, args: readonly string[]): boolean {
  for (const a of args) if (argTouches(s, cwd, a)) return true;
  return false;
}

function anyNames(s: Scope, cwd: string, words: readonly string[]): boolean {
  for (const w of words) if (namesProduct(s, cwd, w)) return true;
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
};
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "time", "exec", "command", "builtin", "nice", "ionice", "stdbuf", "timeout", "chronic", "caffeinate", "setsid", "unbuffer"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const DECLARE = new Set(["export", "local", "declare", "typeset", "readonly"]);

interface Unwrapped {
  words: string[];
  cwd: string;
  /** `NAME=value` words the command runs under (prefix assignments, `env NAME=value`). */
  assigns: string[];
}

/** Strip assignments, shell keywords and wrappers (`sudo`, `env -C dir`, `timeout 5`, ...) down to the command run. */
function unwrap(words: string[], cwd: string): Unwrapped {
  let w = words;
  const assigns: string[] = [];
  for (let guard = 0; guard < 16 && w.length; guard++) {
    const head = w[0]!;
    if (SKIP_WORDS.has(head) || (head.includes("=") && ASSIGNMENT.test(head))) {
      if (!SKIP_WORDS.has(head)) assigns.push(head);
      w = w.slice(1);
      continue;
    }
    const name = basename(head);
    if (!WRAPPERS.has(name)) break;
    if (name === "command" && (w[1] === "-v" || w[1] === "-V")) return { words: [], cwd, assigns };
    const values = VALUE_OPTS[name] ?? new Set<string>();
    let i = 1;
    while (i < w.length) {
      const a = w[i]!;
      if (a === "--") {
        i++;
        break;
      }
      if (name === "env" && (a === "-C" || a === "--chdir")) cwd = resolveFrom(cwd, w[i + 1] ?? ".");
      else if (name === "env" && a.startsWith("--chdir=")) cwd = resolveFrom(cwd, a.slice(8));
      if (name === "env" && ASSIGNMENT.test(a)) {
        assigns.push(a);
        i++;
      } else if (values.has(a)) i += 2;
      else if (a.startsWith("-") && a !== "-") i++;
      else break;
    }
    if (name === "timeout" && i < w.length) i++; // the duration
    w = w.slice(i);
  }
  return { words: w, cwd, assigns };
}

function checkRedirects(s: Scope, cmd: SimpleCommand, cwd: string): Verdict | null {
  for (const r of cmd.redirects) {
    if (!WRITE_REDIRECTS.has(r.op)) continue;
    if ((r.op === ">&" && /^(\d+|-)$/.test(r.target)) || /^[<>]\(/.test(r.target)) continue;
    if (s.policy.product.contains(resolveFrom(cwd, r.target))) {
      return deny(`redirection '${r.op} ${r.target}' writes into the product repo`, "redirection");
    }
    // A target only known at run time, in a command that names the product: assume the worst.
    if (s.mentions && /[$`]/.test(r.target)) return deny(`redirection '${r.op} ${r.target}' is computed at run time in a command naming the product repo`, "redirection");
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
  cwd?: string;
  touched: boolean;
}

function cdRule(s: Scope, args: readonly string[], cwd: string): Outcome {
  const target = args.find((a) => !a.startsWith("-") || a === "-");
  if (target === "-") return { touched: false };
  const next = resolveFrom(cwd, target ?? s.policy.lex.home);
  if (!s.policy.product.contains(next)) return { cwd: next, touched: false };
  if (!s.policy.failClosed) return { verdict: deny("cd into the product repo (legacy mode; read product files by path instead)", "cd_into_product"), touched: true };
  if (!allowlisted(s.policy, ["cd"])) return { verdict: deny("cd into the product repo is not in the fail-closed allowlist", "not_allowlisted"), touched: true };
  return { cwd: next, touched: true };
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

/** The class and reason for a command that is not read-only and touches the product. */
function writeVerdict(s: Scope, name: string, args: readonly string[], opaque: boolean, stdinProgram: boolean): Verdict | null {
  if (args.some((a) => isInPlace(name, a))) return deny(`${name} in-place editing touches the product repo`, "write_capable_arg");
  if (opaque || stdinProgram) return deny(`opaque interpreter '${name}' would run a program against the product repo`, "opaque_interpreter");
  if (EXECUTORS.has(name)) {
    const inner = xargsInner(args);
    const innerName = inner[0] ? basename(inner[0]) : "echo";
    const ok = s.policy.failClosed ? allowlisted(s.policy, [innerName, ...inner.slice(1)]) : READ_ONLY.has(innerName) && !readOnlyArgVerdict(innerName, inner.slice(1)) && innerName !== "env";
    return ok ? null : deny(`${name} runs '${innerName}' on product paths`, "write_capable_arg");
  }
  if (s.policy.failClosed) {
    return allowlisted(s.policy, [name, ...args]) ? null : deny(`'${name}' is not in the fail-closed allowlist and touches the product repo`, "not_allowlisted");
  }
  return deny(`'${name}' is not read-only and touches the product repo`, "write_command");
}

function commandRule(s: Scope, cmd: SimpleCommand, cwdIn: string, pipeTouched: boolean): Outcome {
  const redirect = checkRedirects(s, cmd, cwdIn);
  if (redirect) return { verdict: redirect, touched: true };
  if (cmd.words.length && NOT_COMMANDS.has(cmd.words[0]!)) return { touched: false };
  const { words, cwd, assigns } = unwrap(cmd.words, cwdIn);
  const { product } = s.policy;
  const name = words.length ? basename(words[0]!) : "";
  const args = words.slice(1);
  const declared = DECLARE.has(name) ? args.filter((a) => ASSIGNMENT.test(a)) : [];
  if (!words.length || declared.length) {
    s.envRisk ??= [...assigns, ...declared].map(commandEnv).find((x) => x !== null) ?? undefined;
    return { touched: anyNames(s, cwd, [...assigns, ...declared]) };
  }
  if (name === "alias" || name === "hash" || name === "enable") s.shadow ??= name;
  const blocked = (v: Verdict | null): Outcome => (v ? { verdict: v, touched: true } : { touched: true });
  const envTouch = anyNames(s, cwd, assigns);
  const envRisk = assigns.map(commandEnv).find((x) => x !== null) ?? s.envRisk;
  if (name === "cd" || name === "pushd") return cdRule(s, args, cwd);
  if (name === "git") {
    const g = gitRule(s.policy, args, cwd, (c, a) => anyTouches(s, c, a), s.policy.failClosed ? (w) => allowlisted(s.policy, w) : null);
    if ("block" in g) return { verdict: g, touched: true };
    if ((g.touched || envTouch) && envRisk) return blocked(deny(`${envRisk}=... changes what git runs or where it writes while touching the product repo`, "env_command"));
    return { touched: g.touched || envTouch };
  }
  const inCwd = product.contains(cwd);
  if (READ_ONLY.has(name) && !s.policy.failClosed && !envRisk) {
    const touched = inCwd || anyTouches(s, cwd, args) || envTouch;
    return touched ? blocked(readOnlyArgVerdict(name, args)) : { touched: false };
  }
  const opaque = inlineCode(name, args);
  const stdinProgram = readsStdinProgram(name, args);
  let touched = inCwd || envTouch || anyNames(s, cwd, words);
  if (opaque && s.mentions) touched = true;
  if ((EXECUTORS.has(name) || stdinProgram) && pipeTouched) touched = true;
  // xargs reads its arguments (`< <(echo <P>/f)`, a heredoc): what it runs them with decides.
  if (EXECUTORS.has(name) && s.mentions) touched = true;
  // `bash <<EOF ... EOF` and `cat <<EOF | sh`: the program is a heredoc, which only the raw text can show.
  if (stdinProgram && s.mentions) touched = true;
  // A word only known at run time (`rm "$f"` in a loop over product files) in a command that names the product.
  if (s.mentions && args.some((a) => a.includes("$") || a.includes("`"))) touched = true;
  if (!touched) return { touched: false };
  if (envRisk) return blocked(deny(`${envRisk}=... changes what runs while touching the product repo`, "env_command"));
  if (READ_ONLY.has(name)) return blocked(readOnlyArgVerdict(name, args) ?? writeVerdict(s, name, args, false, false));
  const v = writeVerdict(s, name, args, opaque, stdinProgram);
  return v ? blocked(v) : { touched };
}

type Analysis = Verdict & { touched: boolean };

function analyse(s: Scope, command: string, cwd: string, depth: number, vars: LexEnv["vars"]): Analysis {
  if (depth > MAX_DEPTH) return { ...deny("command nests too deeply to check", "unparseable"), touched: true };
  const scoped = Object.create(vars) as LexEnv["vars"];
  scoped.PWD = cwd;
  const parsed = parseShell(command, { home: s.policy.lex.home, vars: scoped, keep: (v) => s.policy.product.mentionedIn(v) || namesProduct(s, cwd, v) });
  if (parsed.error) {
    if (s.mentions || s.policy.product.contains(cwd)) return { ...deny(`could not parse the command (${parsed.error}) and it concerns the product repo`, "unparseable"), touched: true };
    return { ...allow(false, "unparseable"), touched: false };
  }
  let touched = false;
  for (const [i, inner] of parsed.nested.entries()) {
    const v = analyse(s, inner, cwd, depth + 1, parsed.nestedVars[i] ?? vars);
    if (v.block) return v;
    touched ||= v.touched;
  }
  let cur = cwd;
  for (const pipe of parsed.pipelines) {
    let pipeTouched = false;
    for (const cmd of pipe) {
      const o = commandRule(s, cmd, cur, pipeTouched);
      if (o.verdict) return { ...o.verdict, touched: true };
      pipeTouched ||= o.touched;
      touched ||= o.touched;
      if (o.cwd) cur = o.cwd;
    }
  }
  if (s.envRisk && touched) return { ...deny(`${s.envRisk}=... set earlier changes what runs while touching the product repo`, "env_command"), touched: true };
  if (s.shadow && (touched || s.mentions)) return { ...deny(`'${s.shadow}' can make a read-only command name run something else, and the command touches the product repo`, "shadowing"), touched: true };
  if (parsed.functions.length && (touched || s.mentions)) {
    return { ...deny(`defines shell function '${parsed.functions[0]}', which can shadow a read-only command, and touches the product repo`, "shadowing"), touched: true };
  }
  return { ...allow(touched), touched };
}

export function checkBash(policy: GuardPolicy, command: string, cwd: string): Verdict {
  const r = analyse({ policy, mentions: policy.product.mentionedIn(command) }, command, cwd, 0, policy.lex.vars);
  return { block: r.block, reason: r.reason, commandClass: r.commandClass, targetScope: r.targetScope };
}
