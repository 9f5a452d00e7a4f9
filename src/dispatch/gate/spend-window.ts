/**
 * The gate's view of spend (D37): tokens a tier spent within the policy window, read from the spend ledger's TAIL
 * only (the same backwards walk the fan-out window uses, stopping at the first row older than the window), so a
 * check never reads transcripts and never the whole ledger.
 */
import type { LedgerWarning } from "../../lib/ledger.ts";
import { tailRows } from "../../dispatch/gate/tail.ts";
import { tierOf, type TierPolicy } from "../../lib/config/tier-policy.ts";

const n = (x: unknown): number => (typeof x === "number" && Number.isFinite(x) && x > 0 ? x : 0);

/** Tokens of every `spend` row of `tier` with ts >= since (a row without a tier resolves by its model). */
export function tierSpendSince(ledger: string, policy: TierPolicy, tier: string, since: number, onWarning?: (w: LedgerWarning) => void): number {
  let used = 0;
  tailRows(
    ledger,
    since,
    (row) => {
      if (row.event !== "spend" || typeof row.ts !== "number" || row.ts < since) return;
      const t = typeof row.tier === "string" && row.tier !== "" ? row.tier : tierOf(policy, typeof row.model === "string" ? row.model : "");
      if (t !== tier) return;
      used += n(row.input_tokens) + n(row.output_tokens) + n(row.cache_read_tokens) + n(row.cache_creation_tokens);
    },
    onWarning,
  );
  return used;
}

/** Tokens per tier in [from, to) seconds over the spend ledger (for `dispatch-gate report`), sorted by tier. */
export function spendPerTier(ledger: string, policy: TierPolicy | null, from = -Infinity, to = Infinity, onWarning?: (w: LedgerWarning) => void): Record<string, number> {
  const out: Record<string, number> = {};
  tailRows(
    ledger,
    from,
    (row) => {
      if (row.event !== "spend" || typeof row.ts !== "number" || row.ts < from || row.ts >= to) return;
      const t = typeof row.tier === "string" && row.tier !== "" ? row.tier : policy ? tierOf(policy, typeof row.model === "string" ? row.model : "") : "unknown";
      out[t] = (out[t] ?? 0) + n(row.input_tokens) + n(row.output_tokens) + n(row.cache_read_tokens) + n(row.cache_creation_tokens);
    },
    onWarning,
  );
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
