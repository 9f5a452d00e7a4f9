/**
 * Fan-out windows (reference §3.6, DECISIONS D8): agents allowed per tier within the policy's window.
 *
 * The check ALLOW rows of the recent past are cached in `<ledger>.idx/window.json` (see sidecar.ts): each entry
 * is [ts, tier|null, model|null, n_agents, abort key|null], complete for every row with ts >= `horizon` up to
 * `offset`. A `dispatch_aborted` row (D38) removes the entry of the check row it cancels: a forward catch-up drops
 * it when it meets the abort row, a backward rebuild meets the abort row first and never adds it. A check
 * catches the cache up with the rows appended since, drops entries older than its window, and sums. When the
 * cache is missing, stale, or does not reach back far enough (a longer window), it is rebuilt from the ledger's
 * tail only: tailRows walks backwards and stops at the first row older than the window, so no path reads the
 * whole ledger.
 */
import type { LedgerWarning } from "../../lib/ledger.ts";
import { withLedger } from "./ledger-fd.ts";
import { catchUp, completeEnd, fingerprint, parseRow, readingLedger, readSidecar, saveSidecar, SIDECAR_VERSION, stillValid, type SidecarHeader } from "./sidecar.ts";
import { tailRows } from "./tail.ts";
import { tierOf, type TierPolicy } from "../../lib/config/tier-policy.ts";

const NAME = "window.json";
/** Entries carry the abort key (format 2); a cache of another format is rebuilt. */
const FORMAT = 2;
type Entry = [number, string | null, string | null, number, string | null];

interface WindowCache extends SidecarHeader {
  format: number;
  horizon: number;
  entries: Entry[];
}

/** A check ALLOW row: register rows (job_id), lifecycle rows (event) and audit rows (kind) never count (D8). */
export function isCheckAllow(row: Record<string, unknown>): boolean {
  return row.decision === "ALLOW" && !("job_id" in row) && !("event" in row) && !("kind" in row);
}

/** D38: the row `mogui dispatch` appends when a dispatch ended before its worker started (see abort.ts). */
export const ABORTED_EVENT = "dispatch_aborted";

/** `<sha>#<attempt>`: the key a check ALLOW row and the dispatch_aborted row that cancels it share. */
export function abortKey(row: Record<string, unknown>): string | null {
  const sha = row.contract_sha;
  const attempt = row.attempt;
  return typeof sha === "string" && typeof attempt === "number" ? `${sha}#${attempt}` : null;
}

export function isAbortRow(row: Record<string, unknown>): boolean {
  return row.event === ABORTED_EVENT;
}

function entryOf(row: Record<string, unknown>): Entry | undefined {
  const ts = row.ts;
  const n = row.n_agents;
  if (typeof ts !== "number" || !Number.isFinite(ts) || !isCheckAllow(row)) return undefined;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) return undefined;
  return [ts, typeof row.tier === "string" ? row.tier : null, typeof row.model === "string" ? row.model : null, n, abortKey(row)];
}

function usable(c: WindowCache | undefined, since: number): c is WindowCache {
  return c !== undefined && c.format === FORMAT && typeof c.horizon === "number" && c.horizon <= since && Array.isArray(c.entries);
}

/** A forward catch-up meets a dispatch_aborted row after the check row it cancels: drop that entry. */
function dropAborted(entries: Entry[], key: string | null): void {
  if (key === null) return;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]![4] === key) {
      entries.splice(i, 1);
      return;
    }
  }
}

function rebuild(ledger: string, fd: number, size: number, since: number, onWarning?: (w: LedgerWarning) => void): WindowCache {
  const entries: Entry[] = [];
  // Newest first: a dispatch_aborted row is met before the check row it cancels.
  const aborted = new Set<string>();
  tailRows(
    ledger,
    since,
    (row) => {
      if (isAbortRow(row)) {
        const k = abortKey(row);
        if (k !== null) aborted.add(k);
        return;
      }
      const e = entryOf(row);
      if (e && !(e[4] !== null && aborted.has(e[4]))) entries.push(e);
    },
    onWarning,
    true,
  );
  entries.reverse();
  return { v: SIDECAR_VERSION, format: FORMAT, offset: completeEnd(fd, size), head: "", tail: "", horizon: since, entries };
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
      if (row && isAbortRow(row)) dropAborted(c.entries, abortKey(row));
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
