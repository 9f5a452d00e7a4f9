/**
 * The newest rows of a ledger, newest first, for the tier window: one positioned read per 1 MB chunk from the end,
 * a plain JSON.parse per line (no per-row schema: the caller checks the few fields it needs), and a stop as soon
 * as rows are older than the window (minus a slack for writers that append slightly out of order). A corrupt
 * line is an error naming its line number (counted only on that error path); a torn last line is a warning (D18).
 */
import { readSync } from "node:fs";
import { LedgerError, type LedgerWarning } from "../../lib/ledger.ts";
import { CHUNK, lineNumberAt, withLedger } from "./ledger-fd.ts";
import { errorMessage } from "../../lib/errors.ts";

const SLACK_SECONDS = 300;

/**
 * Call `onRow` for every object row whose numeric `ts` >= since (rows without a numeric ts are passed too; the
 * caller skips them), newest first. Reading stops at the first row older than `since - 300 s`. With
 * `completeOnly`, a last line without its newline is left out silently (a cache rebuilt from this scan ends at
 * the last newline and picks that line up once it is complete).
 */
export function tailRows(path: string, since: number, onRow: (row: Record<string, unknown>) => void, onWarning?: (w: LedgerWarning) => void, completeOnly = false): void {
  const floor = since - SLACK_SECONDS;
  withLedger(path, undefined, (fd, size) => {
    const tail = Buffer.alloc(1);
    if (size > 0) readSync(fd, tail, 0, 1, size - 1);
    let lastLinePending = size > 0 && tail[0] !== 0x0a; // the file's last line has no newline: it may be torn
    let end = size; // bytes [end, size) are done; `carry` holds the unread-start line's bytes from `end` on
    let carry: Buffer = Buffer.alloc(0);
    const buf = Buffer.alloc(CHUNK);
    while (end > 0) {
      const from = Math.max(0, end - CHUNK);
      let n: number;
      try {
        n = readSync(fd, buf, 0, end - from, from);
      } catch (e) {
        throw new LedgerError("unreadable", path, `read failed: ${errorMessage(e)}`);
      }
      const data = carry.length ? Buffer.concat([buf.subarray(0, n), carry]) : buf.subarray(0, n);
      // Lines that start inside this chunk: everything after its first newline (or all of it at the file start).
      const first = from === 0 ? -1 : data.indexOf(0x0a);
      if (from > 0 && first < 0) {
        carry = Buffer.from(data); // one line longer than the chunk: keep reading backwards
        end = from;
        continue;
      }
      const text = data.toString("utf8", first + 1);
      const lineNo = (nl: number) => lineNumberAt(fd, from + first + 1) + (text.slice(0, nl + 1).match(/\n/g)?.length ?? 0);
      let stop = text.length;
      while (stop > 0) {
        const nl = text.lastIndexOf("\n", stop - 1);
        const line = text.slice(nl + 1, stop);
        stop = Math.max(nl, 0);
        const isLast = lastLinePending;
        lastLinePending = false;
        if (line.trim() === "" || (isLast && completeOnly)) continue;
        let row: unknown;
        try {
          row = JSON.parse(line);
        } catch {
          row = undefined;
        }
        if (typeof row !== "object" || row === null || Array.isArray(row)) {
          if (isLast && row === undefined) {
            onWarning?.({ path, line: lineNo(nl), message: "torn last line (a writer died mid-append); skipped" });
            continue;
          }
          throw new LedgerError("corrupt", path, "corrupt line (invalid JSON or not an object)", lineNo(nl));
        }
        const r = row as Record<string, unknown>;
        if (typeof r.ts === "number" && r.ts < floor) return;
        onRow(r);
      }
      carry = first < 0 ? Buffer.alloc(0) : Buffer.from(data.subarray(0, first));
      end = from;
    }
  });
}
