/**
 * What each injected fault does to the process. `legacy` and `survive_close` change a command's own output and
 * are handled there; the others replace the command entirely.
 */
import type { Ctx } from "../../../lib/context.ts";
import { SimError } from "./errors.ts";
import { ORCA_EXIT, printError } from "./output.ts";
import type { CallLog } from "./run.ts";
import type { Store } from "./store.ts";
import type { Fault } from "./types.ts";

/** About an hour: the caller's timeout must kill us. ORCA_SIM_HANG_MS shortens it for in-process tests. */
const HANG_MS = 3_600_000;

function runtimeIdOf(store: Store | null): string | null {
  try {
    return store ? store.runtimeId() : null;
  } catch {
    return null;
  }
}

/** The exit code when the fault ends the call; undefined when the command runs (in a faulted mode). */
export async function applyFault(ctx: Ctx, f: Fault, json: boolean, store: Store | null, log: CallLog): Promise<number | undefined> {
  switch (f.mode) {
    case "exit":
      // The injected faults stand in for the real orca's stderr: written as is.
      ctx.io.stderr("orca: injected failure\n");
      return f.code ?? ORCA_EXIT.ERROR;
    case "malformed":
      ctx.io.stdout('{"ok":tru\n');
      return ORCA_EXIT.OK;
    case "error_envelope":
      return printError(ctx.io, json, new SimError("runtime_error", "injected failure"), runtimeIdOf(store));
    case "hang":
      log.write(null);
      await Bun.sleep(Number(ctx.env.ORCA_SIM_HANG_MS) || HANG_MS);
      ctx.io.stderr("orca: injected hang ended without being killed\n");
      return ORCA_EXIT.ERROR;
    default:
      return undefined;
  }
}
