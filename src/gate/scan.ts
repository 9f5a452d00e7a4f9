/**
 * A fast whole-ledger scan for `report`: big sequential reads, one JSON.parse per line, nothing kept but what the
 * caller aggregates. Unlike readRows it hands over values that are valid JSON but not objects (report counts
 * those as malformed); invalid JSON is an error naming its line, except a torn LAST line, which is a warning (D18).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { LedgerError, type LedgerWarning } from "../lib/ledger.ts";

const CHUNK = 1 << 20;

export function scanLedger(path: string, onValue: (value: unknown, line: number) => void, onWarning?: (w: LedgerWarning) => void): void {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new LedgerError("unreadable", path, `cannot open: ${(e as Error).message}`);
  }
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(CHUNK);
    let carry: Buffer = Buffer.alloc(0);
    let pos = 0;
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
        throw new LedgerError("corrupt", path, `corrupt line (invalid JSON: ${(e as Error).message})`, line);
      }
      onValue(value, line);
    };
    while (pos < size) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
      } catch (e) {
        throw new LedgerError("unreadable", path, `read failed: ${(e as Error).message}`);
      }
      if (n === 0) break;
      pos += n;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const cut = data.lastIndexOf(0x0a);
      if (cut < 0) {
        carry = Buffer.from(data);
        continue;
      }
      const text = data.toString("utf8", 0, cut + 1);
      let start = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
        parse(text.slice(start, nl), false);
        start = nl + 1;
      }
      carry = Buffer.from(data.subarray(cut + 1));
    }
    if (carry.length) parse(carry.toString("utf8"), true);
  } finally {
    closeSync(fd);
  }
}
