/**
 * `mogui hook install --host claude`: merge mogui's hook wiring into a Claude Code settings JSON. Other keys and
 * other hooks are kept exactly; a mogui hook that is already wired is left alone (or its command updated in
 * place when the binary moved), so running it twice changes nothing.
 */
import { shellWord, SettingsError } from "../../lib/claude-settings.ts";

export { readSettings, SettingsError, shellWord, writeSettings } from "../../lib/claude-settings.ts";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export interface Wiring {
  event: string;
  matcher?: string;
  hook: string;
}

/** Which hook runs on which host event (reference §28.5). */
const CLAUDE_WIRING: readonly Wiring[] = [
  { event: "PreToolUse", matcher: "Edit|Write|MultiEdit|NotebookEdit|Bash", hook: "product-path-guard" },
  { event: "PreToolUse", matcher: "Bash", hook: "bash-poll-warn" },
  { event: "PreToolUse", matcher: "Bash", hook: "bash-output-trim-warn" },
  { event: "UserPromptSubmit", hook: "role-state-inject" },
  { event: "UserPromptSubmit", hook: "orch-inbox-warn" },
  { event: "SessionStart", hook: "role-state-inject" },
  { event: "SessionStart", hook: "tracker-check" },
  { event: "SessionStart", matcher: "compact", hook: "compaction-probe" },
];

type Change = "added" | "updated" | "unchanged";

export interface InstallResult {
  settings: Record<string, unknown>;
  changes: { event: string; hook: string; change: Change }[];
}

function hookCommand(prefix: readonly string[], hook: string): string {
  return [...prefix.map(shellWord), "hook", hook].join(" ");
}

const MOGUI_HOOK = (hook: string) => new RegExp(`(^|[\\s/])(mogui|[^\\s]*mogui[^\\s]*)\\s+hook\\s+${hook}(\\s|$)`);

function wire(hooks: Json, w: Wiring, command: string): Change {
  const list = (hooks[w.event] ??= []) as unknown[];
  if (!Array.isArray(list)) throw new SettingsError(`hooks.${w.event} is not an array`);
  for (const group of list) {
    if (!isObj(group) || !Array.isArray(group.hooks)) continue;
    if ((group.matcher ?? undefined) !== w.matcher) continue;
    for (const h of group.hooks) {
      if (!isObj(h) || typeof h.command !== "string" || !MOGUI_HOOK(w.hook).test(h.command)) continue;
      if (h.command === command) return "unchanged";
      h.command = command;
      return "updated";
    }
  }
  const entry = { type: "command", command };
  const same = list.find((g) => isObj(g) && Array.isArray(g.hooks) && (g.matcher ?? undefined) === w.matcher) as Json | undefined;
  if (same) (same.hooks as unknown[]).push(entry);
  else list.push({ ...(w.matcher !== undefined ? { matcher: w.matcher } : {}), hooks: [entry] });
  return "added";
}

export function mergeWiring(existing: Json, prefix: readonly string[], wiring: readonly Wiring[] = CLAUDE_WIRING): InstallResult {
  const settings = structuredClone(existing);
  const hooks = (settings.hooks ??= {});
  if (!isObj(hooks)) throw new SettingsError("'hooks' in the settings file is not an object");
  const changes = wiring.map((w) => ({ event: w.event, hook: w.hook, change: wire(hooks, w, hookCommand(prefix, w.hook)) }));
  return { settings, changes };
}
