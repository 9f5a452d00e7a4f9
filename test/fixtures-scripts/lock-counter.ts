/**
 * Child process for the lock mutual-exclusion test: `iterations` times, take the lock, read a counter file, pause,
 * write counter + 1, release. Any overlap between holders loses an increment.
 * Usage: bun lock-counter.ts <lock-path> <counter-file> <iterations> [pid]
 * With "pid", the fallback pid lock file is used instead of flock (DECISIONS D33).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { acquireLock, acquirePidLock } from "../../src/lib/lock.ts";

const [lockPath, counter, itText, mode] = process.argv.slice(2);
if (!lockPath || !counter || !itText) {
  process.stderr.write("usage: lock-counter.ts <lock-path> <counter-file> <iterations> [pid]\n");
  process.exitCode = 2;
} else {
  const take = mode === "pid" ? acquirePidLock : acquireLock;
  for (let i = 0; i < Number(itText); i++) {
    const release = take(lockPath, 30_000);
    try {
      let n = 0;
      try {
        n = Number(readFileSync(counter, "utf8"));
      } catch {
        /* first increment */
      }
      Bun.sleepSync(1);
      writeFileSync(counter, String(n + 1));
    } finally {
      release();
    }
  }
}
