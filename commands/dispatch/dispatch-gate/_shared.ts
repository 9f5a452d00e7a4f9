/** What the dispatch-gate commands share: the decision printer, the exit rows, warnings, flag parsing. */
import type { Ctx } from "../../../src/lib/context.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import type { LedgerWarning } from "../../../src/lib/ledger.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { decisionJson, denyLine, type GateDecision } from "../../../src/dispatch/gate/reasons.ts";

const LEDGER_FAULT = "ledger unreadable, unwritable, corrupt (line named) or gate lock not taken: `dispatch-gate: LEDGER_UNAVAILABLE: <why>`";

/**
 * The rows the gate subcommands share. D18: every ledger fault is one clean line and exit 2, mapped once by main
 * (SHARED_ERRORS: a LedgerError under run becomes `dispatch-gate: LEDGER_UNAVAILABLE: <why>`).
 */
export const GATE_EXITS = {
  ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: LEDGER_FAULT },
} as const;

export function gateWarn(ctx: Ctx): (w: LedgerWarning) => void {
  return (w) => logger(ctx, "dispatch-gate").warn(`${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}`);
}

/** Print the one JSON document (compact, sorted keys); on deny the D11 diagnostic goes to stderr. */
export function emitDecision(ctx: Ctx, d: GateDecision, notes: readonly string[] = []): "ok" | "deny" {
  printDoc(ctx, decisionJson(d), true);
  if (d.allow) return "ok";
  // The D11 deny line, pinned byte for byte by the reference's tests: written as is, not through the logger.
  ctx.io.stderr(denyLine(d));
  for (const n of notes) logger(ctx, "dispatch-gate").log(n);
  return "deny";
}

/**
 * argparse `type=int` (reference §3.2, `--agents` and `--est-chars` of check): an optional sign and digits, `_`
 * between digits and surrounding blanks allowed; anything else is a usage error. Not the command model's `int`:
 * the reference accepts `1_000` and hands a negative or zero count to validation, which DENIES it with
 * INVALID_REQUEST and a decision document (a usage error would print none).
 */
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
