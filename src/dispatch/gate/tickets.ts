/**
 * Dispatch tickets (reference §3.5, §30.6): `<ticket_dir>/<runtime>-<sha12>.json`, written atomically, valid for
 * TTL seconds, garbage-collected after a further grace period. The ticket dir's `.dispatch-gate.lock` is THE gate
 * lock: ticket writes, attempt numbering, fan-out windows and register selection all happen under it.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { acquireLock, LockTimeoutError } from "../../lib/lock.ts";
import { LedgerError } from "../../lib/ledger.ts";
import { sortedJson } from "../../lib/output.ts";
import { EXPIRED_TICKET_GC_GRACE_SECONDS, RUNTIME_PATTERN, TICKET_TTL_SECONDS } from "./reasons.ts";
import { errorMessage } from "../../lib/errors.ts";
import { writeTemp } from "../../lib/fs.ts";

const GATE_LOCK_NAME = ".dispatch-gate.lock";

export interface Ticket {
  contract_sha: string;
  count: number;
  issued_ts: number;
  runtime: string;
  /** The file it came from. */
  file: string;
}

export function ticketName(runtime: string, sha: string): string {
  return `${runtime.toLowerCase()}-${sha.slice(0, 12)}.json`;
}

/** The ticket path, or undefined when it would not be a direct child of the ticket dir (defence in depth). */
export function ticketPath(dir: string, runtime: string, sha: string): string | undefined {
  const name = ticketName(runtime, sha);
  const p = resolve(dir, name);
  if (dirname(p) !== resolve(dir) || basename(p) !== name) return undefined;
  return p;
}

/** Take the gate lock (creating the ticket dir); a lock that cannot be taken is a ledger fault (D18). */
export function takeGateLock(dir: string, ledger: string, timeoutMs: number): () => void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new LedgerError("unwritable", dir, `cannot create ticket dir: ${errorMessage(e)}`);
  }
  try {
    return acquireLock(join(dir, GATE_LOCK_NAME), timeoutMs);
  } catch (e) {
    if (e instanceof LockTimeoutError) throw new LedgerError("lock", ledger, e.message);
    throw new LedgerError("unwritable", dir, `cannot take the gate lock: ${errorMessage(e)}`);
  }
}

/** A prepared ticket: the tmp file is written, `commit` renames it into place, `abort` removes it. */
export interface PendingTicket {
  commit(): void;
  abort(): void;
}

export function prepareTicket(dir: string, runtime: string, sha: string, nAgents: number, nowSec: number): PendingTicket {
  const path = ticketPath(dir, runtime, sha)!;
  const body = `${sortedJson({ contract_sha: sha, count: Math.max(1, nAgents), issued_ts: nowSec, runtime })}\n`;
  let tmp: string;
  try {
    tmp = writeTemp(path, body, 0o644);
  } catch (e) {
    throw new LedgerError("unwritable", dir, `cannot write ticket: ${errorMessage(e)}`);
  }
  return {
    commit() {
      try {
        renameSync(tmp, path);
      } catch (e) {
        throw new LedgerError("unwritable", dir, `cannot write ticket: ${errorMessage(e)}`);
      }
      gcTickets(dir, nowSec);
    },
    abort() {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
    },
  };
}

function decodeTicket(dir: string, name: string): Ticket | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(dir, name), "utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const t = value as Record<string, unknown>;
  if (typeof t.runtime !== "string" || !RUNTIME_PATTERN.test(t.runtime)) return undefined;
  if (typeof t.contract_sha !== "string" || !/^[0-9a-f]{64}$/.test(t.contract_sha.toLowerCase())) return undefined;
  if (typeof t.issued_ts !== "number" || !Number.isFinite(t.issued_ts)) return undefined;
  if (typeof t.count !== "number" || !Number.isInteger(t.count) || t.count < 1) return undefined;
  const sha = t.contract_sha.toLowerCase();
  if (name !== ticketName(t.runtime, sha)) return undefined;
  return { contract_sha: sha, count: t.count, issued_ts: t.issued_ts, runtime: t.runtime, file: join(dir, name) };
}

/** Every decodable ticket (expired ones included); files past TTL + grace are deleted on the way. */
export function listTickets(dir: string, nowSec: number): Ticket[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Ticket[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".json") || name.startsWith(".")) continue;
    const t = decodeTicket(dir, name);
    if (!t) continue;
    if (t.issued_ts < nowSec - (TICKET_TTL_SECONDS + EXPIRED_TICKET_GC_GRACE_SECONDS)) {
      removeTicket(t);
      continue;
    }
    out.push(t);
  }
  return out;
}

function gcTickets(dir: string, nowSec: number): void {
  listTickets(dir, nowSec);
}

export function isExpired(t: Ticket, nowSec: number): boolean {
  return t.issued_ts < nowSec - TICKET_TTL_SECONDS;
}

export function removeTicket(t: Ticket): void {
  try {
    unlinkSync(t.file);
  } catch {
    /* already gone */
  }
}
