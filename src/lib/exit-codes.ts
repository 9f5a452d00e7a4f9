/**
 * The one exit-code table. `mogui help exit-codes` renders it, commands return codes from it and the
 * command-level tests check every row, so a code that is not here does not exist.
 */
export const GLOBAL_EXIT = {
  OK: 0, // the command did what was asked
  INTERNAL: 1, // an unexpected failure inside mogui (one line on stderr; the stack only with --debug)
  USAGE: 2, // unknown command or flag, missing or conflicting flags, a malformed value
} as const;

export interface ExitCodeRow {
  code: number | string;
  meaning: string;
}

/** Per-command tables. Keys are command paths as typed after `mogui`. */
export const EXIT_CODES: Record<string, readonly ExitCodeRow[]> = {
  "(every command)": [
    { code: 0, meaning: "success" },
    { code: 1, meaning: "internal error (one line on stderr; stack trace only with --debug)" },
    { code: 2, meaning: "usage error: unknown command or flag, missing or conflicting flags, bad value" },
  ],
  "worker-reap": [
    { code: 0, meaning: "reaped (or planned with --dry-run); --unreaped listed the ledger" },
    { code: 1, meaning: "terminal close or worktree remove failed, orca missing, timed out or killed, no dispatch for the task, ledger append failed after acting" },
    { code: 2, meaning: "usage: none or both of --task-id/--dispatch-id; ledger unreadable, unwritable, corrupt or locked" },
    { code: 3, meaning: "dispatch not settled: refusing to reap an open dispatch" },
    { code: 4, meaning: "dispatch-show (or task-list) printed JSON that is not a dispatch" },
    { code: "N", meaning: "orca's own non-zero exit code when an orca call itself fails (dispatch-show, task-list, terminal close)" },
  ],
  demo: [
    { code: 0, meaning: "every demo step behaved as documented" },
    { code: 1, meaning: "a step did not (the failing step is named on stderr)" },
  ],
  "sim orca": [
    { code: 0, meaning: "the simulated call succeeded" },
    { code: 1, meaning: "the simulated call failed like the real Orca CLI (error envelope), or an injected fault" },
    { code: "N", meaning: "an injected exit code" },
  ],
} as const;

export const WORKER_REAP_EXIT = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  NOT_SETTLED: 3,
  UNPARSEABLE: 4,
} as const;
