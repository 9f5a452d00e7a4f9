// Codebase rules that are cheap to enforce mechanically (README "Conventions every command follows", docs/decisions.md, the security rules).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { tsFiles } from "../helpers/files.ts";
import { ROOT } from "../helpers/paths.ts";

const files = tsFiles;

const SOURCES = [...files(join(ROOT, "src")), ...files(join(ROOT, "commands"))];

describe("hygiene", () => {
  test("process.exit appears only in src/cli.ts (main returns the code)", () => {
    const offenders = SOURCES.filter((f) => /process\.exit\(/.test(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });

  test("no network import or fetch() in src/ or commands/", () => {
    const net = /from ['"](node:)?(http|https|net|tls|dgram|http2)['"]|\bfetch\(|WebSocket\(/;
    const offenders = SOURCES.filter((f) => net.test(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });

  test("no shell-string execution: no `sh -c`/`bash -c` built from input in src/ or commands/", () => {
    const shell = /\[\s*["'](ba)?sh["']\s*,\s*["']-c["']/;
    const offenders = SOURCES.filter((f) => shell.test(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });

  test("commands are thin: every command file stays under 250 lines", () => {
    const long = files(join(ROOT, "commands"))
      .map((f) => [relative(ROOT, f), readFileSync(f, "utf8").split("\n").length] as const)
      .filter(([, n]) => n > 250);
    expect(long).toEqual([]);
  });
});
