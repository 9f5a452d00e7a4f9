/** Arg fragments and helpers the `mogui spend ...` commands share: which transcripts a job has, --since parsing. */
import { UsageError } from "../../../src/lib/errors.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { LEDGER_ENV as JOBS_ENV } from "../../../src/workers/worker/jobs.ts";
import { SPEND_LEDGER_ENV } from "../../../src/dispatch/gate/spend-paths.ts";

export const SPEND_LEDGER_ARG = {
  "spend-ledger": { type: "string", valueHint: "path", description: `Spend ledger (default $${SPEND_LEDGER_ENV}, else $MOGUI_HOME/spend-ledger.jsonl)` },
} as const;
export const JOBS_LEDGER_ARG = {
  "jobs-ledger": { type: "string", valueHint: "path", description: `Jobs ledger that maps a job to its worktree (default $${JOBS_ENV}, else $MOGUI_HOME/jobs-ledger.jsonl)` },
} as const;

const SPEND_FAULT = "spend ledger or its state unreadable, unwritable, corrupt (a line before the last, checked before anything is read or appended) or locked (LEDGER_UNAVAILABLE)";

/** Rows of the commands that find a job's transcripts and append to the spend ledger (record, watch). */
export const SPEND_EXITS = {
  ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: SPEND_FAULT },
  unknownJob: { code: 2, meaning: "usage (a bad flag or value); a --job the jobs ledger does not know (name its transcript with --transcript)" },
  transcriptNotFound: { code: 2, meaning: "a named --transcript that does not exist (TRANSCRIPT_NOT_FOUND)" },
} as const;

/** --since: epoch seconds, an ISO date/time, or a duration back from now (`90m`, `24h`, `7d`). */
export function parseSince(raw: string | undefined, nowSec: number, cmd: string): number | null {
  if (raw === undefined) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const d = /^(\d+)([smhd])$/.exec(raw);
  if (d) return nowSec - Number(d[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[d[2] as "s" | "m" | "h" | "d"];
  const ms = Date.parse(raw);
  if (/^\d{4}-\d{2}-\d{2}/.test(raw) && Number.isFinite(ms)) return ms / 1000;
  throw new UsageError(`--since must be epoch seconds, an ISO date, or a duration like 24h (got '${raw}')`, `spend ${cmd}`);
}
