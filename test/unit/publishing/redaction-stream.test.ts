// Large files are scanned in line-aligned chunks (stream.ts): the findings and their line numbers are those of a
// whole-file scan, whatever the chunk boundaries cut through. Secrets are built at run time.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile } from "../../../src/publishing/redaction/config.ts";
import { compileRules, scanText } from "../../../src/publishing/redaction/engine.ts";
import { addText, type ShardResult } from "../../../src/publishing/redaction/shard.ts";
import { scanLargeFile } from "../../../src/publishing/redaction/stream.ts";
import { Gen, rng } from "../../helpers/redaction-corpus.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const set = loadConfigFile(join(ROOT, "config", "gitleaks.toml"));
const c = compileRules(set.rules, set.allowlists);

test("a 10 MB transcript scanned in chunks: the same findings at the same lines as a whole-file scan", () => {
  const g = new Gen(rng(3));
  const lines: string[] = [];
  let size = 0;
  while (size < 10 * 1024 * 1024) {
    const l = lines.length % 997 === 5 ? `{"type":"user","message":{"content":"export GITHUB_TOKEN=${"gh" + "p_"}${g.checksummed()}"}}` : `{"type":"assistant","message":{"content":"${g.pick("abcdefgh ", 200)}"}}`;
    lines.push(l);
    size += l.length + 1;
  }
  const text = `${lines.join("\n")}\n`;
  const path = join(tempDir("stream-"), "s.jsonl");
  writeFileSync(path, text);
  const out: ShardResult = { findings: [], more: 0, suppressed: 0, bytes: 0, binary: 0, binaryFiles: [] };
  expect(scanLargeFile(c, out, path, "s.jsonl", { budget: 100000, ignore: new Set() }, addText)).toBe("done");
  const whole = scanText(c, "s.jsonl", text);
  expect(out.findings.length).toBeGreaterThan(40);
  expect(out.findings.map((f) => `${f.line}:${f.rule}`)).toEqual(whole.map((f) => `${f.line}:${f.rule}`));
  expect(out.bytes).toBe(Buffer.byteLength(text));
});

test("binary and UTF-16 files are left to the whole-file reader", () => {
  const dir = tempDir("stream-");
  writeFileSync(join(dir, "b"), Buffer.from([1, 0, 2, 3]));
  writeFileSync(join(dir, "u"), Buffer.from([0xff, 0xfe, 0x41, 0]));
  const out: ShardResult = { findings: [], more: 0, suppressed: 0, bytes: 0, binary: 0, binaryFiles: [] };
  expect(scanLargeFile(c, out, join(dir, "b"), "b", { budget: 10, ignore: new Set() }, addText)).toBe("binary");
  expect(scanLargeFile(c, out, join(dir, "u"), "u", { budget: 10, ignore: new Set() }, addText)).toBe("utf16");
});
