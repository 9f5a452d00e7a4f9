/** Shared bits of the `mogui tracks` commands: ledger resolution (D2), the runtime, error mapping, output. */
import type { MoguiArgDef } from "../lib/args.ts";
import { resolveStatePath, type Ctx } from "../lib/context.ts";
import { ExitError } from "../lib/errors.ts";
import { boundedWarnings, LedgerError } from "../lib/ledger.ts";
import { emit } from "../succession/io.ts";
import { TrackRuleError, WORK_LEDGER_ENV, WORK_LEDGER_FILE, WorkspaceRuntime, type TrackState } from "./ledger.ts";

export const TRACK_REFUSED_EXIT = 3;

export const ledgerArg: MoguiArgDef = {
  type: "string",
  valueHint: "path",
  description: `Work ledger (default $${WORK_LEDGER_ENV}, else $MOGUI_HOME/${WORK_LEDGER_FILE})`,
};
export const jsonArg: MoguiArgDef = { type: "boolean", description: "Compact JSON (default: indented JSON)" };
export const idArg: MoguiArgDef = { type: "positional", required: true, description: "The track id" };

export function runtime(ctx: Ctx, flag: string | undefined): WorkspaceRuntime {
  const path = resolveStatePath(ctx, flag, WORK_LEDGER_ENV, WORK_LEDGER_FILE);
  try {
    const rt = new WorkspaceRuntime(path);
    // Bounded (at most 10 of a kind): a ledger full of foreign rows must not become one stderr line per row.
    const sink = boundedWarnings((w) => ctx.io.stderr(`tracks: warning: ${w.path}: ${w.line ? `line ${w.line}: ` : ""}${w.message}\n`));
    for (const w of rt.warnings) {
      const m = /^line (\d+): ([\s\S]*)$/.exec(w);
      sink.warn({ path, line: m ? Number(m[1]) : 0, message: m ? m[2]! : w });
    }
    sink.flush();
    rt.onLedgerWarning = (w) => ctx.io.stderr(`tracks: warning: ${w.path}: ${w.message}\n`);
    return rt;
  } catch (e) {
    throw new ExitError(2, `tracks: LEDGER_UNAVAILABLE: ${path}: ${(e as Error).message}`);
  }
}

/** Run a write; a rule refusal is exit 3, an unusable ledger exit 2. */
export function write(ctx: Ctx, json: boolean, fn: () => TrackState): number {
  let t: TrackState;
  try {
    t = fn();
  } catch (e) {
    if (e instanceof TrackRuleError) throw new ExitError(TRACK_REFUSED_EXIT, `tracks: ${e.message}`);
    if (e instanceof LedgerError) throw new ExitError(2, `tracks: LEDGER_UNAVAILABLE: ${e.message}`);
    throw e;
  }
  emit(ctx, t, json);
  return 0;
}

