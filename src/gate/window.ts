/**
 * Fan-out windows (reference §3.6, DECISIONS D8): agents allowed per tier within the policy's window.
 *
 * The check ALLOW rows of the recent past are cached in `<ledger>.idx/window.json` (see sidecar.ts): each entry
 * is [ts, tier|null, model|null, n_agents], complete for every row with ts >= `horizon` up to `offset`. A check
 * catches the cache up with the rows appended since, drops entries older than its window, and sums. When the
 * cache is missing, stale, or does not reach back far enough (a longer window), it is rebuilt from the ledger's
 * tail only: tailRows walks backwards and stops at the first row older than the window, so no path reads the
 * whole ledger.
 */
import type { LedgerWarning } from "../lib/ledger.ts";
import { withLedger } from "./ledger-fd.ts";
import { catchUp, completeEnd, fingerprint, parseRow, readingLedger, readSidecar, saveSidecar, SIDECAR_VERSION, stillValid, type SidecarHeader } from "./sidecar.ts";
import { tailRows } from "./tail.ts";
import { tierOf, type TierPolicy } from "./tier-policy.ts";

const NAME = "window.json";
type Entry = [number, string | null, string | null, number];

interface WindowCache extends SidecarHeader {
  horizon: number;
  entries: Entry[];
}

/** A check ALLOW row: register rows (job_id), lifecycle rows (event) and audit rows (kind) never count (D8). */
export function isCheckAllow(row: Record<string, unknown>): boolean {
  return row.decision === "ALLOW" && !("job_id" in row) && !("event" in row) && !("kind" in row);
}

function entryOf(row: Record<string, unknown>): Entry | undefined {
  const ts = row.ts;
  const n = row.n_agents;
  if (typeof ts !== "number" || !Number.isFinite(ts) || !isCheckAllow(row)) return undefined;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) return undefined;
  return [ts, typeof row.tier === "string" ? row.tier : null, typeof row.model === "string" ? row.model : null, n];
}

function usable(c: WindowCache | undefined, since: number): c is WindowCache {
  return c !== undefined && typeof c.horizon === "number" && c.horizon <= since && Array.isArray(c.entries);
}

function rebuild(ledger: string, fd: number, size: number, since: number, onWarning?: (w: LedgerWarning) => void): WindowCache {
  const entries: Entry[] = [];
  tailRows(
    ledger,
    since,
    (row) => {
      const e = entryOf(row);
      if (e) entries.push(e);
    },
    onWarning,
    true,
  );
  entries.reverse();
  return { v: SIDECAR_VERSION, offset: completeEnd(fd, size), head: "", tail: "", horizon: since, entries };
}

/** Sum n_agents of check ALLOW rows of `tier` with ts >= now - window. Rows lacking `tier` resolve by `model`. */
export function tierWindowAgents(ledger: string, policy: TierPolicy, tier: string, nowSec: number, onWarning?: (w: LedgerWarning) => void): number {
  return readingLedger(ledger, () => windowAgents(ledger, policy, tier, nowSec, onWarning));
}

function windowAgents(ledger: string, policy: TierPolicy, tier: string, nowSec: number, onWarning?: (w: LedgerWarning) => void): number {
  const since = nowSec - policy.windowSeconds;
  const cache = withLedger(ledger, null, (fd, size) => {
    const cached = readSidecar<WindowCache>(ledger, NAME);
    const c = usable(cached, since) && stillValid(fd, size, cached) ? cached : rebuild(ledger, fd, size, since, onWarning);
    catchUp(ledger, fd, size, c, (text) => {
      const row = parseRow(text);
      if (row === null) return false;
      const e = row && entryOf(row);
      if (e) c.entries.push(e);
      return true;
    });
    fingerprint(fd, c);
    return c;
  });
  if (!cache) return 0;
  cache.entries = cache.entries.filter((e) => e[0] >= since);
  cache.horizon = since;
  saveSidecar(ledger, NAME, cache);
  let used = 0;
  for (const [, t, model, n] of cache.entries) if ((t ?? tierOf(policy, model ?? "")) === tier) used += n;
  return used;
}
