/**
 * The command tree as main sees it: injected from commands/index.ts (src/ never imports commands/). Rows are keyed
 * by the command path typed after `mogui`; a group is the first word of multi-word paths, optionally with its own
 * row that loads a `defineGroup` (lazy subCommands) module.
 */
import type { AnyCommand } from "./command.ts";

export interface RegistryEntry {
  summary: string;
  group: string;
  hidden?: boolean;
  load: () => Promise<{ default: AnyCommand }>;
}

export interface Registry {
  commands: Record<string, RegistryEntry>;
}

/** The subcommand names of a group, in registry order. */
export function subcommandsOf(reg: Registry, group: string): string[] {
  const out: string[] = [];
  for (const k of Object.keys(reg.commands)) {
    if (!k.startsWith(`${group} `)) continue;
    const sub = k.slice(group.length + 1).split(" ")[0]!;
    if (!out.includes(sub)) out.push(sub);
  }
  return out;
}

export function isGroup(reg: Registry, path: string): boolean {
  return subcommandsOf(reg, path).length > 0;
}

/** Levenshtein distance, for "did you mean". */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest candidate within a third of the word's length (at least 1, at most 3 edits), or none. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: [string, number] | undefined;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d <= limit && (!best || d < best[1])) best = [c, d];
  }
  return best?.[0];
}

export function didYouMean(word: string, candidates: readonly string[]): string {
  const s = suggest(word, candidates);
  return s ? ` (did you mean '${s}'?)` : "";
}
