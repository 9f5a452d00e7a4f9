/** What the dispatch-gate commands share: the decision printer, ledger-fault mapping (D18), flag parsing. */
import type { Ctx } from "../../lib/context.ts";
import { ExitError, UsageError } from "../../lib/errors.ts";
import { LedgerError, type LedgerWarning } from "../../lib/ledger.ts";
import { sortedJson } from "../../lib/output.ts";
import { decisionJson, denyLine, type GateDecision } from "./reasons.ts";

export const GATE_EXIT = {
  OK: 0, // allow / status OK / report printed
  DENY: 2, // any denial, usage error, or ledger fault (D18); watch: log missing
  STALLED: 3, // watch only
} as const;

export function gateWarn(ctx: Ctx): (w: LedgerWarning) => void {
  return (w) => ctx.io.stderr(`dispatch-gate: warning: ${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}\n`);
}

/** D18: every ledger fault is one clean line and exit 2. */
export async function withLedgerFaults<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof LedgerError) throw new ExitError(GATE_EXIT.DENY, `dispatch-gate: LEDGER_UNAVAILABLE: ${e.message}`);
    throw e;
  }
}

/** Print the one JSON document; on deny the D11 diagnostic goes to stderr. */
export function emitDecision(ctx: Ctx, d: GateDecision, notes: readonly string[] = []): number {
  ctx.io.stdout(`${sortedJson(decisionJson(d))}\n`);
  if (d.allow) return GATE_EXIT.OK;
  ctx.io.stderr(denyLine(d));
  for (const n of notes) ctx.io.stderr(`dispatch-gate: ${n}\n`);
  return GATE_EXIT.DENY;
}

/** argparse `type=int`: an optional sign and digits (surrounding blanks allowed); anything else is a usage error. */
export function parseIntFlag(cmd: string, name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) throw new UsageError(`--${name} must be an integer (got '${raw}')`, cmd);
  const n = Number(t.replace(/_/g, ""));
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${name} is out of range (got '${raw}')`, cmd);
  return n;
}

export const LEDGER_FLAG = {
  type: "string",
  valueHint: "path",
  description: "Gate ledger (default $DISPATCH_GATE_LEDGER, else $MOGUI_HOME/dispatch-ledger.jsonl); may also precede the subcommand",
} as const;
