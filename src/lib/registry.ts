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

/** Edit distance for "did you mean": insertions, deletions, substitutions and swaps of two neighbours (`lsit`). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
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
