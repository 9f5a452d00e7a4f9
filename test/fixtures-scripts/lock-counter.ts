/**
 * Child process for the lock mutual-exclusion test: `iterations` times, take the lock, read a counter file, pause,
 * write counter + 1, release. Any overlap between holders loses an increment.
 * Usage: bun lock-counter.ts <lock-path> <counter-file> <iterations>
 */
import { readFileSync, writeFileSync } from "node:fs";
import { withLock } from "../../src/lib/lock.ts";

const [lockPath, counter, itText] = process.argv.slice(2);
if (!lockPath || !counter || !itText) {
  process.stderr.write("usage: lock-counter.ts <lock-path> <counter-file> <iterations>\n");
  process.exitCode = 2;
} else {
  for (let i = 0; i < Number(itText); i++) {
    withLock(
      lockPath,
      () => {
        let n = 0;
        try {
          n = Number(readFileSync(counter, "utf8"));
        } catch {
          /* first increment */
        }
        Bun.sleepSync(1);
        writeFileSync(counter, String(n + 1));
      },
      30_000,
    );
  }
}
