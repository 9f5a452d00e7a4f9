/**
 * The exit codes every command shares, and the row shape help renders. Each command declares its own rows beside
 * its definition (`exits`, src/lib/exits.ts); `mogui help exit-codes` renders EVERY_COMMAND, then each command's.
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

export const EVERY_COMMAND: readonly ExitCodeRow[] = [
  { code: 0, meaning: "success" },
  { code: 1, meaning: "internal error (one line on stderr; stack trace only with --debug)" },
  { code: 2, meaning: "usage error: unknown command or flag, missing or conflicting flags, bad value" },
];

export const WORKER_REAP_EXIT = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  NOT_SETTLED: 3,
  UNPARSEABLE: 4,
} as const;
