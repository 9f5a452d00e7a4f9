/** Orca's error envelope as a throwable: handlers throw, the pipeline prints it the way the real CLI would. */

export class SimError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data?: Record<string, unknown>,
    /** CLI-local errors print `"id":"local"` and `_meta.runtimeId: null`; runtime errors keep both ids. */
    readonly local = false,
  ) {
    super(message);
    this.name = "SimError";
  }
}

export function invalidArgument(message: string, data?: Record<string, unknown>): SimError {
  return new SimError("invalid_argument", message, data, true);
}

export function runtimeUnavailable(): SimError {
  return new SimError("runtime_unavailable", "Orca is not running.", undefined, true);
}

export function noSender(): SimError {
  return new SimError(
    "no_active_sender_terminal",
    "Could not determine the sender terminal. Pass --from <handle> or run this command inside an Orca terminal.",
    { nextSteps: ["Pass --from <term_handle>, or run the command from inside an Orca terminal (ORCA_TERMINAL_HANDLE)."] },
    true,
  );
}

export function terminalNotFound(handle: string): SimError {
  return new SimError("terminal_not_found", `Terminal not found: ${handle}`, {
    handle,
    nextSteps: ["Run 'orca terminal list --json' to see live terminal handles."],
  });
}
