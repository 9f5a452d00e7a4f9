/** Typed errors. Commands throw these (or return a code); src/main.ts is the one place that maps them to exit codes. */
export class ExitError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "ExitError";
  }
}

/** A usage problem: exit 2, one line, plus a `Run 'mogui <cmd> --help'` hint. */
export class UsageError extends ExitError {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(2, message);
    this.name = "UsageError";
  }
}

/**
 * A domain failure, typed: domain code throws it and the command maps `kind` (the name of one of its declared exit
 * rows) to that exit with its own `fail`, so no exit code is decided below the command layer.
 */
export class KindError<K extends string> extends Error {
  constructor(
    readonly kind: K,
    message: string,
  ) {
    super(message);
    this.name = "KindError";
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** The errno name of a failed system call (`ENOENT`, `EEXIST`, ...), or undefined for any other error. */
export function errnoCode(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null || !("code" in e)) return undefined;
  const code = (e as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}
