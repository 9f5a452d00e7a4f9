/** Shared bits of the `mogui tracks` commands: ledger resolution (D2), the runtime, error mapping, output. */
import type { MoguiArgDef } from "../lib/args.ts";
import { resolveStatePath, type Ctx } from "../lib/context.ts";
import { ExitError } from "../lib/errors.ts";
import { LedgerError } from "../lib/ledger.ts";
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
    for (const w of rt.warnings) ctx.io.stderr(`tracks: warning: ${path}: ${w}\n`);
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

