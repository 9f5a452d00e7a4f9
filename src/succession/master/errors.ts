/**
 * Succession failures, typed: the commands map them to their declared exits (commands/succession/_shared.ts). A
 * SuccessionError is the `usage` row (2) of §5; a SpawnFailure one of the spawn rows (20-26), declared here once.
 */
import { KindError } from "../../lib/errors.ts";
import type { Exits } from "../../lib/exits.ts";

/** The spawn failures of §5: `master-succeed spawn` spreads these rows into its exits. */
export const SPAWN_FAILURES = {
  createError: { code: 20, meaning: "SPAWN_CREATE_ERROR: orca terminal create failed or answered ok:false" },
  parseError: { code: 21, meaning: "SPAWN_PARSE_ERROR: the create reply lacks JSON, the terminal, its handle or worktreeId" },
  worktreeMismatch: { code: 22, meaning: "SPAWN_WORKTREE_MISMATCH: the terminal is not in the requested worktree" },
  closeError: { code: 23, meaning: "SPAWN_CLOSE_ERROR: closing the terminal it created failed" },
  handleStale: { code: 24, meaning: "SPAWN_HANDLE_STALE: reported handle not live, no unique titled replacement (nothing closed)" },
  listError: { code: 25, meaning: "SPAWN_LIST_ERROR: the scoped pre-snapshot or liveness list failed" },
  placementMismatch: { code: 26, meaning: "SPAWN_PLACEMENT_MISMATCH: the terminal is not where --expected-placement says" },
} as const satisfies Exits;

export type SpawnFailureKind = keyof typeof SPAWN_FAILURES;

/** A succession step refused its input or Orca's answer: the commands' `usage` row (one line, no help hint). */
export class SuccessionError extends Error {
  readonly kind = "usage";
  constructor(message: string) {
    super(message);
    this.name = "SuccessionError";
  }
}

/** Why a successor spawn stopped: `kind` is the spawn row it exits with. */
export class SpawnFailure extends KindError<SpawnFailureKind> {
  override name = "SpawnFailure";
  constructor(message: string, kind: SpawnFailureKind) {
    super(kind, message);
  }
}
