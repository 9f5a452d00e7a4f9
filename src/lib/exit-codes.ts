/**
 * Exit-code rows. Converted commands declare theirs beside their definition (`exits`, src/lib/exits.ts); the rest
 * still keep rows in commands/families/*.ts until converted. `mogui help exit-codes` renders both.
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
