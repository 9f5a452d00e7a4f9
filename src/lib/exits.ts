/**
 * Exit codes are declared once, beside each command (`exits`); this file holds the rows every command shares and
 * the shared errors that are mapped once (D35). A command's run returns one of its exit NAMES, or throws
 * `fail(name, message)`; src/main.ts turns names into numbers.
 */
import { ExitError } from "./errors.ts";

export interface ExitDef {
  /** "N" documents a forwarded code (see forward()). */
  code: number | "N";
  meaning: string;
}
export type Exits = Record<string, ExitDef>;

/** The rows of every command: success, an internal failure, a usage error. */
export const COMMON_EXITS = {
  ok: { code: 0, meaning: "success" },
  internal: { code: 1, meaning: "internal error (one line on stderr; stack trace only with --debug)" },
  usage: { code: 2, meaning: "usage error: unknown command or flag, missing or conflicting flags, bad value" },
} as const satisfies Exits;

/** A named exit carried by an error: thrown from run (or from src/ for shared errors) and resolved by main. */
export class NamedExit extends ExitError {
  constructor(
    readonly exitName: string,
    code: number,
    message: string,
  ) {
    super(code, message);
    this.name = "NamedExit";
  }
}

/** The exit a command's run returns or throws: one of its declared names. */
export function exitCode(exits: Exits, name: string): number {
  const row = exits[name] ?? (COMMON_EXITS as Exits)[name];
  if (!row || typeof row.code !== "number") throw new Error(`exit '${name}' is not declared`);
  return row.code;
}

/**
 * Errors many commands share, mapped once (by the error's name, so main needs not import the modules that throw
 * them): a command that declares the exit gets `<cmd>: <LABEL>: <message>` and that exit's code.
 */
export const SHARED_ERRORS: Record<string, { exit: string; label: string }> = {
  LedgerError: { exit: "ledgerUnavailable", label: "LEDGER_UNAVAILABLE" },
  OrcaError: { exit: "orcaFailed", label: "ORCA_FAILED" },
};

/** The shared rows, declared once: spread into a command's exits with its own meaning where it differs. */
export const SHARED_EXITS = {
  ledgerUnavailable: { code: 2, meaning: "the ledger cannot be read or written (LEDGER_UNAVAILABLE)" },
  orcaFailed: { code: 1, meaning: "an orca call failed: missing, timed out, killed, or an error envelope (ORCA_FAILED)" },
} as const satisfies Exits;

/** A code handed through untouched (a simulator's or a wrapped CLI's own exit code): the `N` row of a table. */
export type Forwarded = number & { readonly forwarded: true };
export function forward(code: number): Forwarded {
  return code as Forwarded;
}

/** A group's own rows: what `mogui <group> ...` exits with before a subcommand runs. */
export const GROUP_EXITS = {
  ok: { code: 0, meaning: "as the subcommand (--help: this text)" },
  usage: { code: 2, meaning: "no or unknown subcommand, or a flag before it that the subcommand does not take" },
  forwarded: { code: "N", meaning: "the subcommand's own exit code" },
} as const satisfies Exits;

/**
 * The codes main itself returns, from the one declaration of the shared rows (COMMON_EXITS), and the row shape help
 * renders: `mogui help exit-codes` renders EVERY_COMMAND, then each command's declared rows.
 */
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
