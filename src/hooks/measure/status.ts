/**
 * The exit statuses a wrapper reports for the program it ran (shell conventions, as `timeout` and sh use them):
 * `measure` prints and exits with them, `orca-wait` exits with them when its orca call fails. They are handed
 * through (the commands' `N` rows), not mogui's own exit codes.
 */
export const CHILD_STATUS = {
  /** A failure without a status of its own (an error envelope, no reply, no exit code). */
  failed: 1,
  /** The program did not finish within its timeout. */
  timedOut: 124,
  /** The executable was not found. */
  notFound: 127,
  /** Killed by signal N: 128 + N. */
  signalBase: 128,
} as const;
