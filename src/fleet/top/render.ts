/**
 * Frames of `mogui top` as lines of text: the header (totals, per-tier fan-out and spend against the caps), the
 * rows by group, and (on the screen) the status line, the help, the detail pane and the reap question. Every line
 * fits the width; colour (by state) only when asked for.
 */
import { GROUP_TITLES, GROUPS, stateLabel, type TopState } from "./classify.ts";
import { clean, compact, displayWidth, fit, layout, money, PREFIX, type Laid } from "./layout.ts";
import type { TopFrame, TopRow, TopTotals } from "./row.ts";

export type SortKey = "group" | "tokens" | "age" | "id";
export const SORT_KEYS: readonly SortKey[] = ["group", "tokens", "age", "id"];

export interface View {
  selected: number;
  filter: string;
  /** Typing a filter (after `/`). */
  filtering: boolean;
  sort: SortKey;
  mode: "list" | "help" | "detail" | "confirm";
  message: string;
  scroll: number;
  readonly: boolean;
  /** Lines of the detail pane (loaded when Enter is pressed). */
  detail: string[];
}

export function initialView(readonly: boolean): View {
  return { selected: 0, filter: "", filtering: false, sort: "group", mode: "list", message: "", scroll: 0, readonly, detail: [] };
}

const SGR = {
  reset: "\x1b[0m",
  bold: "\x1b[1m",
  dim: "\x1b[2m",
  inverse: "\x1b[7m",
  red: "\x1b[31m",
  green: "\x1b[32m",
  yellow: "\x1b[33m",
  blue: "\x1b[34m",
  magenta: "\x1b[35m",
  cyan: "\x1b[36m",
} as const;

const STATE_COLOUR: Record<TopState, string> = { working: SGR.green, blocked: SGR.red, done: SGR.cyan, idle: SGR.dim, dead: SGR.red, unknown: SGR.magenta };

function matches(r: TopRow, filter: string): boolean {
  if (!filter) return true;
  const f = filter.toLowerCase();
  return [r.id, stateLabel(r), r.model ?? "", r.model_claimed ?? "", `${r.host}:${r.pane}`, r.worktree ?? "", r.branch ?? "", r.reap.reason ?? (r.reap.safe ? "safe" : ""), r.group, r.verdict ?? "", r.agent ?? ""].some((x) => x.toLowerCase().includes(f));
}

/** The rows in screen order: by group, then the sort key within the group. */
export function ordered(rows: readonly TopRow[], view: Pick<View, "filter" | "sort">): TopRow[] {
  const cmp: Record<SortKey, (a: TopRow, b: TopRow) => number> = {
    group: (a, b) => (a.age_seconds ?? 0) - (b.age_seconds ?? 0) || a.id.localeCompare(b.id),
    tokens: (a, b) => (b.tokens ?? -1) - (a.tokens ?? -1) || a.id.localeCompare(b.id),
    age: (a, b) => (b.age_seconds ?? -1) - (a.age_seconds ?? -1) || a.id.localeCompare(b.id),
    id: (a, b) => a.id.localeCompare(b.id),
  };
  return rows.filter((r) => matches(r, view.filter)).sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group) || cmp[view.sort](a, b));
}

function paintIf(on: boolean, sgr: string, text: string): string {
  return on ? `${sgr}${text}${SGR.reset}` : text;
}

function rowLine(r: TopRow, cols: Laid[], selected: boolean, colour: boolean): string {
  const cells = cols.map(({ col, width }) => {
    const text = fit(col.cell(r), width, col.align);
    if (!colour) return text;
    if (col.key === "state") return paintIf(true, r.stuck || r.escalated ? SGR.yellow : STATE_COLOUR[r.state], text);
    if (col.key === "pushed" && r.pushed !== null) return paintIf(true, r.pushed ? SGR.green : SGR.red, text);
    if (col.key === "reap") return paintIf(true, r.reap.safe ? SGR.green : SGR.dim, text);
    return text;
  });
  const line = `${selected ? "> " : "  "}${cells.join(" ")}`;
  return selected && colour ? `${SGR.inverse}${line}${SGR.reset}` : line;
}

function header(t: TopTotals, width: number, colour: boolean): string[] {
  const counts = GROUPS.map((g) => `${GROUP_TITLES[g].toLowerCase()} ${t.groups[g]}`).join(" · ");
  const spend = t.spend === null ? (t.currency ? "spend unpriced" : "spend -") : `spend ${t.currency} ${money(t.spend)}`;
  const lines = [
    paintIf(colour, SGR.bold, fit(`mogui top  ${t.rows} rows: ${counts}`, width).trimEnd()),
    fit(`tokens ${compact(t.tokens)}  ${spend}  burn ${compact(t.burn_tokens_per_hour)}/h  at ${new Date(t.at).toISOString().slice(11, 19)}Z`, width).trimEnd(),
  ];
  if (t.tiers.length) {
    const win = t.window_seconds ? `${Math.round(t.window_seconds / 3600)}h` : "window";
    const fan = t.tiers.map((x) => `${x.tier} ${x.agents}/${x.cap ?? "∞"}`).join("  ");
    const sp = t.tiers
      .filter((x) => x.spend_cap !== null || x.spent_tokens > 0)
      .map((x) => `${x.tier} ${compact(x.spent_tokens)}/${x.spend_cap === null ? "∞" : compact(x.spend_cap)}`)
      .join("  ");
    lines.push(fit(`fan-out (${win}): ${fan}${sp ? `   spend caps: ${sp}` : ""}`, width).trimEnd());
  }
  for (const w of t.warnings.slice(0, 2)) lines.push(paintIf(colour, SGR.yellow, fit(`! ${w}`, width).trimEnd()));
  return lines;
}

/** The list: one line per group title and per row, with the index of each row's line. */
function body(rows: TopRow[], cols: Laid[], width: number, selected: number, colour: boolean, marker: boolean): { lines: string[]; rowLine: number[] } {
  const lines: string[] = [];
  const at: number[] = [];
  let i = 0;
  for (const g of GROUPS) {
    const rs = rows.filter((r) => r.group === g);
    if (!rs.length) continue;
    lines.push(paintIf(colour, SGR.bold, fit(`${GROUP_TITLES[g]} (${rs.length})`, width).trimEnd()));
    for (const r of rs) {
      at.push(lines.length);
      lines.push(rowLine(r, cols, marker && i === selected, colour));
      i++;
    }
  }
  return { lines, rowLine: at };
}

function columnHeader(cols: Laid[], colour: boolean): string {
  return paintIf(colour, SGR.dim, `${" ".repeat(PREFIX)}${cols.map(({ col, width }) => fit(col.title, width, col.align)).join(" ")}`);
}

/** `--once`: the whole frame, every row, no selection. */
export function renderOnce(frame: TopFrame, width: number, colour: boolean): string[] {
  const rows = ordered(frame.rows, { filter: "", sort: "group" });
  const cols = layout(rows, width);
  const out = [...header(frame.totals, width, colour), columnHeader(cols, colour), ...body(rows, cols, width, -1, colour, false).lines];
  if (!rows.length) out.push(fit("  (no workers or worktrees known: pass --repo <path>, or spawn workers with mogui worker spawn)", width));
  return out.map((l) => l.trimEnd());
}

const HELP_LINES = [
  "mogui top: keys",
  "",
  "  ?          this help (any key closes it)",
  "  /          filter rows (type, Enter keeps it, Esc clears it)",
  "  j k ↓ ↑    move the selection",
  "  Enter      detail of the selected row (ledger rows, brief, last transcript lines); Esc or Enter closes it",
  "  s          sort within groups: group (age), tokens, age, id",
  "  r          refresh now (also asks the remote again)",
  "  d          reap the selected worktree: asks y/N, then runs fleet reap's checks (off with --readonly)",
  "  q          quit (Ctrl-C too)",
  "",
  "Groups: NEEDS YOU (blocked, stuck, escalated, verdict pending, drift), RUNNING, FINISHED, REAP-READY, FAILED.",
  "STATE: working / blocked / done / idle / dead / unknown, +stuck (no transcript activity for 5 min), +escalated.",
  "MODEL: the model observed in the transcript; claimed→observed when they differ. PUSHED: ✓ when git ls-remote",
  "shows the claimed SHA, ✗ when it does not. REAP: safe, or the reason fleet reap would leave the worktree.",
];

/** The screen: exactly `height` lines, none wider than `width`. */
export function renderScreen(frame: TopFrame | null, view: View, width: number, height: number, colour: boolean): string[] {
  const status = statusLine(view, width, colour);
  let lines: string[];
  if (!frame) lines = ["mogui top: reading the fleet..."];
  else if (view.mode === "help") lines = HELP_LINES.map((l) => fit(l, width).trimEnd());
  else if (view.mode === "detail") lines = view.detail.map((l) => fit(l, width).trimEnd());
  else {
    const rows = ordered(frame.rows, view);
    const cols = layout(rows, width);
    const head = [...header(frame.totals, width, colour), columnHeader(cols, colour)];
    const b = body(rows, cols, width, view.selected, colour, true);
    if (!rows.length) b.lines.push(fit(view.filter ? `  (no row matches '${view.filter}')` : "  (no workers or worktrees known: pass --repo <path>)", width).trimEnd());
    const room = Math.max(1, height - head.length - 1);
    const sel = b.rowLine[view.selected] ?? 0;
    // Keep the selection (and its group title above it) in view.
    if (sel < view.scroll + 1) view.scroll = Math.max(0, sel - 1);
    if (sel >= view.scroll + room) view.scroll = sel - room + 1;
    view.scroll = Math.max(0, Math.min(view.scroll, Math.max(0, b.lines.length - room)));
    lines = [...head, ...b.lines.slice(view.scroll, view.scroll + room)];
  }
  const out = lines.slice(0, height - 1);
  while (out.length < height - 1) out.push("");
  out.push(status);
  return out;
}

function statusLine(view: View, width: number, colour: boolean): string {
  let text: string;
  if (view.filtering) text = `/${view.filter}`;
  else if (view.message) text = view.message;
  else text = `${view.readonly ? "READ-ONLY  " : ""}${view.filter ? `filter: ${view.filter}  ` : ""}? help  / filter  j/k move  Enter detail  s sort:${view.sort}  r refresh  ${view.readonly ? "" : "d reap  "}q quit`;
  return paintIf(colour, SGR.inverse, fit(clean(text), width));
}

/** Visible width of a rendered line (escape sequences excluded): the tests' check that nothing overflows. */
export function visibleWidth(line: string): number {
  return displayWidth(line.replace(/\x1b\[[0-9;]*m/g, ""));
}
