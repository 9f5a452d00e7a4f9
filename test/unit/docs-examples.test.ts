/**
 * The README and docs/ are part of every feature: each `mogui ...` line in a shell block must name a real command
 * and only flags that command defines, so an example cannot drift from the binary.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { commandEntry } from "../../commands/index.ts";
import { aliasesOf, type MoguiArgsDef } from "../../src/lib/args.ts";
import { ROOT } from "../helpers/paths.ts";

interface Example {
  file: string;
  line: number;
  words: string[];
}

/** Splits a shell line into words the way the examples are written (quotes, no expansion needed). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|[^\s]+/g)) out.push(m[0]);
  return out;
}

function examples(file: string): Example[] {
  const out: Example[] = [];
  let inShell = false;
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*```/.test(raw)) {
      inShell = !inShell && /^\s*```(sh|bash|shell)\s*$/.test(raw);
      continue;
    }
    if (!inShell) continue;
    let text = raw.replace(/\s#\s.*$/, "").trim();
    for (let j = i; text.endsWith("\\") && j + 1 < lines.length; j++) text = `${text.slice(0, -1)} ${lines[j + 1]!.replace(/\s#\s.*$/, "").trim()}`;
    const at = text.search(/(^|[|;&(]\s*|\$\()mogui /);
    if (at < 0) continue;
    const w = words(text.slice(text.indexOf("mogui ", at)));
    out.push({ file, line: i + 1, words: w.slice(1) });
  }
  return out;
}

const FILES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("every mogui example in README.md and docs/ uses a real command and real flags", () => {
  for (const file of FILES) {
    test(file, async () => {
      const problems: string[] = [];
      for (const ex of examples(file)) {
        let path: string | undefined;
        for (let n = Math.min(3, ex.words.length); n >= 1 && !path; n--) {
          const p = ex.words.slice(0, n).join(" ");
          if (commandEntry(p)) path = p;
        }
        const first = ex.words[0] ?? "";
        if (!path) {
          if (!["help", "--help", "--version", "completion"].includes(first)) problems.push(`${file}:${ex.line}: no command '${ex.words.slice(0, 2).join(" ")}'`);
          continue;
        }
        const cmd = (await commandEntry(path)!.load()).default;
        // A group's flags are its subcommand's (the leading-flag rule); a passthrough command parses its own.
        if (cmd.kind === "group" || cmd.passthrough) continue;
        const known = new Set(["--help", "-h"]);
        for (const [name, def] of Object.entries(cmd.args as MoguiArgsDef)) {
          known.add(`--${name}`);
          for (const a of aliasesOf(def)) known.add(a.length === 1 ? `-${a}` : `--${a}`);
        }
        for (const w of ex.words.slice(path.split(" ").length)) {
          if (w === "--" || w === "|" || w === ">" || w.startsWith(">")) break;
          if (!/^--?[a-zA-Z]/.test(w)) continue;
          const flag = w.split("=")[0]!.replace(/[)"'`]+$/, "");
          if (!known.has(flag)) problems.push(`${file}:${ex.line}: mogui ${path} has no flag ${flag}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
