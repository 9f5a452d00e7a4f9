/** The dispatch command family: its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { CommandEntry } from "../entry.ts";

export const commands = {
  dispatch: {
    summary: "Supervised worker dispatch: gate, Orca task + terminal + inject, register, delivery check",
    group: "Dispatch",
    load: () => import("./dispatch.ts"),
  },
  "dispatch-collision-check": {
    summary: "Warn when a contract's scope overlaps open PRs or other contracts still in flight (always exit 0)",
    group: "Dispatch",
    load: () => import("./dispatch-collision-check.ts"),
  },
  "codex-worker-pretrust": {
    summary: "Mark a worktree trusted in every Codex account's config.toml (byte-preserving, verified edits)",
    group: "Dispatch",
    load: () => import("./codex-worker-pretrust.ts"),
  },
  "cursor-worker-pretrust": {
    summary: "Write Cursor's trust marker for a worktree (no symlinks followed, atomic write)",
    group: "Dispatch",
    load: () => import("./cursor-worker-pretrust.ts"),
  },
} satisfies Record<string, CommandEntry>;

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
};
