/**
 * `spend report`: input, output and cache tokens per group from the spend ledger (one streaming pass), and cost
 * only where the user's price table prices every model of a group (D37: no price is built in as truth).
 */
import { existsSync, readFileSync } from "node:fs";
import * as v from "valibot";
import { readRows, type ReadOptions } from "../../lib/ledger.ts";
import { errorMessage } from "../../lib/errors.ts";
import { DEFAULT_FAMILIES, providerFamily } from "../../workers/worker/policy.ts";

export type GroupBy = "job" | "model" | "tier" | "day" | "provider";
export const GROUP_BY: readonly GroupBy[] = ["job", "model", "tier", "day", "provider"];

/**
 * The provider a spend row's tokens count against (the subscription's quota): the transcript format says it
 * (Claude Code -> anthropic, Codex -> openai), else the model's vendor prefix (D13's families), else "unknown".
 */
export function providerOf(row: Record<string, unknown>): string {
  if (row.format === "claude-code") return "anthropic";
  if (row.format === "codex") return "openai";
  return (typeof row.model === "string" && providerFamily({ provider_families: DEFAULT_FAMILIES }, row.model)) || "unknown";
}

const Price = v.strictObject({
  input_per_mtok: v.pipe(v.number(), v.minValue(0)),
  output_per_mtok: v.pipe(v.number(), v.minValue(0)),
  cache_read_per_mtok: v.optional(v.pipe(v.number(), v.minValue(0))),
  cache_creation_per_mtok: v.optional(v.pipe(v.number(), v.minValue(0))),
});
const PriceTable = v.looseObject({
  currency: v.pipe(v.string(), v.minLength(1)),
  models: v.record(v.pipe(v.string(), v.minLength(1)), Price),
});
export type PriceTableT = v.InferOutput<typeof PriceTable>;

/** A price table that is present but not valid (the command's `invalidPrices` exit). */
export class PriceTableError extends Error {
  override name = "PriceTableError";
}

/** The user's price table, null when absent; a present but invalid table is an error (exit 2), never ignored. */
export function loadPrices(path: string): PriceTableT | null {
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new PriceTableError(`spend: price table ${path}: not valid JSON (${errorMessage(e)})`);
  }
  const p = v.safeParse(PriceTable, raw);
  if (!p.success) throw new PriceTableError(`spend: price table ${path}: ${v.summarize(p.issues).replace(/\n/g, "; ")}`);
  return p.output;
}

interface Group {
  key: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  total_tokens: number;
  responses: number;
  cost: number | null;
  unpriced_models: string[];
}

export interface SpendReport {
  by: GroupBy;
  since: number | null;
  currency: string | null;
  groups: Group[];
  totals: Omit<Group, "key" | "unpriced_models">;
}

const n = (x: unknown): number => (typeof x === "number" && Number.isFinite(x) && x > 0 ? x : 0);

function keyOf(row: Record<string, unknown>, by: GroupBy): string {
  if (by === "day") return typeof row.ts === "number" ? new Date(row.ts * 1000).toISOString().slice(0, 10) : "<no date>";
  if (by === "provider") return providerOf(row);
  const k = row[by === "job" ? "job_id" : by];
  return typeof k === "string" && k !== "" ? k : "unknown";
}

export function rowCost(row: Record<string, unknown>, prices: PriceTableT): number | null {
  const p = typeof row.model === "string" ? prices.models[row.model] : undefined;
  if (!p) return null;
  const perTok = (x: number | undefined, fallback: number) => (x ?? fallback) / 1_000_000;
  return (
    n(row.input_tokens) * perTok(p.input_per_mtok, 0) +
    n(row.output_tokens) * perTok(p.output_per_mtok, 0) +
    n(row.cache_read_tokens) * perTok(p.cache_read_per_mtok, p.input_per_mtok) +
    n(row.cache_creation_tokens) * perTok(p.cache_creation_per_mtok, p.input_per_mtok)
  );
}

function emptyGroup(key: string, priced: boolean): Group {
  return { key, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_creation_tokens: 0, total_tokens: 0, responses: 0, cost: priced ? 0 : null, unpriced_models: [] };
}

export async function buildSpendReport(ledger: string, by: GroupBy, since: number | null, prices: PriceTableT | null, opts: ReadOptions = {}): Promise<SpendReport> {
  const groups = new Map<string, Group>();
  const total = emptyGroup("total", prices !== null);
  for await (const { row } of readRows(ledger, opts)) {
    if (row.event !== "spend") continue;
    if (since !== null && !(typeof row.ts === "number" && row.ts >= since)) continue;
    const key = keyOf(row, by);
    const g = groups.get(key) ?? emptyGroup(key, prices !== null);
    const c = prices ? rowCost(row, prices) : null;
    for (const t of [g, total]) {
      t.input_tokens += n(row.input_tokens);
      t.output_tokens += n(row.output_tokens);
      t.cache_read_tokens += n(row.cache_read_tokens);
      t.cache_creation_tokens += n(row.cache_creation_tokens);
      t.total_tokens += n(row.input_tokens) + n(row.output_tokens) + n(row.cache_read_tokens) + n(row.cache_creation_tokens);
      t.responses += n(row.responses);
      if (prices && c === null) {
        t.cost = null; // a group with an unpriced model has no honest total
        const m = typeof row.model === "string" ? row.model : "unknown";
        if (!t.unpriced_models.includes(m)) t.unpriced_models.push(m);
      } else if (t.cost !== null && c !== null) t.cost += c;
    }
    groups.set(key, g);
  }
  const { key: _k, unpriced_models: _u, ...totals } = total;
  return { by, since, currency: prices?.currency ?? null, groups: [...groups.values()].sort((a, b) => a.key.localeCompare(b.key)), totals };
}

export function renderSpendReport(r: SpendReport): string {
  const head = ["group", "input", "output", "cache_read", "cache_write", "total", "responses", ...(r.currency ? [`cost_${r.currency}`] : [])];
  const line = (g: Omit<Group, "unpriced_models"> & { unpriced_models?: string[] }, key: string) => [
    key,
    ...[g.input_tokens, g.output_tokens, g.cache_read_tokens, g.cache_creation_tokens, g.total_tokens, g.responses].map(String),
    ...(r.currency ? [g.cost === null ? `unpriced(${(g.unpriced_models ?? []).join(",") || "-"})` : g.cost.toFixed(4)] : []),
  ];
  const rows = [head, ...r.groups.map((g) => line(g, g.key)), line({ ...r.totals, key: "total" }, "TOTAL")];
  const w = head.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join("  ")).join("\n")}\n`;
}
