/**
 * Child process for the ledger concurrency test: appends `count` rows `{writer, seq, text}` to one ledger, one
 * appendRow call per row. Usage: bun ledger-writer.ts <ledger> <writer-id> <count>
 */
import { appendRow } from "../../src/lib/ledger.ts";

const [path, writer, countText] = process.argv.slice(2);
if (!path || !writer || !countText) {
  process.stderr.write("usage: ledger-writer.ts <ledger> <writer-id> <count>\n");
  process.exitCode = 2;
} else {
  const count = Number(countText);
  // Rows of varying length (and multi-byte text) so a torn or interleaved write could not go unnoticed.
  for (let seq = 0; seq < count; seq++) {
    appendRow(path, { writer, seq, text: `기록 ${writer}/${seq} ${"x".repeat((seq * 7) % 50)}` }, { lockTimeoutMs: 30_000 });
  }
}
