import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globPaths, hasGlob } from "../../../src/lib/glob.ts";

describe("globPaths (Bun.Glob from the first glob segment)", () => {
  const dir = mkdtempSync(join(tmpdir(), "mogui-glob-"));
  for (const f of ["a/x.jsonl", "a/y.txt", "b/deep/z.jsonl", "a/.hidden.jsonl"]) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "");
  }

  test("absolute patterns scan from their static directories; * skips dot files; ** recurses", () => {
    expect(globPaths(join(dir, "*", "*.jsonl"), { onlyFiles: true }).sort()).toEqual([join(dir, "a", "x.jsonl")]);
    expect(globPaths(join(dir, "**", "*.jsonl"), { onlyFiles: true }).sort()).toEqual([join(dir, "a", "x.jsonl"), join(dir, "b", "deep", "z.jsonl")]);
    expect(globPaths(join(dir, "{a,b}"), { onlyFiles: false }).sort()).toEqual([join(dir, "a"), join(dir, "b")]);
  });

  test("a literal pattern is itself; an unreadable scan root matches nothing", () => {
    expect(hasGlob(join(dir, "a", "x.jsonl"))).toBe(false);
    expect(globPaths(join(dir, "nope.txt"), { onlyFiles: true })).toEqual([join(dir, "nope.txt")]);
    expect(globPaths(join(dir, "missing", "*.jsonl"), { onlyFiles: true })).toEqual([]);
  });
});
