/**
 * `spend record`: read each job's transcripts from where the last run stopped and append the measured usage to
 * the spend ledger, one row per job, transcript and model. The whole run holds the state lock, so two concurrent
 * runs never count the same bytes. Crash safety: the new offsets are saved first together with the old ones and
 * the ledger's size (`pending`), then the rows are appended, then `pending` is dropped. A run that finds `pending`
 * left behind keeps the new offsets if the ledger grew past that size (the rows landed) and restores the old ones
 * otherwise, so a crash neither loses nor double-counts a response. A transcript that shrank or was replaced
 * (another inode) is read again from the start.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { appendRows, LedgerError, readRows, type LedgerRow, type LedgerWarning } from "../../lib/ledger.ts";
import { LockTimeoutError, withLock } from "../../lib/lock.ts";
import { tierOf, type TierPolicy } from "../../lib/config/tier-policy.ts";
import { spendStatePath } from "../../dispatch/gate/spend-paths.ts";
import { emptyCursor, readUsage, tokenTotal, type CursorState, type ModelUsage } from "./usage.ts";
import { atomicWrite } from "../../lib/fs.ts";

interface TranscriptState {
  job_id: string;
  ino: number;
  cursor: CursorState;
  /** Everything counted from this transcript so far, all models. */
  totals: ModelUsage;
  malformed: number;
}

export interface SpendState {
  v: 1;
  transcripts: Record<string, TranscriptState>;
  /** Set between saving new offsets and appending their rows: the ledger size before, and the old offsets. */
  pending?: { ledger_size: number; before: Record<string, TranscriptState> };
}

export interface JobTranscripts {
  job_id: string;
  transcripts: string[];
}

export interface RecordSummary {
  job_id: string;
  transcript: string;
  responses: number;
  tokens: number;
  malformed: number;
}

function emptyUsage(): ModelUsage {
  return { input: 0, output: 0, cache_read: 0, cache_creation: 0, responses: 0 };
}

export function loadState(ledger: string): SpendState {
  const p = spendStatePath(ledger);
  if (!existsSync(p)) return { v: 1, transcripts: {} };
  try {
    const s = JSON.parse(readFileSync(p, "utf8")) as SpendState;
    if (s.v === 1 && typeof s.transcripts === "object" && s.transcripts !== null) return s;
  } catch {
    // fall through: a state file we cannot read is an error, never a silent re-count
  }
  throw new LedgerError("corrupt", p, "unreadable spend state (delete it only together with the ledger)");
}

function ledgerSize(ledger: string): number {
  try {
    return statSync(ledger).size;
  } catch {
    return 0;
  }
}

/** Finish what a crashed run left: its rows landed (the ledger grew) or they did not (back to the old offsets). */
function settlePending(ledger: string, s: SpendState): SpendState {
  if (!s.pending) return s;
  return { v: 1, transcripts: ledgerSize(ledger) > s.pending.ledger_size ? s.transcripts : s.pending.before };
}

function saveState(ledger: string, s: SpendState): void {
  const p = spendStatePath(ledger);
  atomicWrite(p, `${JSON.stringify(s)}\n`);
}

function rowsFor(job: string, transcript: string, tr: ReturnType<typeof readUsage>, policy: TierPolicy | null, nowSec: number): LedgerRow[] {
  const out: LedgerRow[] = [];
  for (const [model, u] of tr.byModel) {
    out.push({
      event: "spend",
      ts: nowSec,
      job_id: job,
      transcript,
      format: tr.cursor.format,
      model,
      tier: policy ? tierOf(policy, model) : null,
      input_tokens: u.input,
      output_tokens: u.output,
      cache_read_tokens: u.cache_read,
      cache_creation_tokens: u.cache_creation,
      responses: u.responses,
      first_at: tr.firstAt,
      last_at: tr.lastAt,
    });
  }
  return out;
}

function readOne(state: SpendState, job: string, path: string): ReturnType<typeof readUsage> & { prev: TranscriptState } {
  const st = statSync(path);
  let prev = state.transcripts[path];
  if (!prev || prev.ino !== st.ino || st.size < prev.cursor.offset) {
    prev = { job_id: job, ino: st.ino, cursor: emptyCursor(), totals: emptyUsage(), malformed: 0 };
  }
  return { ...readUsage(path, prev.cursor), prev };
}

/**
 * Record every named transcript; returns one summary per transcript (rows appended only for new usage). The
 * caller checks the ledger first (checkLedger: a corrupt line stops the run before any offset moves).
 */
export function recordSpend(ledger: string, jobs: readonly JobTranscripts[], policy: TierPolicy | null, nowSec: number, onWarning?: (w: LedgerWarning) => void): RecordSummary[] {
  try {
    return withLock(`${spendStatePath(ledger)}.lock`, () => {
      const state = settlePending(ledger, loadState(ledger));
      const before = { ...state.transcripts };
      const rows: LedgerRow[] = [];
      const out: RecordSummary[] = [];
      for (const j of jobs) {
        for (const t of j.transcripts) {
          const r = readOne(state, j.job_id, t);
          const totals = { ...r.prev.totals };
          let responses = 0;
          let tokens = 0;
          for (const u of r.byModel.values()) {
            for (const k of ["input", "output", "cache_read", "cache_creation", "responses"] as const) totals[k] += u[k];
            responses += u.responses;
            tokens += tokenTotal(u);
          }
          rows.push(...rowsFor(j.job_id, t, r, policy, nowSec));
          state.transcripts[t] = { job_id: j.job_id, ino: r.prev.ino, cursor: r.cursor, totals, malformed: r.prev.malformed + r.malformed };
          out.push({ job_id: j.job_id, transcript: t, responses, tokens, malformed: r.malformed });
        }
      }
      if (rows.length) {
        saveState(ledger, { ...state, pending: { ledger_size: ledgerSize(ledger), before } });
        appendRows(ledger, rows, { onWarning });
      }
      saveState(ledger, state);
      return out;
    });
  } catch (e) {
    if (e instanceof LockTimeoutError) throw new LedgerError("lock", ledger, e.message);
    throw e;
  }
}

/** A job's measured tokens so far, from the saved totals (never a ledger scan). */
export function jobTokens(state: SpendState, job: string): { tokens: number; transcripts: number } {
  let tokens = 0;
  let n = 0;
  for (const t of Object.values(state.transcripts)) {
    if (t.job_id !== job) continue;
    tokens += tokenTotal(t.totals);
    n++;
  }
  return { tokens, transcripts: n };
}

/** job id -> worktree, from the jobs ledger's `job_spawned` rows. */
export async function jobWorktrees(jobsLedger: string): Promise<Map<string, string>> {
  const m = new Map<string, string>();
  for await (const { row } of readRows(jobsLedger)) {
    if (row.event === "job_spawned" && typeof row.job_id === "string" && typeof row.worktree === "string") m.set(row.job_id, row.worktree);
  }
  return m;
}
