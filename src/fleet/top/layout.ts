/**
 * Columns of `mogui top` and how they fit a width: every column has a minimum and a natural width; when the
 * terminal is narrow, columns drop by priority (BURN first, ID and STATE never), then the width left over goes to
 * the kept columns in priority order. No line is ever wider than the width asked for (cells are cut with `…`).
 */
import { stateLabel } from "./classify.ts";
import { modelDiffers } from "./collect.ts";
import type { TopRow } from "./row.ts";

/** Terminal columns a string takes: wide East Asian and emoji code points take two, combining marks none. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

function charWidth(c: number): number {
  if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return 0;
  if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || c === 0xfe0f) return 0;
  if (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** Control characters (an escape in a branch name, a model id) never reach the terminal. */
export function clean(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

/** Cut to `w` columns (with `…` when cut) and pad to exactly `w`. */
export function fit(s: string, w: number, align: "left" | "right" = "left"): string {
  if (w <= 0) return "";
  let text = clean(s);
  if (displayWidth(text) > w) {
    let out = "";
    let used = 0;
    for (const ch of text) {
      const cw = charWidth(ch.codePointAt(0)!);
      if (used + cw > w - 1) break;
      out += ch;
      used += cw;
    }
    text = `${out}…`;
  }
  const pad = " ".repeat(Math.max(0, w - displayWidth(text)));
  return align === "left" ? text + pad : pad + text;
}

export function compact(n: number | null): string {
  if (n === null) return "-";
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
  return `${(n / 1_000_000_000).toFixed(1)}G`;
}

export function duration(s: number | null): string {
  if (s === null) return "-";
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60) || ""}`.replace(/h$/, "h");
  return `${Math.floor(s / 86_400)}d`;
}

export function money(v: number | null): string {
  if (v === null) return "-";
  return v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : compact(Math.round(v));
}

export function modelCell(r: TopRow): string {
  if (modelDiffers(r)) return `${r.model_claimed}→${r.model_observed}`;
  return r.model ?? "-";
}

export function pushedCell(r: TopRow): string {
  return r.pushed === null ? "-" : r.pushed ? "✓" : "✗";
}

export function reapCell(r: TopRow): string {
  return r.reap.safe ? "safe" : (r.reap.reason ?? "unsafe");
}

export interface Column {
  key: string;
  title: string;
  min: number;
  max: number;
  /** Higher drops first when the width is short; 0 never drops. */
  drop: number;
  align: "left" | "right";
  cell(r: TopRow): string;
}

export const COLUMNS: readonly Column[] = [
  { key: "id", title: "ID", min: 10, max: 28, drop: 0, align: "left", cell: (r) => r.id },
  { key: "host", title: "HOST:PANE", min: 9, max: 18, drop: 7, align: "left", cell: (r) => (r.host && r.pane ? `${r.host}:${r.pane}` : "-") },
  { key: "agent", title: "AGENT", min: 5, max: 10, drop: 9, align: "left", cell: (r) => r.agent ?? "-" },
  { key: "model", title: "MODEL", min: 10, max: 36, drop: 1, align: "left", cell: modelCell },
  { key: "tier", title: "TIER", min: 4, max: 10, drop: 8, align: "left", cell: (r) => r.tier ?? r.job_tier ?? "-" },
  { key: "state", title: "STATE", min: 9, max: 22, drop: 0, align: "left", cell: (r) => stateLabel(r) },
  { key: "age", title: "AGE/LAST", min: 8, max: 10, drop: 5, align: "right", cell: (r) => `${duration(r.age_seconds)}/${duration(r.idle_seconds)}` },
  { key: "tokens", title: "TOKENS", min: 6, max: 7, drop: 3, align: "right", cell: (r) => compact(r.tokens) },
  { key: "spend", title: "SPEND", min: 5, max: 8, drop: 6, align: "right", cell: (r) => money(r.spend) },
  { key: "burn", title: "BURN/H", min: 6, max: 8, drop: 10, align: "right", cell: (r) => (r.burn_spend_per_hour !== null ? money(r.burn_spend_per_hour) : compact(r.burn_tokens_per_hour)) },
  { key: "pushed", title: "PUSHED", min: 6, max: 6, drop: 2, align: "left", cell: pushedCell },
  { key: "verdict", title: "VERDICT", min: 7, max: 10, drop: 4, align: "left", cell: (r) => r.verdict ?? "-" },
  { key: "reap", title: "REAP", min: 12, max: 200, drop: 0.5, align: "left", cell: reapCell },
];

/** The row prefix: the selection marker and a space. */
export const PREFIX = 2;

export interface Laid {
  col: Column;
  width: number;
}

/** REAP's share while columns are still being chosen; what is left at the end goes to it too. */
const REAP_FIRST = 32;

/**
 * The columns kept for `width` terminal columns and the width of each (separators of one space). In priority order
 * (ID, STATE, REAP, MODEL, PUSHED, TOKENS, VERDICT, AGE, SPEND, HOST, TIER, AGENT, BURN) a column is kept at its
 * natural width when that fits, else at its minimum when that fits, else dropped; the width left over then widens
 * the kept columns up to their natural widths, REAP last. ID and STATE are always kept (cut in a tiny terminal).
 */
export function layout(rows: readonly TopRow[], width: number): Laid[] {
  const natural = new Map(COLUMNS.map((c) => [c.key, Math.min(c.max, Math.max(c.min, displayWidth(c.title), ...rows.map((r) => displayWidth(clean(c.cell(r))))))]));
  const desired = (c: Column) => (c.key === "reap" ? Math.min(REAP_FIRST, natural.get(c.key)!) : natural.get(c.key)!);
  const widths = new Map<string, number>();
  let used = PREFIX - 1;
  for (const c of [...COLUMNS].sort((a, b) => a.drop - b.drop)) {
    const w = [desired(c), c.min].find((x) => used + 1 + x <= width);
    if (w !== undefined) {
      widths.set(c.key, w);
      used += 1 + w;
    } else if (c.drop === 0) {
      widths.set(c.key, c.min);
      used += 1 + c.min;
    }
  }
  let left = width - used;
  for (const c of [...COLUMNS].filter((x) => widths.has(x.key)).sort((a, b) => (a.key === "reap" ? 1 : 0) - (b.key === "reap" ? 1 : 0) || a.drop - b.drop)) {
    if (left <= 0) break;
    const add = Math.min(left, natural.get(c.key)! - widths.get(c.key)!);
    if (add > 0) {
      widths.set(c.key, widths.get(c.key)! + add);
      left -= add;
    }
  }
  // Never wider than asked for, even below the smallest layout (a 20-column terminal): the last columns shrink.
  const out = COLUMNS.filter((c) => widths.has(c.key)).map((c) => ({ col: c, width: widths.get(c.key)! }));
  let total = PREFIX + out.reduce((a, l) => a + l.width, 0) + (out.length - 1);
  for (let i = out.length - 1; i >= 0 && total > width; i--) {
    const cut = Math.min(out[i]!.width, total - width);
    out[i]!.width -= cut;
    total -= cut;
  }
  return out.filter((l) => l.width > 0);
}
