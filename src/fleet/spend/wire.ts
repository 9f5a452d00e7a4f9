/**
 * Wiring the spend brake into a worker's session (D44): `worker spawn` and `mogui dispatch` merge one PreToolUse
 * hook, `mogui hook spend-brake --job <id> --max-tokens <N>`, into the worktree's `.claude/settings.local.json`
 * (the local, untracked settings file: never the tracked `.claude/settings.json` a worker could commit) before the
 * agent starts, since Claude Code reads its hooks at session start. Other keys and other hooks are kept exactly; an
 * existing spend-brake hook is updated in place, so wiring twice changes nothing.
 *
 * The cap: `--max-tokens` of the command, else the tier policy's `job_token_caps` for the model's tier, else none
 * (nothing is wired).
 */
import { createHash } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readSettings, SettingsError, shellWord, writeSettings } from "../../hooks/session/install.ts";
import { tierOf, type TierPolicy } from "../../dispatch/gate/tier-policy.ts";

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
  return { settings: path, command, change, sha256: createHash("sha256").update(readFileSync(path)).digest("hex") };
}
