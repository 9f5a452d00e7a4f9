/** The core family: the reaper, the demo and the simulator (the foundation issue). */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { CommandEntry } from "../entry.ts";

export const commands = {
  "worker-reap": {
    summary: "Reap a settled worker: close its terminal, remove its worktree only when clean and merged",
    group: "Workers",
    load: () => import("../worker-reap.ts"),
  },
  demo: {
    summary: "Run worker-reap end to end against the built-in Orca simulator in a temp dir",
    group: "Help",
    load: () => import("../demo.ts"),
  },
  "sim orca": {
    summary: "The stateful Orca CLI simulator (what fixtures/bin/orca runs)",
    group: "Developer",
    load: () => import("../sim/orca.ts"),
  },
} satisfies Record<string, CommandEntry>;

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {
  "worker-reap": [
    { code: 0, meaning: "reaped (or planned with --dry-run); --unreaped listed the ledger" },
    { code: 1, meaning: "terminal close or worktree remove failed, orca missing, timed out or killed, no dispatch for the task, ledger append failed after acting" },
    { code: 2, meaning: "usage: none or both of --task-id/--dispatch-id; ledger unreadable, unwritable, corrupt (a line before the last) or locked, checked before anything is closed; the surface policy unreadable or its reap.precious_ignored malformed" },
    { code: 3, meaning: "dispatch not settled: refusing to reap an open dispatch" },
    { code: 4, meaning: "dispatch-show (or task-list) printed JSON that is not a dispatch" },
    { code: "N", meaning: "orca's own non-zero exit code when an orca call itself fails (dispatch-show, task-list, terminal close)" },
  ],
  demo: [
    { code: 0, meaning: "every demo step behaved as documented" },
    { code: 1, meaning: "a step did not (the failing step is named on stderr)" },
    { code: 2, meaning: "usage error: an unknown flag or argument" },
  ],
  "sim orca": [
    { code: 0, meaning: "the simulated call succeeded" },
    { code: 1, meaning: "the simulated call failed like the real Orca CLI (error envelope), or an injected fault" },
    { code: "N", meaning: "an injected exit code" },
  ],
};
