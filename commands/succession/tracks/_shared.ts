/** Shared bits of the `mogui tracks` commands: arg fragments, exits, ledger resolution (D2), the runtime, output. */
import { ARGS } from "../../../src/lib/args.ts";
import { resolveStatePath, type Ctx } from "../../../src/lib/context.ts";
import { SHARED_EXITS, type Exits } from "../../../src/lib/exits.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { boundedWarnings } from "../../../src/lib/ledger.ts";
import { TrackRuleError, WORK_LEDGER_ENV, WORK_LEDGER_FILE, WorkspaceRuntime, type TrackState } from "../../../src/succession/tracks/ledger.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

export const ledgerArg = { ...ARGS.ledger, description: `Work ledger (default $${WORK_LEDGER_ENV}, else $MOGUI_HOME/${WORK_LEDGER_FILE})` } as const;
export const idArg = { type: "positional", required: true, description: "The track id" } as const;

/** The write commands' exits (register, update, close). A LedgerError maps to ledgerUnavailable (SHARED_ERRORS). */
export const TRACK_EXITS = {
  ok: { code: 0, meaning: "the event was appended; the track's new state is on stdout" },
  ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "usage, or the work ledger cannot be read or written" },
  refused: { code: 3, meaning: "refused by the ledger rules: already active (register), unknown or closed track (update, close)" },
} as const satisfies Exits;

/** A command's `fail` for the rows the helpers below map to. */
type Fail<N extends string> = (name: N, message: string) => never;

/** The work ledger's runtime; a ledger it cannot open is the command's ledgerUnavailable row. */
export function runtime(ctx: Ctx, flag: string | undefined, fail: Fail<"ledgerUnavailable">): WorkspaceRuntime {
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
    return fail("ledgerUnavailable", `tracks: LEDGER_UNAVAILABLE: ${path}: ${errorMessage(e)}`);
  }
}

/** Run a write and print the track's new state; a rule refusal is `refused` (exit 3). */
export function write(ctx: Ctx, json: boolean, fail: Fail<"refused">, fn: () => TrackState): "ok" {
  let t: TrackState;
  try {
    t = fn();
  } catch (e) {
    if (e instanceof TrackRuleError) fail("refused", `tracks: ${e.message}`);
    throw e;
  }
  printDoc(ctx, t, json);
  return "ok";
}
