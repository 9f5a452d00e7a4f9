/**
 * The one exit-code table. `mogui help exit-codes` renders it, commands return codes from it and the
 * command-level tests check every row, so a code that is not here does not exist.
 */
import { FAMILIES } from "../../commands/index.ts";

export const GLOBAL_EXIT = {
  OK: 0, // the command did what was asked
  INTERNAL: 1, // an unexpected failure inside mogui (one line on stderr; the stack only with --debug)
  USAGE: 2, // unknown command or flag, missing or conflicting flags, a malformed value
} as const;

export interface ExitCodeRow {
  code: number | string;
  meaning: string;
}

/** Per-command tables. Keys are command paths as typed after `mogui`; each family keeps its rows beside its loader map. */
export const EXIT_CODES: Record<string, readonly ExitCodeRow[]> = {
  "(every command)": [
    { code: 0, meaning: "success" },
    { code: 1, meaning: "internal error (one line on stderr; stack trace only with --debug)" },
    { code: 2, meaning: "usage error: unknown command or flag, missing or conflicting flags, bad value" },
  ],
  ...Object.assign({}, ...Object.values(FAMILIES).map((f) => f.exitCodes)),
};

export const WORKER_REAP_EXIT = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  NOT_SETTLED: 3,
  UNPARSEABLE: 4,
} as const;
