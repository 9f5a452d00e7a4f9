/** What the succession commands share on the command side: mapping the domain's typed errors to their exits. */
import { SuccessionError } from "../../src/succession/master/errors.ts";
import { InputError } from "../../src/succession/master/io.ts";

/**
 * A succession command's run whose input-file errors (InputError: unreadable, not JSON) and refusals of its input or
 * of Orca's answer (SuccessionError) are its `usage` row, the error's line as it is:
 * `run: successionRun(async ({ ctx, args, fail }) => ...)`.
 */
export function successionRun<R extends { fail: (name: "usage", message: string) => never }, const T>(run: (rc: R) => Promise<T>): (rc: R) => Promise<T> {
  return async (rc) => {
    try {
      return await run(rc);
    } catch (e) {
      if (e instanceof InputError || e instanceof SuccessionError) return rc.fail(e.kind, e.message);
      throw e;
    }
  };
}
