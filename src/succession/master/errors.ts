/** Succession failures: a message for stderr and the exit code of §5 (2 by default, 20-26 for spawn). */
import { ExitError } from "../../lib/errors.ts";

export const SPAWN_EXIT = {
  CREATE_ERROR: 20, // orca terminal create failed or answered ok:false
  PARSE_ERROR: 21, // the create reply is not JSON, or lacks the terminal, its handle or its worktreeId
  WORKTREE_MISMATCH: 22, // the created terminal is not in the requested worktree
  CLOSE_ERROR: 23, // cleanup tried to close the terminal it created and the close failed
  HANDLE_STALE: 24, // the reported handle is not live and no unique titled replacement exists
  LIST_ERROR: 25, // the scoped pre-snapshot or liveness list failed
  PLACEMENT_MISMATCH: 26, // the created terminal is not where --expected-placement says
} as const;

export class SuccessionError extends ExitError {
  constructor(message: string, code = 2) {
    super(code, message);
    this.name = "SuccessionError";
  }
}
