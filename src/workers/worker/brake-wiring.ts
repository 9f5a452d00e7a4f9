/**
 * Wiring the spend brake into a worker's session (D44): `worker spawn` and `mogui dispatch` merge one PreToolUse
 * hook, `mogui hook spend-brake --job <id> --max-tokens <N>`, into the worktree's `.claude/settings.local.json`
 * (the local, untracked settings file: never the tracked `.claude/settings.json` a worker could commit) before the
 * agent starts, since Claude Code reads its hooks at session start. Other keys and other hooks are kept exactly; an
 * existing spend-brake hook is updated in place, so wiring twice changes nothing.
 *
 * The file is kept out of the worker's commits: `/.claude/settings.local.json` is added to the repository's
 * `info/exclude` (as Claude Code itself keeps that file out of git), so a worker's `git add -A` never stages it.
 * `isBrakeOnlySettings` tells reap that a settings file holding nothing but this wiring is mogui's own, regenerable.
 *
 * The cap: `--max-tokens` of the command, else the tier policy's `job_token_caps` for the model's tier, else none
 * (nothing is wired).
 */
import { createHash } from "node:crypto";
import { appendFileSync, lstatSync, mkdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readSettings, SettingsError, shellWord, writeSettings } from "../../lib/claude-settings.ts";
import { tierOf, type TierPolicy } from "../../lib/config/tier-policy.ts";

export const BRAKE_SETTINGS = join(".claude", "settings.local.json");
const BRAKE_HOOK = /(^|\s)hook\s+spend-brake(\s|$)/;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export interface BrakeCap {
  max_tokens: number;
  /** Where the cap came from. */
  source: "flag" | "policy";
  tier?: string;
}

/** `--max-tokens` wins; else the policy's per-job cap for the model's tier; else null (no brake). */
export function jobCap(flag: number | undefined, policy: TierPolicy | null, model: string): BrakeCap | null {
  if (flag !== undefined) return { max_tokens: flag, source: "flag" };
  if (!policy) return null;
  const tier = tierOf(policy, model);
  const cap = policy.jobTokenCaps.get(tier);
  return cap === undefined ? null : { max_tokens: cap, source: "policy", tier };
}

export function brakeCommand(self: readonly string[], job: string, maxTokens: number): string {
  return [...self, "hook", "spend-brake", "--job", job, "--max-tokens", String(maxTokens)].map(shellWord).join(" ");
}

export interface Wired {
  settings: string;
  command: string;
  change: "added" | "updated" | "unchanged";
  /** sha256 of the settings file as written (what reap may compare it with). */
  sha256: string;
  /** The file was added to the repository's info/exclude (false: it could not be; a worker's `git add -A` may stage it). */
  excluded: boolean;
}

/** Merge the brake hook into `<worktree>/.claude/settings.local.json`. Refuses a symlinked `.claude` or file. */
export function wireSpendBrake(worktree: string, self: readonly string[], job: string, maxTokens: number): Wired {
  const dir = join(worktree, ".claude");
  try {
    if (lstatSync(dir).isSymbolicLink()) throw new SettingsError(`${dir} is a symlink; refusing to write through it`);
  } catch (e) {
    if (e instanceof SettingsError) throw e;
    // absent: writeSettings creates it
  }
  const path = join(worktree, BRAKE_SETTINGS);
  const settings = readSettings(path);
  const command = brakeCommand(self, job, maxTokens);
  const hooks = (settings.hooks ??= {});
  if (!isObj(hooks)) throw new SettingsError(`'hooks' in ${path} is not an object`);
  const list = (hooks.PreToolUse ??= []);
  if (!Array.isArray(list)) throw new SettingsError(`hooks.PreToolUse in ${path} is not an array`);
  let change: Wired["change"] = "added";
  found: for (const group of list) {
    if (!isObj(group) || !Array.isArray(group.hooks)) continue;
    for (const h of group.hooks) {
      if (!isObj(h) || typeof h.command !== "string" || !BRAKE_HOOK.test(h.command)) continue;
      change = h.command === command ? "unchanged" : "updated";
      h.command = command;
      break found;
    }
  }
  // No matcher: the brake sees every tool call, whatever the tool.
  if (change === "added") list.push({ hooks: [{ type: "command", command }] });
  if (change !== "unchanged") writeSettings(path, settings);
  return { settings: path, command, change, sha256: createHash("sha256").update(readFileSync(path)).digest("hex"), excluded: excludeFromGit(worktree) };
}

/** The repository's common git dir from a worktree's `.git` (a file `gitdir: X` in a linked worktree), or null. */
function commonGitDir(worktree: string): string | null {
  const dotGit = join(worktree, ".git");
  try {
    if (lstatSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
    if (!m) return null;
    const gitdir = isAbsolute(m[1]!) ? m[1]! : resolve(worktree, m[1]!);
    try {
      const c = readFileSync(join(gitdir, "commondir"), "utf8").trim();
      return isAbsolute(c) ? c : resolve(gitdir, c);
    } catch {
      return gitdir;
    }
  } catch {
    return null;
  }
}

const EXCLUDE_LINE = "/.claude/settings.local.json";

/** Add the settings file to `info/exclude` once; false when it could not be (then the caller says so). */
function excludeFromGit(worktree: string): boolean {
  const common = commonGitDir(worktree);
  if (!common) return false;
  const file = join(common, "info", "exclude");
  try {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // no exclude file yet
    }
    if (text.split("\n").some((l) => l.trim() === EXCLUDE_LINE)) return true;
    mkdirSync(join(common, "info"), { recursive: true });
    appendFileSync(file, `${text === "" || text.endsWith("\n") ? "" : "\n"}# mogui spend brake (worker settings, never committed)\n${EXCLUDE_LINE}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A settings file that holds nothing but the spend-brake wiring (what `wireSpendBrake` writes into a worktree that
 * had none): mogui's own and regenerable, so it is no reason to keep a worktree.
 */
export function isBrakeOnlySettings(text: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObj(v) || Object.keys(v).length !== 1 || !isObj(v.hooks) || Object.keys(v.hooks).length !== 1) return false;
  const list = v.hooks.PreToolUse;
  if (!Array.isArray(list) || list.length !== 1) return false;
  const g = list[0];
  if (!isObj(g) || Object.keys(g).length !== 1 || !Array.isArray(g.hooks) || g.hooks.length !== 1) return false;
  const h = g.hooks[0];
  return isObj(h) && Object.keys(h).length === 2 && h.type === "command" && typeof h.command === "string" && BRAKE_HOOK.test(h.command);
}
