/**
 * product-path-guard's git rule (reference §28.5, DECISIONS D32): git touching the product repo (run there with
 * `-C`, `--git-dir`, `--work-tree`, or naming a path inside it) may only read. Read-only means a read-only
 * subcommand (list-only forms of `branch`, `tag`, `stash`, `worktree`, `config`, `remote`), no `--output`, and no
 * `-c`/`--config-env` setting that runs a command (pager, editor, external diff, ssh, hooks, aliases ...).
 */
import { deny, type GuardPolicy, type Verdict } from "./guard-verdict.ts";
import { resolveFrom } from "./guard-paths.ts";

const GIT_READ_ONLY = new Set([
  "status",
  "log",
  "diff",
  "show",
  "rev-parse",
  "ls-files",
  "describe",
  "for-each-ref",
  "remote",
  "blame",
  "grep",
  "ls-tree",
  "cat-file",
  "rev-list",
  "shortlog",
  "show-ref",
  "merge-base",
  "name-rev",
  "check-ignore",
  "check-attr",
  "branch",
  "tag",
  "stash",
  "worktree",
  "config",
  "whatchanged",
  "count-objects",
  "annotate",
  "ls-remote",
  "var",
  "version",
  "help",
]);
/** Config keys whose value is a command (or a path git executes or writes through). */
const COMMAND_KEY = /pager|editor|command|program|external|helper|hook|fsmonitor|alias|textconv|filter|askpass|proxy|exec|cmd|tool|driver|path|file|dir|worktree|sshcommand|gpg|credential/i;

/** A pager that only shows text (`cat`, `less -R`): setting it runs nothing new. */
export const BENIGN_PAGER = /^\s*(cat|less|more|head|tail)?(\s+-[A-Za-z]+)*\s*$/;

function riskySetting(kv: string): boolean {
  if (kv.startsWith("config-env:")) return true;
  const eq = kv.indexOf("=");
  const key = eq < 0 ? kv : kv.slice(0, eq);
  const value = eq < 0 ? "true" : kv.slice(eq + 1);
  if (/pager/i.test(key) && BENIGN_PAGER.test(value)) return false;
  // A boolean names no program (`commit.gpgSign=false`, `core.fsmonitor=false`).
  if (/^(true|false|yes|no|on|off|0|1)$/i.test(value.trim())) return false;
  return COMMAND_KEY.test(key);
}

/** Options that make git run a command wherever it runs (`ls-remote --upload-pack='touch ...'`). */
const RUNS_COMMAND = /^--(upload-pack|receive-pack|exec)(=|$)/;

export interface GitFacts {
  touched: boolean;
  sub?: string;
  /** The directory git works in (after -C). */
  gcwd?: string;
}

export type TouchTest = (cwd: string, args: readonly string[]) => boolean;

/** `branch`, `tag`, `stash`, `worktree`, `config`: only their listing forms read. */
/** Options of `git branch` / `git tag` that only list (with `=value` forms); anything else may write. */
const BRANCH_LIST_OPTS =
  /^(--list|-l|-a|--all|-r|--remotes|-v|-vv|--verbose|--contains|--no-contains|--merged|--no-merged|--points-at|--sort|--format|--color|--no-color|--column|--no-column|--show-current|-i|--ignore-case|--abbrev|--no-abbrev|-q|--quiet|--omit-empty)(=.*)?$/;
const TAG_LIST_OPTS = /^(--list|-l|-n\d*|--contains|--no-contains|--merged|--no-merged|--points-at|--sort|--format|--color|--no-color|--column|--no-column|-i|--ignore-case|-v|--verify|--omit-empty)(=.*)?$/;

function listOnly(sub: string, rest: readonly string[]): boolean {
  const pos = rest.filter((a) => !a.startsWith("-"));
  const has = (...flags: string[]) => rest.some((a) => flags.includes(a) || flags.some((f) => f.startsWith("--") && a.startsWith(`${f}=`)));
  switch (sub) {
    case "branch":
      if (rest.some((a) => a.startsWith("-") && !BRANCH_LIST_OPTS.test(a))) return false;
      return pos.length === 0 || has("--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at");
    case "tag":
      if (rest.some((a) => a.startsWith("-") && !TAG_LIST_OPTS.test(a))) return false;
      return pos.length === 0 || has("--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "-v", "--verify");
    case "stash":
      return pos[0] === "list" || pos[0] === "show";
    case "worktree":
      return pos[0] === "list";
    case "config":
      if (has("--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "--edit", "-e")) return false;
      return has("--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch", "--show-origin") || pos[0] === "get" || pos[0] === "list";
    case "remote":
      return pos.length === 0 || pos[0] === "show" || pos[0] === "get-url";
    default:
      return true;
  }
}

function readOnlyVerdict(sub: string, rest: readonly string[]): Verdict | null {
  if (!GIT_READ_ONLY.has(sub)) return deny(`git ${sub} mutates the product repo`, "git_mutation");
  if (!listOnly(sub, rest)) {
    const verb = rest.find((a) => !a.startsWith("-")) ?? rest[0] ?? "";
    return deny(`git ${sub} ${verb} changes the product repo${sub === "remote" ? "'s remotes" : ""}`.replace(/ {2,}/g, " "), "git_mutation");
  }
  if (rest.some((a) => a === "--output" || a.startsWith("--output=") || a === "-o")) return deny(`git ${sub} --output writes a file from the product repo`, "git_mutation");
  if (sub === "grep" && rest.some((a) => a === "-O" || a.startsWith("-O") || a.startsWith("--open-files-in-pager"))) return deny("git grep -O runs a command on product files", "git_mutation");
  return null;
}

/**
 * The git verdict: a block, or how it touched the product. `touches` is the guard's path test; `allowlisted` the
 * fail-closed allowlist check (null outside that mode).
 */
export function gitRule(policy: GuardPolicy, args: readonly string[], cwd: string, touches: TouchTest, allowlisted: ((w: string[]) => boolean) | null): Verdict | GitFacts {
  const { product } = policy;
  let gcwd = cwd;
  let gitDir: string | undefined;
  let workTree: string | undefined;
  const settings: string[] = [];
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
    else if (a === "-c" || a === "--config-env") settings.push(`${a === "-c" ? "" : "config-env:"}${args[++i] ?? ""}`);
    else if (a.startsWith("--config-env=")) settings.push(`config-env:${a.slice(13)}`);
    else if (a === "--namespace") i++;
    else if (a === "--exec-path" || a.startsWith("--exec-path=")) return deny("git --exec-path makes git run programs from another directory", "git_mutation");
    else if (!a.startsWith("-")) break;
  }
  // Values this reader cannot place (`-C $X`, `-C /tmp/*`): git may be working in the product.
  let unsure = false;
  for (let k = 0; k < i; k++) if (/[$`*?[]/.test(args[k]!)) unsure = true;
  const sub = args[i];
  const rest = args.slice(i + 1);
  const runs = rest.find((a) => RUNS_COMMAND.test(a)) ?? (sub === "ls-remote" || sub === "fetch" || sub === "clone" || sub === "pull" || sub === "archive" ? rest.find((a) => a === "-u" || /^-u./.test(a)) : undefined);
  if (runs !== undefined) return deny(`git ${sub} ${runs.split("=")[0]} runs a command of its own`, "git_mutation");
  const risky0 = settings.find(riskySetting);
  if (risky0 !== undefined) return deny(`git -c ${risky0.split("=")[0]} can run a command`, "git_mutation");
  if (gitDir && product.contains(gitDir) && !workTree) {
    return deny("git --git-dir into the product repo without --work-tree (the working tree would be the current directory)", "git_dir_without_work_tree");
  }
  const touched = unsure || product.contains(gcwd) || Boolean(gitDir && product.contains(gitDir)) || Boolean(workTree && product.contains(workTree)) || touches(gcwd, rest) || settings.some((kv) => product.mentionedIn(kv));
  if (!touched || sub === undefined) return { touched, sub, gcwd: workTree ?? gcwd };
  if (allowlisted) {
    return allowlisted(["git", sub, ...rest]) ? { touched, sub, gcwd } : deny(`git ${sub} is not in the fail-closed allowlist and touches the product repo`, "not_allowlisted");
  }
  return readOnlyVerdict(sub, rest) ?? { touched, sub, gcwd };
}
