/** The Workers family (help group "Workers"): its rows of the loader map (each command declares its own exits). */
import type { FamilyRow } from "../entry.ts";

export const title = "Workers";

export const commands = {
  "worker classify": { summary: "Scale T0-T3 and spawn_mode from the change surface (a lower T is refused)", load: () => import("./worker/classify.ts") },
  "worker brief-lint": { summary: "Check a brief: six parts, declared T, e2e environment, directives mapped to observable criteria", load: () => import("./worker/brief-lint.ts") },
  "worker spawn": { summary: "Spawn a worker in a fresh worktree and prove its brief landed", load: () => import("./worker/spawn.ts") },
  "worker verify-push": { summary: "Check a worker's pushed SHA with git ls-remote", load: () => import("./worker/verify-push.ts") },
  "worker verdict": { summary: "Record a verifier's findings: BLOCKERs open rounds (cap 3), T3 needs another provider family", load: () => import("./worker/verdict.ts") },
  "worker decide": { summary: "Record a job's end: merged (needs a verified push), closed or escalated", load: () => import("./worker/decide.ts") },
  "worker collect": { summary: "Close the owner's finished worker panes (terminal job + report file + not working)", load: () => import("./worker/collect.ts") },
  "worker sweep": { summary: "Sweep a workspace from the pane list: close dead tabs, list the rest", load: () => import("./worker/sweep.ts") },
  "worker reps add": { summary: "Record a measured run honestly (no guessed token counts)", load: () => import("./worker/reps-add.ts") },
  "worker reps report": { summary: "Aggregate recorded runs by launch profile model@effort", load: () => import("./worker/reps-report.ts") },
  "worker status": { summary: "The owner's jobs: host status, stuck detection, held transitions", load: () => import("./worker/status.ts") },
  worker: { summary: "Worker jobs: classify, spawn, verify, decide, collect (group)", hidden: true, load: () => import("./worker/index.ts") },
  "worker reps": { summary: "Measured runs: add, report (group)", hidden: true, load: () => import("./worker/reps/index.ts") },
  "worker-reap": {
    summary: "Reap a settled worker: close its terminal, remove its worktree only when clean and merged",
    load: () => import("./worker-reap.ts"),
  },
} satisfies Record<string, FamilyRow>;

// Every command of the family declares its own `exits` beside its definition.
