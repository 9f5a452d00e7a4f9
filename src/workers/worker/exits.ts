/** Exit rows several `worker` commands share (spawn's domain code raises them too); declared once, spread by each. */
import { type Exits, SHARED_EXITS } from "../../lib/exits.ts";

/** Rows several `worker` commands share; each command spreads them with its own meaning where it differs. */
export const WORKER_EXITS = {
  hostFailed: { code: 1, meaning: "the host (herdr / orca) or git failed: missing executable, timeout, error reply" },
  ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "usage; jobs ledger unreadable, unwritable, corrupt or locked (LEDGER_UNAVAILABLE); unknown job" },
} as const satisfies Exits;
