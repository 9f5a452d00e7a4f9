/** The gate command family (dispatch-gate): its rows of the loader map and of the exit-code table. */
import type { ExitCodeRow } from "../../src/lib/exit-codes.ts";
import type { CommandEntry } from "../entry.ts";

export const commands = {} satisfies Record<string, CommandEntry>;

export const exitCodes: Record<string, readonly ExitCodeRow[]> = {};
