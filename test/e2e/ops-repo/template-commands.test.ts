/**
 * Every `mogui ...` command the template quotes (in inline code and fenced blocks of master-ops/) exists in the
 * binary: `mogui <cmd> --help` exits 0. Other families' commands make this green as they land.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { walkFiles } from "../../../src/ops-repo/template/embed-render.ts";
import { runBinary } from "../../helpers/binary.ts";
import { ROOT } from "../../helpers/paths.ts";

const T = join(ROOT, "master-ops");

/** Inline code spans and fenced blocks: the places a command is quoted, as opposed to prose. */
export function codeSegments(md: string): string[] {
  const out: string[] = [];
  const rest = md.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_m, body: string) => {
    out.push(body);
    return "";
  });
  for (const m of rest.matchAll(/`([^`\n]+)`/g)) out.push(m[1]!);
  return out;
}

/** The command path after `mogui`: up to three lowercase words, stopping at a flag, a value or a placeholder. */
export function quotedCommands(md: string): string[] {
  const found = new Set<string>();
  for (const seg of codeSegments(md)) {
    for (const m of seg.matchAll(/(?:^|[\s$(])mogui[ \t]+([^\n]*)/g)) {
      const words: string[] = [];
      for (const w of m[1]!.split(/[ \t]+/)) {
        if (!/^[a-z][a-z0-9-]*$/.test(w) || words.length === 3) break;
        words.push(w);
      }
      if (words.length) found.add(words.join(" "));
    }
  }
  return [...found];
}

const QUOTED = new Map<string, string[]>();
for (const f of walkFiles(T).filter((p) => p.endsWith(".md"))) {
  for (const c of quotedCommands(readFileSync(join(T, f), "utf8"))) QUOTED.set(c, [...(QUOTED.get(c) ?? []), f]);
}

describe("commands quoted by the template", () => {
  test("the extractor finds commands in code and ignores prose", () => {
    expect(quotedCommands("Run `mogui template check --ops x` and the mogui binary.\n```console\n$ ORCA_AGENT_CLI=claude mogui preflight\n$ mogui master-succeed spawn \\\n```\n")).toEqual(["preflight", "master-succeed spawn", "template check"]);
    expect(QUOTED.size).toBeGreaterThan(20);
    expect(QUOTED.has("template apply")).toBe(true);
  });

  for (const [cmd, files] of [...QUOTED.entries()].sort()) {
    test(`mogui ${cmd} (quoted in ${files.slice(0, 2).join(", ")}${files.length > 2 ? ", ..." : ""})`, async () => {
      const words = cmd.split(" ");
      const argv = words[0] === "help" ? words : [...words, "--help"];
      const r = await runBinary(argv);
      expect({ cmd, code: r.code, stderr: r.stderr.split("\n")[0] }).toEqual({ cmd, code: 0, stderr: "" });
    });
  }
});
