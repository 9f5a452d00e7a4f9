/** Output conventions: data on stdout (one JSON document with --json), everything else on stderr. */
import type { Ctx } from "./context.ts";
import { useColor } from "./context.ts";

/**
 * THE data-document rule: keys sorted at every level; with --json one compact document on stdout, without it the
 * same document indented. Every command prints its document through this.
 */
export function printDoc(ctx: Ctx, value: unknown, json: boolean): void {
  printJson(ctx, sortKeys(value), json);
}

/** Key order as given (kept only for outputs pinned to the Python reference's order). Prefer printDoc. */
export function printJson(ctx: Ctx, value: unknown, compact: boolean): void {
  ctx.io.stdout(`${compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`);
}

export function printLines(ctx: Ctx, lines: readonly string[]): void {
  if (lines.length) ctx.io.stdout(`${lines.join("\n")}\n`);
}

/** JSON with keys sorted at every level and no spaces: the ledger row format (Python's sort_keys + compact). */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

const codes = { red: [31, 39], yellow: [33, 39], green: [32, 39], dim: [2, 22], bold: [1, 22] } as const;
export type Colour = keyof typeof codes;

export function paint(ctx: Ctx, stream: "stdout" | "stderr", colour: Colour, text: string): string {
  const tty = stream === "stdout" ? ctx.io.stdoutIsTTY : ctx.io.stderrIsTTY;
  if (!useColor(ctx, tty)) return text;
  const [a, b] = codes[colour];
  return `\x1b[${a}m${text}\x1b[${b}m`;
}
