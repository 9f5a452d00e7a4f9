/** What the succession commands share on the command side: mapping the input-file helpers' error to the exit. */
import { InputError } from "../../src/succession/master/io.ts";

/**
 * Read a command's input file (readText, readJsonFile): one it cannot read or parse is its `usage` exit, the
 * error's line as it is: `readInput(fail, () => readText(ctx, path, NAME))`.
 */
export function readInput<T>(fail: (name: "usage", message: string) => never, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof InputError) return fail(e.kind, e.message);
    throw e;
  }
}
