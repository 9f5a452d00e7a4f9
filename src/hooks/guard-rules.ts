/**
 * product-path-guard's Bash rules (reference §28.5). A command "touches" the product repo when it runs there
 * (its working directory is inside) or names a path inside it; touching is fine for read-only commands and
 * BLOCKED for everything else: redirections into the product, write-capable arguments of otherwise read-only
 * tools (`find -exec`, `xargs`, `sed -i`, `--in-place`, ...), opaque interpreters (`bash -c`, `python -c`, ...),
 * git mutations, `--git-dir` without `--work-tree`, and (legacy mode) `cd` into the product. With
 * MOGUI_PRODUCT_GUARD_FAIL_CLOSED=1 the read-only set is replaced by the allowlist file.
 */
import { basename } from "node:path";
import { ProductRoots, resolveFrom } from "./guard-paths.ts";
import { parseShell, type LexEnv, type SimpleCommand } from "./shell-lex.ts";

export interface GuardPolicy {
  product: ProductRoots;
  failClosed: boolean;
  /** Fail-closed mode: command prefixes (token lists) that may touch the product. */
  allowlist: string[][];
  lex: LexEnv;
}

export interface Verdict {
  block: boolean;
  reason: string;
  commandClass: string;
  targetScope: "product" | "outside";
}

const READ_ONLY = new Set(["pwd", "ls", "ll", "cat", "head", "tail", "grep", "rg", "find", "stat", "file", "whoami", "env", "true", "false", "test", "[", "printf", "echo", ":", "wc", "realpath", "readlink", "basename", "dirname", "which"]);
const GIT_READ_ONLY = new Set(["status", "log", "diff", "show", "rev-parse", "ls-files", "describe", "for-each-ref", "remote"]);
const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh"]);
const INTERPRETERS = new Set(["python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "osascript", "lua", "Rscript", "pwsh"]);
const INLINE_FLAGS = new Set(["-c", "-e", "-E", "-r", "--eval", "-p", "--print", "--command"]);
const EXECUTORS = new Set(["xargs", "parallel"]);
const FIND_WRITES = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);
const IN_PLACE = new Set(["sed", "gsed", "perl", "ruby"]);
const SKIP_WORDS = new Set(["!", "if", "then", "elif", "else", "do", "while", "until", "{", "}", "time"]);
const NOT_COMMANDS = new Set(["for", "case", "select", "function", "done", "fi", "esac", "in"]);
/** Copy-like commands only write their destination: reading a product file into the ops repo is fine. */
const COPY_LIKE = new Set(["cp", "rsync", "scp", "install", "ln"]);
const MAX_DEPTH = 12;

function writtenArgs(name: string, args: readonly string[]): readonly string[] {
  if (!COPY_LIKE.has(name)) return args;
  const t = args.findIndex((a) => a === "-t" || a === "--target-directory");
  if (t >= 0) return args.slice(t + 1, t + 2);
  const long = args.find((a) => a.startsWith("--target-directory="));
  if (long) return [long];
  const positional = args.filter((a) => !a.startsWith("-"));
  return positional.length ? [positional[positional.length - 1]!] : [];
}

const allow = (touched: boolean, commandClass = touched ? "read_only" : "outside_product"): Verdict => ({
  block: false,
  reason: touched ? "read-only access to the product repo" : "does not touch the product repo",
  commandClass,
  targetScope: touched ? "product" : "outside",
});
const deny = (reason: string, commandClass: string): Verdict => ({ block: true, reason, commandClass, targetScope: "product" });

interface Scope {
  policy: GuardPolicy;
  /** The whole top-level command mentions the product root (catches `$var` targets in loops). */
  mentions: boolean;
}

function argTouches(s: Scope, cwd: string, arg: string): boolean {
  // A bare flag (-la, --short, -20) names no path; skipping it saves syscalls on every tool call.
  if (arg === "" || (arg.charCodeAt(0) === 45 && !arg.includes("/") && !arg.includes("=") && !arg.includes("~"))) return false;
  const { product } = s.policy;
  if (product.contains(resolveFrom(cwd, arg))) return true;
  const eq = arg.indexOf("=");
  if (eq > 0 && arg.length > eq + 1 && product.contains(resolveFrom(cwd, arg.slice(eq + 1)))) return true;
  return arg.charCodeAt(0) === 45 && /^-[A-Za-z][/~.]/.test(arg) && product.contains(resolveFrom(cwd, arg.slice(2)));
}

/** Does any of args touch the product? (A loop, not Array.prototype.some: see ProductRoots.lexicallyInside.) */
function anyTouches(s: Scope, cwd: string, args: readonly string[]): boolean {
  for (const a of args) if (argTouches(s, cwd, a)) return true;
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
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "time", "exec", "command", "builtin", "nice", "ionice", "stdbuf", "timeout", "chronic", "caffeinate"]);

/** Strip assignments, shell keywords and wrappers (`sudo`, `env -C dir`, `timeout 5`, ...) down to the command run. */
function unwrap(words: string[], cwd: string): { words: string[]; cwd: string; wrapper?: string } {
  let w = words;
  let wrapper: string | undefined;
  for (let guard = 0; guard < 16 && w.length; guard++) {
    const head = w[0]!;
    if (SKIP_WORDS.has(head) || (head.includes("=") && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(head))) {
      w = w.slice(1);
      continue;
    }
    const name = basename(head);
    if (!WRAPPERS.has(name)) break;
    if (name === "command" && (w[1] === "-v" || w[1] === "-V")) return { words: [], cwd };
    wrapper ??= name;
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
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) i++;
      else if (values.has(a)) i += 2;
      else if (a.startsWith("-") && a !== "-") i++;
      else break;
    }
    if (name === "timeout" && i < w.length) i++; // the duration
    w = w.slice(i);
  }
  return { words: w, cwd, wrapper };
}

function checkRedirects(s: Scope, cmd: SimpleCommand, cwd: string): Verdict | null {
  for (const r of cmd.redirects) {
    if (!WRITE_REDIRECTS.has(r.op)) continue;
    if ((r.op === ">&" && /^(\d+|-)$/.test(r.target)) || /^[<>]\(/.test(r.target)) continue;
    if (s.policy.product.contains(resolveFrom(cwd, r.target))) {
      return deny(`redirection '${r.op} ${r.target}' writes into the product repo`, "redirection");
    }
  }
  return null;
}

function inlineCode(name: string, args: readonly string[]): boolean {
  if (name === "eval") return true;
  if (SHELLS.has(name)) return args.some((a) => a === "-c" || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
  if (INTERPRETERS.has(name)) return args.some((a) => INLINE_FLAGS.has(a) || /^-[a-zA-Z]*e$/.test(a));
  return false;
}

/** A shell or interpreter with no script argument reads its program from stdin (`... | sh`). */
function readsStdinProgram(name: string, args: readonly string[]): boolean {
  return (SHELLS.has(name) || INTERPRETERS.has(name)) && args.every((a) => a.startsWith("-"));
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

function gitRule(s: Scope, args: readonly string[], cwd: string): Verdict | { touched: boolean } {
  const { product } = s.policy;
  let gcwd = cwd;
  let gitDir: string | undefined;
  let workTree: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-C") gcwd = resolveFrom(gcwd, args[++i] ?? ".");
    else if (a === "--git-dir" || a === "--work-tree") {
      const v = resolveFrom(gcwd, args[++i] ?? ".");
      if (a === "--git-dir") gitDir = v;
      else workTree = v;
    } else if (a.startsWith("--git-dir=")) gitDir = resolveFrom(gcwd, a.slice(10));
    else if (a.startsWith("--work-tree=")) workTree = resolveFrom(gcwd, a.slice(12));
    else if (a === "-c" || a === "--namespace" || a === "--exec-path" || a === "--config-env") i++;
    else if (!a.startsWith("-")) break;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (gitDir && product.contains(gitDir) && !workTree) {
    return deny("git --git-dir into the product repo without --work-tree (the working tree would be the current directory)", "git_dir_without_work_tree");
  }
  const touched =
    product.contains(gcwd) || Boolean(gitDir && product.contains(gitDir)) || Boolean(workTree && product.contains(workTree)) || anyTouches(s, gcwd, rest);
  if (!touched || sub === undefined) return { touched };
  if (s.policy.failClosed) {
    return allowlisted(s.policy, ["git", sub, ...rest]) ? { touched } : deny(`git ${sub} is not in the fail-closed allowlist and touches the product repo`, "not_allowlisted");
  }
  if (!GIT_READ_ONLY.has(sub)) return deny(`git ${sub} mutates the product repo`, "git_mutation");
  const verb = rest.find((a) => !a.startsWith("-"));
  if (sub === "remote" && verb !== undefined && verb !== "show" && verb !== "get-url") {
    return deny(`git remote ${verb} changes the product repo's remotes`, "git_mutation");
  }
  if (rest.some((a) => a === "--output" || a.startsWith("--output=") || a === "-o")) {
    return deny(`git ${sub} --output writes a file from the product repo`, "git_mutation");
  }
  return { touched };
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

function commandRule(s: Scope, cmd: SimpleCommand, cwdIn: string, pipeTouched: boolean): Outcome {
  const redirect = checkRedirects(s, cmd, cwdIn);
  if (redirect) return { verdict: redirect, touched: true };
  if (cmd.words.length && NOT_COMMANDS.has(cmd.words[0]!)) return { touched: false };
  const { words, cwd } = unwrap(cmd.words, cwdIn);
  if (!words.length) return { touched: false };
  const name = basename(words[0]!);
  const args = words.slice(1);
  const { product, failClosed } = s.policy;
  if (name === "cd" || name === "pushd") return cdRule(s, args, cwd);
  if (name === "git") {
    const g = gitRule(s, args, cwd);
    return "block" in g ? { verdict: g, touched: true } : { touched: g.touched };
  }
  const opaque = inlineCode(name, args);
  const stdinProgram = readsStdinProgram(name, args);
  let touched = product.contains(cwd) || anyTouches(s, cwd, writtenArgs(name, args));
  if (opaque && (product.mentionedIn(args.join(" ")) || s.mentions)) touched = true;
  if ((EXECUTORS.has(name) || stdinProgram) && pipeTouched) touched = true;
  // `bash <<EOF ... EOF` and `cat <<EOF | sh`: the program is a heredoc, which only the raw text can show.
  if (stdinProgram && s.mentions) touched = true;
  if (!touched && s.mentions && args.some((a) => a.includes("$"))) touched = !READ_ONLY.has(name);
  if (!touched) return { touched: false };
  const blocked = (reason: string, cls: string): Outcome => ({ verdict: deny(reason, cls), touched: true });
  if (args.some((a) => isInPlace(name, a))) return blocked(`${name} in-place editing touches the product repo`, "write_capable_arg");
  if (name === "find") {
    const w = args.find((a) => FIND_WRITES.has(a));
    if (w) return blocked(`find ${w} can write or run commands in the product repo`, "write_capable_arg");
  }
  if (name === "rg" && args.some((a) => a === "--pre" || a.startsWith("--pre="))) return blocked("rg --pre runs a command on product files", "write_capable_arg");
  if (opaque || stdinProgram) return blocked(`opaque interpreter '${name}${opaque && name !== "eval" ? " -c/-e" : ""}' would run code against the product repo`, "opaque_interpreter");
  if (EXECUTORS.has(name)) {
    const inner = xargsInner(args);
    const innerName = inner[0] ? basename(inner[0]) : "echo";
    const ok = failClosed ? allowlisted(s.policy, [innerName, ...inner.slice(1)]) : READ_ONLY.has(innerName) && innerName !== "find";
    return ok ? { touched } : blocked(`${name} runs '${innerName}' on product paths`, "write_capable_arg");
  }
  if (failClosed) {
    return allowlisted(s.policy, [name, ...args]) ? { touched } : blocked(`'${name}' is not in the fail-closed allowlist and touches the product repo`, "not_allowlisted");
  }
  return READ_ONLY.has(name) ? { touched } : blocked(`'${name}' is not read-only and touches the product repo`, "write_command");
}

function analyse(s: Scope, command: string, cwd: string, depth: number): Verdict & { touched: boolean } {
  if (depth > MAX_DEPTH) return { ...deny("command nests too deeply to check", "unparseable"), touched: true };
  const vars = Object.create(s.policy.lex.vars) as LexEnv["vars"];
  vars.PWD = cwd;
  const parsed = parseShell(command, { home: s.policy.lex.home, vars });
  if (parsed.error) {
    if (s.mentions || s.policy.product.contains(cwd)) return { ...deny(`could not parse the command (${parsed.error}) and it concerns the product repo`, "unparseable"), touched: true };
    return { ...allow(false, "unparseable"), touched: false };
  }
  let touched = false;
  for (const inner of parsed.nested) {
    const v = analyse(s, inner, cwd, depth + 1);
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
  return { ...allow(touched), touched };
}

export function checkBash(policy: GuardPolicy, command: string, cwd: string): Verdict {
  const r = analyse({ policy, mentions: policy.product.mentionedIn(command) }, command, cwd, 0);
  return { block: r.block, reason: r.reason, commandClass: r.commandClass, targetScope: r.targetScope };
}
