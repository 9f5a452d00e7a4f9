/**
 * Per-contract attempt numbering without re-reading the ledger on every check.
 *
 * `attempt` = 1 + the number of earlier ALLOW rows with the same `contract_sha` (reference §3.4). The counts live
 * in the sidecar `<ledger>.idx/<hh>.json`, one bucket per first two hex digits of the sha (see sidecar.ts for
 * how a bucket validates and catches up). A check reads ONE bucket and scans only the rows appended since that
 * bucket was saved; a missing, unreadable or stale bucket is rebuilt from a full scan. Callers hold the gate lock.
 */
import type { Ctx } from "../../lib/context.ts";
import { progress } from "../../lib/log.ts";
import { withLedger } from "./ledger-fd.ts";
import { catchUp, fingerprint, readingLedger, readSidecar, saveSidecar, SIDECAR_VERSION, stillValid, type RebuildProgress, type SidecarHeader } from "./sidecar.ts";

interface Bucket extends SidecarHeader {
  counts: Record<string, number>;
}

function bucketOf(sha: string): string {
  return sha.slice(0, 2).toLowerCase();
}

/** Count one line into the bucket; false when the line is corrupt. */
function countLine(text: string, prefix: string, counts: Record<string, number>): boolean {
  // Cheap pre-filter: a row that can count contains "ALLOW" and a string starting with the bucket's two digits.
  if (!text.includes("ALLOW") || !text.includes(`"${prefix}`)) {
    const t = text.trim();
    // Not parsed (it cannot count), but a line that is plainly not a JSON object is still an error (D18).
    return t === "" || (t[0] === "{" && t[t.length - 1] === "}");
  }
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    return false;
  }
  if (!row || typeof row !== "object" || Array.isArray(row)) return false;
  const r = row as Record<string, unknown>;
  if (r.decision === "ALLOW" && typeof r.contract_sha === "string" && bucketOf(r.contract_sha) === prefix) {
    counts[r.contract_sha] = (counts[r.contract_sha] ?? 0) + 1;
  }
  return true;
}

/** A from-scratch scan of at least this many bytes (about 0.5 s on an idle machine) shows progress; a smaller one is quick and shows nothing. */
export const REBUILD_PROGRESS_BYTES = 128 << 20;

/** The check's and register's progress for a bucket rebuilt from a full scan of a big ledger (stderr). */
export function rebuildProgress(ctx: Ctx, minBytes = REBUILD_PROGRESS_BYTES): RebuildProgress {
  return (bytes) => (bytes >= minBytes ? progress(ctx, "dispatch-gate: rebuilding the attempt index") : undefined);
}

export interface AttemptCounter {
  /** ALLOW rows with this sha already in the ledger. */
  prior: number;
  /** Persist the caught-up bucket. */
  save(): void;
}

/**
 * Count earlier ALLOW rows for `sha`. The caller holds the gate lock. A bucket rebuilt from scratch (a full scan)
 * reports to `rebuilding` (a big ledger shows progress).
 */
export function priorAllows(ledger: string, sha: string, rebuilding?: RebuildProgress): AttemptCounter {
  return readingLedger(ledger, () => countPrior(ledger, sha, rebuilding));
}

function countPrior(ledger: string, sha: string, rebuilding?: RebuildProgress): AttemptCounter {
  const prefix = bucketOf(sha);
  const name = `${prefix}.json`;
  return withLedger<AttemptCounter>(ledger, { prior: 0, save: () => {} }, (fd, size) => {
    let b = readSidecar<Bucket>(ledger, name);
    if (!b || typeof b.counts !== "object" || b.counts === null || !stillValid(fd, size, b)) {
      b = { v: SIDECAR_VERSION, offset: 0, head: "", tail: "", counts: {} };
    }
    const bucket = b;
    catchUp(ledger, fd, size, bucket, (text) => countLine(text, prefix, bucket.counts), rebuilding);
    fingerprint(fd, bucket);
    return { prior: bucket.counts[sha] ?? 0, save: () => saveSidecar(ledger, name, bucket) };
  });
}
