/**
 * A fast whole-ledger scan for `report`: big sequential reads, one JSON.parse per line, nothing kept but what the
 * caller aggregates. Unlike readRows it hands over values that are valid JSON but not objects (report counts
 * those as malformed); invalid JSON is an error naming its line, except a torn LAST line, which is a warning (D18).
 */
import { LedgerError, type LedgerWarning } from "../../lib/ledger.ts";
import { readLines, withLedger } from "./ledger-fd.ts";
import { errorMessage } from "../../lib/errors.ts";

export function scanLedger(path: string, onValue: (value: unknown, line: number) => void, onWarning?: (w: LedgerWarning) => void): void {
  withLedger(path, undefined, (fd, size) => {
    let line = 0;
    const parse = (text: string, last: boolean) => {
      line++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        if (text.trim() === "") return;
        if (last) {
          onWarning?.({ path, line, message: "torn last line (a writer died mid-append); skipped" });
          return;
        }
        throw new LedgerError("corrupt", path, `corrupt line (invalid JSON: ${errorMessage(e)})`, line);
      }
      onValue(value, line);
    };
    const { rest } = readLines(path, fd, 0, size, (text) => parse(text, false));
    if (rest.length) parse(rest.toString("utf8"), true);
  });
}
