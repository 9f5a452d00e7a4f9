/** Shared bits of the `mogui tracks` commands: arg fragments, exits, ledger resolution (D2), the runtime, output. */
import { ARGS } from "../../lib/args.ts";
import { failWith } from "../../lib/command.ts";
import { resolveStatePath, type Ctx } from "../../lib/context.ts";
import { SHARED_EXITS, type Exits } from "../../lib/exits.ts";
import { logger } from "../../lib/log.ts";
import { printDoc } from "../../lib/output.ts";
import { boundedWarnings } from "../../lib/ledger.ts";
import { TrackRuleError, WORK_LEDGER_ENV, WORK_LEDGER_FILE, WorkspaceRuntime, type TrackState } from "./ledger.ts";
import { errorMessage } from "../../lib/errors.ts";

export const ledgerArg = { ...ARGS.ledger, description: `Work ledger (default $${WORK_LEDGER_ENV}, else $MOGUI_HOME/${WORK_LEDGER_FILE})` } as const;
export const idArg = { type: "positional", required: true, description: "The track id" } as const;

/** The write commands' exits (register, update, close). A LedgerError maps to ledgerUnavailable (SHARED_ERRORS). */
export const TRACK_EXITS = {
  ok: { code: 0, meaning: "the event was appended; the track's new state is on stdout" },
  ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "usage, or the work ledger cannot be read or written" },
  refused: { code: 3, meaning: "refused by the ledger rules: already active (register), unknown or closed track (update, close)" },
} as const satisfies Exits;

export function runtime(ctx: Ctx, flag: string | undefined): WorkspaceRuntime {
  const path = resolveStatePath(ctx, flag, WORK_LEDGER_ENV, WORK_LEDGER_FILE);
  try {
    const rt = new WorkspaceRuntime(path);
    const log = logger(ctx, "tracks");
    // Bounded (at most 10 of a kind): a ledger full of foreign rows must not become one stderr line per row.
    const sink = boundedWarnings((w) => log.warn(`${w.path}: ${w.line ? `line ${w.line}: ` : ""}${w.message}`));
    for (const w of rt.warnings) {
      const m = /^line (\d+): ([\s\S]*)$/.exec(w);
      sink.warn({ path, line: m ? Number(m[1]) : 0, message: m ? m[2]! : w });
    }
    sink.flush();
    rt.onLedgerWarning = (w) => log.warn(`${w.path}: ${w.message}`);
    return rt;
  } catch (e) {
    return failWith(TRACK_EXITS, "ledgerUnavailable", `tracks: LEDGER_UNAVAILABLE: ${path}: ${errorMessage(e)}`);
  }
}

/** Run a write and print the track's new state; a rule refusal is `refused` (exit 3). */
export function write(ctx: Ctx, json: boolean, fn: () => TrackState): "ok" {
  let t: TrackState;
  try {
    t = fn();
  } catch (e) {
    if (e instanceof TrackRuleError) failWith(TRACK_EXITS, "refused", `tracks: ${e.message}`);
    throw e;
  }
  printDoc(ctx, t, json);
  return "ok";
}
