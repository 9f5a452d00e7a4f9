/** The Workers family (help group "Workers"): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
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
  "worker-reap": {
    summary: "Reap a settled worker: close its terminal, remove its worktree only when clean and merged",
    load: () => import("./worker-reap.ts"),
  },
} satisfies Record<string, FamilyRow>;

const LEDGER = { code: 2, meaning: "usage; jobs ledger unreadable, unwritable, corrupt or locked (LEDGER_UNAVAILABLE); unknown job" } as const;
const HOST = { code: 1, meaning: "the host (herdr / orca) or git failed: missing executable, timeout, error reply" } as const;

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "worker classify": [
    { code: 0, meaning: "classified: T and spawn_mode printed" },
    { code: 2, meaning: "usage; surface policy missing or invalid; git diff failed" },
    { code: 3, meaning: "NEEDS_CLASSIFICATION: a path no surface names; nothing may be spawned" },
    { code: 4, meaning: "refused: downgrade below the surface floor, or a grade rule (verifier below implementer, promotion past the adjacent grade)" },
  ],
  "worker brief-lint": [
    { code: 0, meaning: "clean" },
    { code: 1, meaning: "findings (one line each: file:line: CODE: message)" },
    { code: 2, meaning: "usage; the brief is unreadable" },
  ],
  "worker spawn": [
    { code: 0, meaning: "spawned and the brief landed (or did not land without --landing-strict: warned, recorded)" },
    HOST,
    { code: 2, meaning: "usage; brief, policy or ledger unreadable; worktree inside the canonical checkout" },
    { code: 3, meaning: "NEEDS_CLASSIFICATION: nothing spawned" },
    { code: 4, meaning: "refused: the brief's T is below the surface floor (downgrade), or a grade rule" },
    { code: 5, meaning: "refused: the agent name (or job id) is taken; the holder is named" },
    { code: 6, meaning: "refused: the filled brief is not lint-clean" },
    { code: 7, meaning: "T0: no-spawn (make the change directly)" },
    { code: 76, meaning: "--landing-strict: the brief did not land (the job is still recorded)" },
  ],
  "worker verify-push": [
    { code: 0, meaning: "the remote branch is at the claimed SHA" },
    { code: 1, meaning: "git ls-remote failed" },
    LEDGER,
    { code: 3, meaning: "mismatch or no such remote branch (both SHAs named)" },
  ],
  "worker verdict": [
    { code: 0, meaning: "recorded: pass, rework round opened, or a self-check (not independent)" },
    { code: 2, meaning: "usage; findings unreadable or a bad severity; ledger unavailable; unknown job" },
    { code: 3, meaning: "refused: T3 verifier of the implementer's provider family (or unknown family), or verifier grade too low" },
    { code: 4, meaning: "a 4th rework round was refused: the job is marked escalated" },
    { code: 5, meaning: "the job is already terminal" },
  ],
  "worker decide": [
    { code: 0, meaning: "decision recorded" },
    LEDGER,
    { code: 3, meaning: "merged refused: no passing verify-push, an open rework round, or (T2/T3) no independent pass" },
    { code: 5, meaning: "the job is already terminal" },
  ],
  "worker collect": [
    { code: 0, meaning: "every job was kept or closed (or would be, in a dry run) as its rules say" },
    { code: 1, meaning: "a pane close failed, or the host failed" },
    LEDGER,
  ],
  "worker sweep": [
    { code: 0, meaning: "the workspace was classified (and dead tabs closed with --execute)" },
    { code: 1, meaning: "a pane close failed, or the host failed" },
    LEDGER,
  ],
  "worker reps add": [
    { code: 0, meaning: "recorded" },
    LEDGER,
    { code: 3, meaning: "refused by the honesty rules: token counts without a source, rounds or blockers that disagree with the ledger" },
  ],
  "worker reps report": [
    { code: 0, meaning: "report printed" },
    LEDGER,
  ],
  "worker status": [
    { code: 0, meaning: "status printed" },
    HOST,
    LEDGER,
  ],
};
