/**
 * The exit codes every command shares, and the row shape help renders. Each command declares its own rows beside
 * its definition (`exits`, src/lib/exits.ts); `mogui help exit-codes` renders EVERY_COMMAND, then each command's.
 */
import { COMMON_EXITS } from "./exits.ts";

/** The codes main itself returns, from the one declaration of the shared rows (COMMON_EXITS). */
export const GLOBAL_EXIT = {
  OK: COMMON_EXITS.ok.code, // the command did what was asked
  INTERNAL: COMMON_EXITS.internal.code, // an unexpected failure inside mogui (one line on stderr; the stack only with --debug)
  USAGE: COMMON_EXITS.usage.code, // unknown command or flag, missing or conflicting flags, a malformed value
} as const;

export interface ExitCodeRow {
  code: number | string;
  meaning: string;
}

export const EVERY_COMMAND: readonly ExitCodeRow[] = Object.values(COMMON_EXITS);
