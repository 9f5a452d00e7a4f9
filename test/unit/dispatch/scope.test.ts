import { describe, expect, test } from "bun:test";
import { fileTokens, fnmatchRegex, parseScope, scopeOverlap, scopeText } from "../../../src/dispatch/pipeline/scope.ts";

const raw = (c: string) => parseScope(c).map((t) => `${t.kind}:${t.raw}`);

describe("parseScope", () => {
  test("the Scope bullet and its two-space continuation lines only", () => {
    const c = ["# Contract", "- Goal: touch `src/other.ts`", "- Scope: `src/a.ts`, src/b/, README.md", "  `master-ops/runbooks/x.md` and docs/*.md.", "- Acceptance: `src/c.ts`"].join("\n");
    expect(raw(c)).toEqual(["path:src/a.ts", "path:runbooks/x.md", "dir:src/b/", "path:README.md", "glob:docs/*.md"]);
    expect(scopeText(c)).toBe("`src/a.ts`, src/b/, README.md\n`master-ops/runbooks/x.md` and docs/*.md.");
  });

  test("bold label, * bullets, CRLF, ./ prefixes; URLs, absolute paths, .. and prose are not files", () => {
    const c = "* **Scope:** ./lib/x.ts (see https://example.com/a/b), /etc/passwd, ../up/y.ts, e.g. the parser\r\n\r\n  `ignored.ts`";
    expect(raw(c)).toEqual(["path:lib/x.ts"]);
  });

  test("no scope bullet: no tokens", () => {
    expect(parseScope("- Goal: `src/a.ts`")).toEqual([]);
    expect(scopeText("nothing")).toBeNull();
  });
});

describe("fnmatch", () => {
  test("* crosses /, ? is one char, [!x] negates", () => {
    expect(fnmatchRegex("src/*.ts").test("src/deep/a.ts")).toBe(true);
    expect(fnmatchRegex("a?.md").test("ab.md")).toBe(true);
    expect(fnmatchRegex("a?.md").test("a.md")).toBe(false);
    expect(fnmatchRegex("[!x]y").test("zy")).toBe(true);
    expect(fnmatchRegex("[!x]y").test("xy")).toBe(false);
    expect(fnmatchRegex("a.b").test("axb")).toBe(false);
  });
});

describe("scopeOverlap", () => {
  const tracked = ["src/a.ts", "src/b/one.ts", "src/b/two.ts", "docs/x.md", "README.md"];
  const s = (text: string) => parseScope(`- Scope: ${text}`);
  test("file, directory, glob and untracked literals", () => {
    expect(scopeOverlap(s("`src/a.ts`"), s("src/a.ts"), tracked)).toEqual(["src/a.ts"]);
    expect(scopeOverlap(s("src/b/"), s("src/b/two.ts"), tracked)).toEqual(["src/b/two.ts"]);
    expect(scopeOverlap(s("src/b/"), s("src/*.ts"), tracked)).toEqual(["src/b/one.ts", "src/b/two.ts"]);
    expect(scopeOverlap(s("src/new.ts"), s("src/new.ts"), tracked)).toEqual(["src/new.ts"]);
    expect(scopeOverlap(s("src/new/"), s("src/new/file.ts"), tracked)).toEqual(["src/new/file.ts"]);
    expect(scopeOverlap(s("`src`"), s("src/a.ts"), tracked)).toEqual(["src/a.ts"]);
    expect(scopeOverlap(s("src"), s("src/a.ts"), tracked)).toEqual([]); // a bare word is not a file token
    expect(scopeOverlap(s("src/a.ts"), s("docs/x.md README.md"), tracked)).toEqual([]);
  });
  test("against a PR's file list", () => {
    expect(scopeOverlap(s("docs/"), fileTokens(["docs/x.md", "other.txt"]), tracked)).toEqual(["docs/x.md"]);
  });
});
