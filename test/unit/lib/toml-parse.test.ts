import { describe, expect, test } from "bun:test";
import { parseToml, TomlError } from "../../../src/lib/toml.ts";

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe("parseToml", () => {
  test("gitleaks-shaped config: extend, [[rules]] with '''regex''', nested allowlist tables, arrays", () => {
    const doc = parseToml(`
title = "mogui rules" # trailing comment
[extend]
useDefault = true

[[rules]]
id = "aws_access_key"
description = "AWS key"
regex = '''AKIA[0-9A-Z]{16}'''
keywords = ["akia"]

[[rules]]
id = "home_path"
regex = '''/Users/[A-Za-z0-9._-]+'''
[rules.allowlist]
regexes = [
  '''/Users/(dev|user)''',  # comment inside
  "\\\\d+",
]

[allowlist]
description = "global"
paths = ['''scripts/redaction-scan\\.sh''']
`);
    expect(plain(doc)).toEqual({
      title: "mogui rules",
      extend: { useDefault: true },
      rules: [
        { id: "aws_access_key", description: "AWS key", regex: "AKIA[0-9A-Z]{16}", keywords: ["akia"] },
        { id: "home_path", regex: "/Users/[A-Za-z0-9._-]+", allowlist: { regexes: ["/Users/(dev|user)", "\\d+"] } },
      ],
      allowlist: { description: "global", paths: ["scripts/redaction-scan\\.sh"] },
    });
  });

  test("codex config: quoted table keys with paths, dotted keys, inline tables", () => {
    const doc = parseToml(`model = "gpt-5"
[projects."/abs/path with space"]
trust_level = "trusted"
[projects.'/other']
trust_level = "untrusted"
[mcp_servers.x]
env = { A = "1", "b.c" = 2, nested.k = true }
sandbox.mode = "workspace-write"
`);
    expect(plain(doc)).toEqual({
      model: "gpt-5",
      projects: { "/abs/path with space": { trust_level: "trusted" }, "/other": { trust_level: "untrusted" } },
      mcp_servers: { x: { env: { A: "1", "b.c": 2, nested: { k: true } }, sandbox: { mode: "workspace-write" } } },
    });
  });

  test("strings: escapes, multi-line basic with line-ending backslash, multi-line literal keeps backslashes", () => {
    const doc = parseToml('a = "tab\\there \\u00e9 \\U0001F600 \\"q\\""\n' + 'b = """\nline1\nline2 \\\n   joined"""\n' + "c = '''\n\\d+ 'x' '''\n" + "d = 'C:\\path'\n" + 'e = """two ""quotes"""""\n');
    expect(doc.a).toBe('tab\there é 😀 "q"');
    expect(doc.b).toBe("line1\nline2 joined");
    expect(doc.c).toBe("\\d+ 'x' ");
    expect(doc.d).toBe("C:\\path");
    expect(doc.e).toBe('two ""quotes""');
  });

  test("numbers, booleans, dates and nested arrays", () => {
    const doc = parseToml("i = 1_000\nn = -17\nh = 0xff\no = 0o17\nb = 0b101\nf = 3.14\ne = 1e3\ng = -2.5E-2\ninf1 = inf\nnn = nan\n" + "t = true\nfa = false\nd = 1979-05-27T07:32:00Z\nld = 1979-05-27\narr = [ [1, 2], ['a'], [], ]\n");
    expect(doc.i).toBe(1000);
    expect(doc.n).toBe(-17);
    expect(doc.h).toBe(255);
    expect(doc.o).toBe(15);
    expect(doc.b).toBe(5);
    expect(doc.f).toBe(3.14);
    expect(doc.e).toBe(1000);
    expect(doc.g).toBe(-0.025);
    expect(doc.inf1).toBe(Infinity);
    expect(Number.isNaN(doc.nn)).toBe(true);
    expect(doc.t).toBe(true);
    expect(doc.fa).toBe(false);
    expect(JSON.stringify(doc.d)).toBe('"1979-05-27T07:32:00.000Z"');
    expect((doc.ld as Date).toISOString()).toBe("1979-05-27");
    expect(plain(doc.arr)).toEqual([[1, 2], ["a"], []]);
  });

  test("arrays of tables with sub-tables attach to the last element", () => {
    const doc = parseToml("[[a]]\nx = 1\n[a.sub]\ny = 2\n[[a]]\nx = 3\n[[a.list]]\nz = 4\n");
    expect(plain(doc)).toEqual({
      a: [
        { x: 1, sub: { y: 2 } },
        { x: 3, list: [{ z: 4 }] },
      ],
    });
  });

  test("CRLF line endings and a BOM", () => {
    expect(plain(parseToml("\uFEFFa = 1\r\n[t]\r\nb = 'x'\r\n"))).toEqual({ a: 1, t: { b: "x" } });
  });

  // Our wrapper's contract: a TomlError whose one-line message starts with the 1-based line (callers prefix the file).
  const bad: Array<[string, string, number]> = [
    ["a = 1\na = 2\n", "redefine", 2],
    ["[t]\nx=1\n[t]\n", "redefine", 3],
    ['x = 1\n\ny = "unterminated\n', "control characters", 3],
    ["a = 1 b = 2\n", "end-of-line", 1],
    ['\n\nregex = "\\d+"\n', "unrecognised escape sequence", 3],
    ["a = [1, 2\n", "expected comma", 2],
    ["a = 1__0\n", "underscore", 1],
    ["a = 1\n[a]\n", "redefine", 2],
    ["a = 1\n[a.b]\n", "redefine", 2],
    ["t = {a = 1}\n[t]\n", "redefine", 2],
    ["a = '''never closed\n", "unfinished string", 1],
    ["= 1\n", "key", 1],
    ["k = \n", "invalid value", 1],
    ["x = [1]\n[[x]]\n", "redefine", 2],
    ["[a.b]\nc=1\n[a]\nb.d = 2\n", "redefine", 4],
  ];
  for (const [src, msg, line] of bad) {
    test(`rejects ${JSON.stringify(src)} naming line ${line}`, () => {
      let err: unknown;
      try {
        parseToml(src);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TomlError);
      const te = err as TomlError;
      expect(te.message).toStartWith(`line ${line}: `);
      expect(te.message).toContain(msg);
      expect(te.message).not.toContain("\n");
      expect(te.line).toBe(line);
      expect(te.column).toBeGreaterThan(0);
    });
  }

  test("integers past 2^53 keep every digit (bigint); date-times are Dates that print as their TOML form", () => {
    const doc = parseToml("big = 99999999999999999999\nsmall = 7\nd = 1979-05-27T07:32:00Z\nld = 1979-05-27\n");
    expect(doc.big).toBe(99999999999999999999n);
    expect(doc.small).toBe(7);
    expect(doc.d).toBeInstanceOf(Date);
    expect((doc.d as Date).getTime()).toBe(Date.UTC(1979, 4, 27, 7, 32));
    expect((doc.ld as Date).toISOString()).toBe("1979-05-27");
  });

  test("agrees with Bun.TOML on a mixed document", () => {
    const src = `a = "x"\n[b]\nc = [1, 2.5, "s", {d = 1}]\n[[e]]\nf = 'g'\n[[e]]\nf = """h"""\n[b."q.k"]\nz = -0\n`;
    expect(plain(parseToml(src))).toEqual(plain(Bun.TOML.parse(src)));
  });
});
