/** The Dispatch family (help group "Dispatch"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { FamilyRow } from "../entry.ts";

export const title = "Dispatch";

export const commands = {
  dispatch: {
    summary: "Supervised worker dispatch: gate, Orca task + terminal + inject, register, delivery check",
    load: () => import("./dispatch.ts"),
  },
  "dispatch-collision-check": {
    summary: "Warn when a contract's scope overlaps open PRs or other contracts still in flight (always exit 0)",
    load: () => import("./dispatch-collision-check.ts"),
  },
  "codex-worker-pretrust": {
    summary: "Mark a worktree trusted in every Codex account's config.toml (byte-preserving, verified edits)",
    load: () => import("./codex-worker-pretrust.ts"),
  },
  "cursor-worker-pretrust": {
    summary: "Write Cursor's trust marker for a worktree (no symlinks followed, atomic write)",
    load: () => import("./cursor-worker-pretrust.ts"),
  },
  "dispatch-gate": {
    summary: "The dispatch gate; `dispatch-gate --ledger <path> <sub> ...` form (routes to the subcommands)",
    load: () => import("./dispatch-gate/index.ts"),
  },
  "dispatch-gate check": {
    summary: "Allow or deny a worker dispatch (tier caps, lint, budget, routing); issues a ticket",
    load: () => import("./dispatch-gate/check.ts"),
  },
  "dispatch-gate register": {
    summary: "Bind a started job to its allowed dispatch (ticket, orchestration, job and model probes)",
    load: () => import("./dispatch-gate/register.ts"),
  },
  "dispatch-gate watch": {
    summary: "Detect a stalled worker from its log's idle time",
    load: () => import("./dispatch-gate/watch.ts"),
  },
  "dispatch-gate report": {
    summary: "Summarise the gate ledger: models, denials, tiers, policies, overrides, registrations",
    load: () => import("./dispatch-gate/report.ts"),
  },
  "workstream-render": {
    summary: "One local day of the dispatch ledger as a markdown table",
    load: () => import("./workstream-render.ts"),
  },
} satisfies Record<string, FamilyRow>;

const LEDGER_FAULT = "ledger unreadable, unwritable, corrupt (line named) or gate lock not taken: `dispatch-gate: LEDGER_UNAVAILABLE: <why>`";

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  dispatch: [
    { code: 0, meaning: "dispatched and registered (delivery agent-started or UNVERIFIED), or --check-only passed the dry gate" },
    { code: 1, meaning: "contract file missing, or --spec missing without --check-only" },
    { code: 2, meaning: "refused before anything started: gate DENY, model/runtime vendor mismatch, top tier without --top-approved, no Orca Run bound (without --run-create), codex pre-trust failed, bad tier policy / instance config / ledger; or a usage error" },
    { code: 3, meaning: "an Orca step failed (run-current/run-create, task-create, terminal create, dispatch --inject), or answered so late that Orca could not say what it did; nothing was registered (a worker that may run is named with the worker-reap command); a dispatch that never started is recorded dispatch_aborted" },
    { code: 4, meaning: "register denied or failed after the inject: the worker IS running, resolve the registration by hand" },
    { code: 5, meaning: "delivery FAILED: the worker pane shows a trust/login gate or a provider limit" },
  ],
  "dispatch-collision-check": [
    { code: 0, meaning: "checked (fail-open): zero or more `WARNING: scope overlap ...` lines on stdout, whatever the ledger holds" },
    { code: 2, meaning: "usage error: no contract argument, an unknown flag" },
  ],
  "codex-worker-pretrust": [
    { code: 0, meaning: "every config trusted (added, updated or already), or no accounts directory (nothing to do)" },
    { code: 2, meaning: "usage, relative path or line break in the path, a config that does not parse, is not a table where one is needed, is a symlink or is reached through a symlinked account/home directory, or has no single verified edit; nothing was written" },
  ],
  "cursor-worker-pretrust": [
    { code: 0, meaning: "the trust marker was added, updated or already present" },
    { code: 2, meaning: "usage, relative or missing worktree, a symlink anywhere on the marker path (any ancestor of the projects dir included), an unreadable/invalid marker, or a marker for another workspace" },
  ],
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
  "workstream-render": [
    { code: 0, meaning: "table printed (header only when the day has no rows)" },
    { code: 2, meaning: "usage error (not a real YYYY-MM-DD day); the ledger is unreadable or has a corrupt line" },
  ],
};
