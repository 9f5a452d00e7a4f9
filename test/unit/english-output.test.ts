// Issue 26 §2: all user-facing output is English. Hangul may appear in src/ and commands/ only where mogui READS
// it (patterns the reference pins, headings and phrases people type), each such line with a comment saying so
// (on the line or the one above, with "kept" or "input"). The embedded template is master-ops/ text.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { trimWarning } from "../../src/hooks/session/bash-warnings.ts";
import { ROOT } from "../helpers/paths.ts";

const HANGUL = /[\uAC00-\uD7A3]/;
const SKIP = new Set(["src/ops-repo/template/embedded.gen.ts"]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("user-facing output in English", () => {
  test("every Hangul line in src/ and commands/ is input recognition with a comment saying it is kept", () => {
    const bad: string[] = [];
    for (const f of [...files(join(ROOT, "src")), ...files(join(ROOT, "commands"))]) {
      const rel = relative(ROOT, f);
      if (SKIP.has(rel)) continue;
      const lines = readFileSync(f, "utf8").split("\n");
      lines.forEach((l, i) => {
        if (!HANGUL.test(l)) return;
        const around = `${l}\n${lines[i - 1] ?? ""}`;
        if (!/\/\/.*\b(kept|input)\b/.test(around)) bad.push(`${rel}:${i + 1}: ${l.trim().slice(0, 100)}`);
      });
    }
    expect(bad).toEqual([]);
  });

  test("the trim-warn hook's warning is English", () => {
    const w = trimWarning("git log/diff/show");
    expect(w).toBe("[trim-warn] 'git log/diff/show' may print a lot of output: filter it with head/tail/grep/--jq/wc/cut and read only what you need (saves context).");
    expect(HANGUL.test(w)).toBe(false);
  });
});
