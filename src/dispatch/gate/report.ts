/**
 * `dispatch-gate report` (reference §3.12 plus DECISIONS D17 `Registrations:`): one streaming pass over the
 * ledger, aggregates only, so memory stays flat however long the ledger is.
 */
import type { LedgerWarning } from "../../lib/ledger.ts";
import { scanLedger } from "./scan.ts";
import { isAbortRow } from "./window.ts";

const MIN_MS = -62_135_596_800_000; // 0001-01-01T00:00:00Z, Python's datetime.min
const MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

export interface ReportData {
  scope: "today" | "all";
  skipped_malformed: number;
  time_span: { from: string; to: string } | null;
  models: Record<string, { dispatches: number; est_cost_proxy: number; computed_legacy_entries: number }>;
  denials: Record<string, number>;
  tiers: Record<string, { dispatches: number; agents: number }>;
  tier_policies: { path: string; sha256: string | null; decisions: number }[];
  tier_overrides: { model: string; reason: string; count: number }[];
  registrations: Record<string, { registrations: number; model_verified: number }>;
  /** D38: dispatches that ended before their worker started, per pipeline step (their ALLOW gave its slot back). */
  pipeline_aborted: Record<string, number>;
  /** D37: measured tokens per tier from the spend ledger (present only when it holds spend rows). */
  spend_per_tier?: Record<string, number>;
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

/** A usable timestamp in epoch ms, or undefined (non-numeric, non-finite, or outside datetime's range). */
function tsMs(v: unknown): number | undefined {
  if (typeof v !== "number" || !Number.isFinite(v)) return undefined;
  const ms = v * 1000;
  return ms >= MIN_MS && ms <= MAX_MS ? ms : undefined;
}

function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function cost(row: Record<string, unknown>): { value: number; legacy: boolean } {
  if ("cost_proxy" in row) return { value: isInt(row.cost_proxy) ? Math.max(0, row.cost_proxy) : 0, legacy: false };
  const e = row.est_chars;
  const n = row.n_agents;
  return { value: isInt(e) && isInt(n) ? Math.max(0, e * n) : 0, legacy: true };
}

function sortedRecord<T>(m: Map<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!;
  return out;
}

export function buildReport(ledger: string, today: boolean, nowMs: number, onWarning?: (w: LedgerWarning) => void): ReportData {
  const dayStart = Math.floor(nowMs / 86_400_000) * 86_400_000;
  let malformed = 0;
  let min = Infinity;
  let max = -Infinity;
  const models = new Map<string, { dispatches: number; est_cost_proxy: number; computed_legacy_entries: number }>();
  const denials = new Map<string, number>();
  const tiers = new Map<string, { dispatches: number; agents: number }>();
  const policies = new Map<string, { path: string; sha256: string | null; decisions: number }>();
  const overrides = new Map<string, { model: string; reason: string; count: number }>();
  const regs = new Map<string, { registrations: number; model_verified: number }>();
  const aborted = new Map<string, number>();
  scanLedger(
    ledger,
    (value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        malformed++;
        return;
      }
      const row = value as Record<string, unknown>;
      const ms = tsMs(row.ts);
      if (today && (ms === undefined || ms < dayStart || ms >= dayStart + 86_400_000)) return;
      if (ms !== undefined) {
        if (ms < min) min = ms;
        if (ms > max) max = ms;
      }
      if (row.decision === "DENY" && typeof row.reason === "string") denials.set(row.reason, (denials.get(row.reason) ?? 0) + 1);
      if (typeof row.tier_policy_path === "string" && row.tier_policy_path !== "") {
        const sha = typeof row.tier_policy_sha256 === "string" ? row.tier_policy_sha256 : null;
        const key = `${row.tier_policy_path}\u0000${sha ?? ""}`;
        const p = policies.get(key) ?? { path: row.tier_policy_path, sha256: sha, decisions: 0 };
        p.decisions++;
        policies.set(key, p);
      }
      if (isAbortRow(row)) {
        const step = typeof row.step === "string" && row.step !== "" ? row.step : "<unknown>";
        aborted.set(step, (aborted.get(step) ?? 0) + 1);
      }
      if (row.decision !== "ALLOW") return;
      if ("job_id" in row && !("kind" in row) && !("event" in row)) {
        const rt = typeof row.runtime === "string" && row.runtime !== "" ? row.runtime : "<unknown>";
        const r = regs.get(rt) ?? { registrations: 0, model_verified: 0 };
        r.registrations++;
        if (row.model_verified === true) r.model_verified++;
        regs.set(rt, r);
      }
      const model = row.model;
      if (typeof model !== "string" || model === "") return;
      const m = models.get(model) ?? { dispatches: 0, est_cost_proxy: 0, computed_legacy_entries: 0 };
      const c = cost(row);
      m.dispatches++;
      m.est_cost_proxy += c.value;
      if (c.legacy) m.computed_legacy_entries++;
      models.set(model, m);
      const tier = typeof row.tier === "string" && row.tier !== "" ? row.tier : "unknown";
      const t = tiers.get(tier) ?? { dispatches: 0, agents: 0 };
      t.dispatches++;
      if (isInt(row.n_agents) && row.n_agents > 0) t.agents += row.n_agents;
      tiers.set(tier, t);
      if (typeof row.tier_override === "string") {
        const key = `${model}\u0000${row.tier_override}`;
        const o = overrides.get(key) ?? { model, reason: row.tier_override, count: 0 };
        o.count++;
        overrides.set(key, o);
      }
    },
    onWarning,
  );
  const byKey = <T>(m: Map<string, T>) => [...m.keys()].sort().map((k) => m.get(k)!);
  return {
    scope: today ? "today" : "all",
    skipped_malformed: malformed,
    time_span: min === Infinity ? null : { from: isoSeconds(min), to: isoSeconds(max) },
    models: sortedRecord(models),
    denials: sortedRecord(denials),
    tiers: sortedRecord(tiers),
    tier_policies: byKey(policies),
    tier_overrides: byKey(overrides),
    registrations: sortedRecord(regs),
    pipeline_aborted: sortedRecord(aborted),
  };
}

/** Python's json.dumps (ensure_ascii): non-ASCII as \uXXXX. */
function pyJsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function section(title: string, lines: string[]): string[] {
  return [title, ...(lines.length ? lines : ["  <none>"])];
}

export function renderReport(r: ReportData): string {
  const out = [
    "Dispatch gate report",
    r.scope === "today" ? "Scope: today (UTC)" : "Scope: all ledger entries",
    `Skipped malformed: ${r.skipped_malformed}`,
    r.time_span ? `Time span: ${r.time_span.from} to ${r.time_span.to}` : "Time span: none",
    ...section(
      "Models:",
      Object.entries(r.models).map(([m, v]) => `  ${m}: dispatches=${v.dispatches} est_cost_proxy=${v.est_cost_proxy}${v.computed_legacy_entries ? ` computed_legacy_entries=${v.computed_legacy_entries}` : ""}`),
    ),
    ...section(
      "Denials:",
      Object.entries(r.denials).map(([k, n]) => `  ${k}: ${n}`),
    ),
    ...section(
      "Tiers:",
      Object.entries(r.tiers).map(([t, v]) => `  ${t}: dispatches=${v.dispatches} agents=${v.agents}${t === "unknown" ? "  <- allowed without a known tier" : ""}`),
    ),
    ...section(
      "Tier policies:",
      r.tier_policies.map((p) => `  ${p.path}: sha256=${p.sha256 ? p.sha256.slice(0, 12) : "<unrecorded>"} decisions=${p.decisions}`),
    ),
    ...section(
      "Tier overrides:",
      r.tier_overrides.map((o) => `  ${o.model}: reason=${pyJsonString(o.reason)} count=${o.count}`),
    ),
    ...section(
      "Registrations:",
      Object.entries(r.registrations).map(([rt, v]) => `  ${rt}: registrations=${v.registrations} model_verified=${v.model_verified}`),
    ),
    // Only when there are any, so a ledger from before D38 reports exactly as it did.
    ...(Object.keys(r.pipeline_aborted).length
      ? section(
          "Aborted dispatches (cap slot given back):",
          Object.entries(r.pipeline_aborted).map(([step, n]) => `  ${step}: ${n}`),
        )
      : []),
    ...(r.spend_per_tier
      ? section(
          "Spend per tier (tokens, measured):",
          Object.entries(r.spend_per_tier).map(([t, n]) => `  ${t}: tokens=${n}`),
        )
      : []),
  ];
  return `${out.join("\n")}\n`;
}
