/**
 * Large files in bounded memory (issue 25 §3: months of agent transcripts). A UTF-8 file larger than STREAM_MIN is
 * never read whole: it is scanned in chunks of about CHUNK bytes cut at a line break, each chunk's findings moved to
 * the file's line numbers. A line longer than MAX_LINE is cut there (a minified blob or a torn transcript line). A
 * secret is a line-local thing for every embedded rule except a private key written over several lines, which a
 * chunk boundary could split; chunks always end at a line break, so each half still has its BEGIN header or its
 * body's long base64 lines, both of which are found.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { utf16Encoding } from "./decode.ts";
import type { Compiled } from "./engine.ts";
import type { addText as AddText, ShardOptions, ShardResult } from "./shard.ts";

export const STREAM_MIN = 32 * 1024 * 1024;
const CHUNK = 4 * 1024 * 1024;
const MAX_LINE = 16 * 1024 * 1024;

/**
 * Scans a large file chunk by chunk into `out`; "binary" (a NUL byte in its first 8000 bytes), "utf16" (left to
 * the whole-file reader, which decodes it) or "done".
 */
export function scanLargeFile(c: Compiled, out: ShardResult, abs: string, shown: string, opts: Pick<ShardOptions, "budget" | "ignore" | "onFinding">, addText: typeof AddText): "binary" | "utf16" | "done" {
  const fd = openSync(abs, "r");
  try {
    const size = fstatSync(fd).size;
    let buf = Buffer.allocUnsafe(CHUNK);
    let have = 0;
    let pos = 0;
    let lineBase = 0;
    let first = true;
    for (;;) {
      const n = readSync(fd, buf, have, buf.length - have, pos);
      pos += n;
      have += n;
      if (first) {
        first = false;
        if (utf16Encoding(buf.subarray(0, have))) return "utf16";
        if (buf.subarray(0, Math.min(have, 8000)).indexOf(0) >= 0) return "binary";
      }
      const eof = n === 0 || pos >= size;
      let cut = eof ? have : buf.lastIndexOf(10, have - 1) + 1;
      if (cut <= 0) {
        // No line break in the buffer: grow it up to MAX_LINE, then cut the line there.
        if (buf.length < MAX_LINE && !eof) {
          const bigger = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(bigger, 0, 0, have);
          buf = bigger;
          continue;
        }
        cut = have;
      }
      const text = buf.toString("utf8", 0, cut);
      const before = out.findings.length;
      addText(c, out, shown, text, { ...opts, onFinding: undefined });
      for (let i = before; i < out.findings.length; i++) {
        const f = out.findings[i]!;
        f.line += lineBase;
        opts.onFinding?.(f);
      }
      out.bytes += cut;
      let lines = 0;
      for (let i = buf.indexOf(10, 0); i >= 0 && i < cut; i = buf.indexOf(10, i + 1)) lines++;
      lineBase += lines;
      buf.copy(buf, 0, cut, have);
      have -= cut;
      if (eof && have === 0) return "done";
    }
  } finally {
    closeSync(fd);
  }
}
