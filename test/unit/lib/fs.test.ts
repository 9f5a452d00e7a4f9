// src/lib/fs.ts: the one atomic replacement every temp-then-rename site uses (issue 22 §2).
import { expect, test } from "bun:test";
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite, writeTemp } from "../../../src/lib/fs.ts";
import { tempDir } from "../../helpers/paths.ts";

test("a symlink at the destination is replaced, never written through", () => {
  const dir = tempDir();
  const victim = join(dir, "victim.txt");
  writeFileSync(victim, "keep\n");
  symlinkSync(victim, join(dir, "out.json"));
  atomicWrite(join(dir, "out.json"), "new\n");
  expect(readFileSync(victim, "utf8")).toBe("keep\n");
  expect(lstatSync(join(dir, "out.json")).isSymbolicLink()).toBe(false);
  expect(readFileSync(join(dir, "out.json"), "utf8")).toBe("new\n");
  expect(readdirSync(dir).sort()).toEqual(["out.json", "victim.txt"]);
});

test("all of a large buffer lands (partial writes looped); the mode is exact; no temp file is left", () => {
  const dir = tempDir();
  const big = new Uint8Array(8 * 1024 * 1024 + 3).map((_, i) => i % 251);
  atomicWrite(join(dir, "big.bin"), big, 0o640);
  expect(readFileSync(join(dir, "big.bin")).equals(Buffer.from(big))).toBe(true);
  expect(statSync(join(dir, "big.bin")).mode & 0o777).toBe(0o640);
  expect(readdirSync(dir)).toEqual(["big.bin"]);
});

test("a failed write leaves the old file and no temp file", () => {
  const dir = tempDir();
  mkdirSync(join(dir, "d"));
  writeFileSync(join(dir, "old.txt"), "old\n");
  // renaming a file over a directory fails: the temp file is removed, the directory is untouched
  expect(() => atomicWrite(join(dir, "d"), "x")).toThrow();
  expect(readdirSync(dir).sort()).toEqual(["d", "old.txt"]);
  expect(() => atomicWrite(join(dir, "missing", "f.txt"), "x")).toThrow();
  expect(readFileSync(join(dir, "old.txt"), "utf8")).toBe("old\n");
});

test("writeTemp never opens through a planted link (O_EXCL|O_NOFOLLOW): the temp name is fresh each call", () => {
  const dir = tempDir();
  const a = writeTemp(join(dir, "f"), "1");
  const b = writeTemp(join(dir, "f"), "2");
  expect(a).not.toBe(b);
  expect([readFileSync(a, "utf8"), readFileSync(b, "utf8")]).toEqual(["1", "2"]);
});
