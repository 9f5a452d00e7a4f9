/** Where the gate keeps its state (DECISIONS D2): flag > documented env var > $MOGUI_HOME default. */
import { join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { moguiHome, resolveStatePath } from "../../lib/context.ts";
import { spendLedgerPath } from "./spend-paths.ts";

export const LEDGER_ENV = "DISPATCH_GATE_LEDGER";
const LEDGER_FILE = "dispatch-ledger.jsonl";
/** How long to wait for the gate lock before giving up with LEDGER_UNAVAILABLE (default 10 s, D33). */
const LOCK_TIMEOUT_ENV = "DISPATCH_GATE_LOCK_TIMEOUT_MS";
export const DEFAULT_GATE_LOCK_TIMEOUT_MS = 10_000;

export interface GatePaths {
  ledger: string;
  ticketDir: string;
  knownRoots: string;
  lockTimeoutMs: number;
  /** D37: the spend ledger `mogui spend record` appends to ($MOGUI_SPEND_LEDGER, else $MOGUI_HOME/spend-ledger.jsonl). */
  spendLedger: string;
}

/** The gate ledger: the flag > $DISPATCH_GATE_LEDGER > $MOGUI_HOME/dispatch-ledger.jsonl (also `mogui dispatch`'s). */
export function gateLedgerPath(ctx: Pick<Ctx, "env" | "cwd">, ledgerFlag?: string): string {
  return resolveStatePath(ctx, ledgerFlag, LEDGER_ENV, LEDGER_FILE);
}

export function gatePaths(ctx: Pick<Ctx, "env" | "cwd">, ledgerFlag?: string): GatePaths {
  const home = moguiHome(ctx);
  return {
    ledger: gateLedgerPath(ctx, ledgerFlag),
    ticketDir: join(home, "dispatch-tickets"),
    knownRoots: join(home, "known-roots.json"),
    lockTimeoutMs: lockTimeout(ctx.env[LOCK_TIMEOUT_ENV]),
    spendLedger: spendLedgerPath(ctx),
  };
}

function lockTimeout(raw: string | undefined): number {
  const n = Number(raw);
  return raw && /^\d+$/.test(raw) && n >= 1 && n <= 600_000 ? n : DEFAULT_GATE_LOCK_TIMEOUT_MS;
}
