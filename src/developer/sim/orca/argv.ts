/**
 * Argument parsing the way the real Orca CLI does it (docs/orca-cli.md §1): non-`--` tokens form the command path,
 * `--flag value` / `--flag=value`, a flag followed by nothing or another `--x` is boolean, and the known boolean
 * flags never consume a value. Unknown commands and flags are refused before any state is touched.
 */
import { invalidArgument, SimError } from "./errors.ts";

export type Flags = Map<string, string | true>;

export interface ParsedArgs {
  path: string[];
  flags: Flags;
}

const GLOBAL_FLAGS = ["help", "json", "pairing-code", "environment"];

const BOOLEAN_FLAGS = new Set(["all", "current", "dry-run", "enter", "focus", "force", "full", "help", "inject", "interrupt", "json", "messages", "ready", "return-preamble", "run-hooks", "tab", "tasks", "unread", "wait"]);

export function parseOrcaArgv(argv: readonly string[]): ParsedArgs {
  const path: string[] = [];
  const flags: Flags = new Map();
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (!tok.startsWith("--")) {
      path.push(tok);
      continue;
    }
    const body = tok.slice(2);
    const eq = body.indexOf("=");
    if (eq >= 0) {
      flags.set(body.slice(0, eq), body.slice(eq + 1));
      continue;
    }
    const next = argv[i + 1];
    if (BOOLEAN_FLAGS.has(body) || next === undefined || next.startsWith("--")) {
      flags.set(body, true);
      continue;
    }
    flags.set(body, next);
    i++;
  }
  return { path, flags };
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Near misses within edit distance 3, closest first, at most 3 (the real CLI's recovery hints). */
function nearest(input: string, candidates: readonly string[]): string[] {
  return candidates
    .map((label) => ({ label, d: levenshtein(input, label) }))
    .filter((x) => x.d > 0 && x.d <= 3)
    .sort((a, b) => a.d - b.d || a.label.localeCompare(b.label))
    .slice(0, 3)
    .map((x) => x.label);
}

export function unknownCommand(path: string[], known: readonly string[]): SimError {
  const input = path.join(" ");
  const sameDepth = [...new Set(known.map((k) => k.split(" ").slice(0, path.length).join(" ")))];
  const suggestions = nearest(
    input,
    sameDepth.filter((k) => k.split(" ").length === path.length),
  );
  const nextSteps = suggestions.length ? [`Did you mean: ${suggestions.map((s) => `orca ${s}`).join(", ")}`] : [];
  return invalidArgument(`Unknown command: ${input}`, { suggestions, nextSteps });
}

/** Refuse flags the command does not accept; `validFlags` includes the global ones, sorted. */
export function checkFlags(path: string, flags: Flags, allowed: readonly string[]): void {
  const valid = [...new Set([...GLOBAL_FLAGS, ...allowed])].sort((a, b) => a.localeCompare(b));
  for (const [name, value] of flags) {
    if ((name === "pairing-code" || name === "environment") && (value === true || value === "")) {
      throw invalidArgument(`Flag --${name} requires a value.`);
    }
    if (valid.includes(name)) continue;
    const suggestions = nearest(name, valid);
    const nextSteps = suggestions.length ? [`Did you mean: ${suggestions.map((s) => `--${s}`).join(", ")}`] : [];
    nextSteps.push(`Valid flags: ${valid.map((s) => `--${s}`).join(", ")}`);
    throw invalidArgument(`Unknown flag --${name} for command: ${path}`, { validFlags: valid, suggestions, nextSteps });
  }
}

export function optString(flags: Flags, name: string): string | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  if (v === true || v === "") throw invalidArgument(`Flag --${name} requires a value.`);
  return v;
}

export function reqString(flags: Flags, name: string): string {
  const v = optString(flags, name);
  if (v === undefined) throw invalidArgument(`Missing required --${name}`);
  return v;
}

export function optBool(flags: Flags, name: string): boolean {
  const v = flags.get(name);
  return v !== undefined && v !== "false";
}

/** Non-negative integers only (`--limit`, `--timeout-ms`, `--cursor`). */
export function optInt(flags: Flags, name: string, code = "invalid_argument"): number | undefined {
  const v = optString(flags, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new SimError(code, `--${name} must be a non-negative integer (got '${v}')`, undefined, true);
  return Number(v);
}
