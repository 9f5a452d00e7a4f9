/** The Dispatch family (help group "Dispatch"): its rows of the loader map (each command declares its own exits). */
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

/** Every Dispatch command declares its exits beside its definition (D35): no rows left here. */
