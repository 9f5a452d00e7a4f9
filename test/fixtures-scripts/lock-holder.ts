/**
 * Child process that takes a ledger's lock and then hangs, for the stale-lock and torn-append tests.
 * Usage: bun lock-holder.ts <ledger> [fragment]
 * With a fragment, it appends those bytes (no newline) to the ledger while holding the lock, like a writer that
 * is killed halfway through an append. It prints "ready" once the lock is held (and the fragment written), then
 * sleeps until it is killed.
 */
import { appendFileSync } from "node:fs";
import { acquireLock } from "../../src/lib/lock.ts";
import { lockPathFor } from "../../src/lib/ledger.ts";

const [path, fragment] = process.argv.slice(2);
if (!path) {
  process.stderr.write("usage: lock-holder.ts <ledger> [fragment]\n");
  process.exitCode = 2;
} else {
  acquireLock(lockPathFor(path), 5_000);
  if (fragment !== undefined) appendFileSync(path, fragment);
  process.stdout.write("ready\n");
  setInterval(() => {}, 1_000_000);
}
