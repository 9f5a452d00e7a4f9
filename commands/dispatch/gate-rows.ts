/** The gate command family (dispatch-gate): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { CommandEntry } from "../entry.ts";

export const commands = {
  "dispatch-gate": {
    summary: "The dispatch gate; `dispatch-gate --ledger <path> <sub> ...` form (routes to the subcommands)",
    group: "Dispatch",
    load: () => import("./dispatch-gate/index.ts"),
  },
  "dispatch-gate check": {
    summary: "Allow or deny a worker dispatch (tier caps, lint, budget, routing); issues a ticket",
    group: "Dispatch",
    load: () => import("./dispatch-gate/check.ts"),
  },
  "dispatch-gate register": {
    summary: "Bind a started job to its allowed dispatch (ticket, orchestration, job and model probes)",
    group: "Dispatch",
    load: () => import("./dispatch-gate/register.ts"),
  },
  "dispatch-gate watch": {
    summary: "Detect a stalled worker from its log's idle time",
    group: "Dispatch",
    load: () => import("./dispatch-gate/watch.ts"),
  },
  "dispatch-gate report": {
    summary: "Summarise the gate ledger: models, denials, tiers, policies, overrides, registrations",
    group: "Dispatch",
    load: () => import("./dispatch-gate/report.ts"),
  },
} satisfies Record<string, CommandEntry>;

const LEDGER_FAULT = "ledger unreadable, unwritable, corrupt (line named) or gate lock not taken: `dispatch-gate: LEDGER_UNAVAILABLE: <why>`";

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "dispatch-gate": [
    { code: 0, meaning: "the subcommand's own 0 (or --help)" },
    { code: 2, meaning: "no or unknown subcommand, bad global flag; otherwise the subcommand's own 2" },
    { code: 3, meaning: "watch: the log is stalled" },
  ],
  "dispatch-gate check": [
    { code: 0, meaning: "ALLOW: the decision JSON has allow=true (warnings may be present)" },
    { code: 2, meaning: `DENY (any reason code), usage error, or ${LEDGER_FAULT}` },
  ],
  "dispatch-gate register": [
    { code: 0, meaning: "ALLOW: registered; the ticket is consumed and the register + dispatch_submitted rows appended" },
    { code: 2, meaning: `DENY (INVALID_REQUEST, NO_MATCHING_TICKET, AMBIGUOUS_TICKET, ORCHESTRATION_UNVERIFIED, UNVERIFIED_JOB, MODEL_TIER_ESCALATION), usage error, or ${LEDGER_FAULT}` },
  ],
  "dispatch-gate watch": [
    { code: 0, meaning: "OK: the log moved within --max-idle seconds" },
    { code: 2, meaning: "MISSING: the log does not exist (stderr `dispatch-gate: LOG_MISSING`), or a usage error" },
    { code: 3, meaning: "STALLED: idle longer than --max-idle (stderr `dispatch-gate: STALLED`)" },
  ],
  "dispatch-gate report": [
    { code: 0, meaning: "report printed (a missing ledger is an empty report)" },
    { code: 2, meaning: `usage error, or ${LEDGER_FAULT}` },
  ],
};
