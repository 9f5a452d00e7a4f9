// codex-worker-pretrust (reference §24): byte-preserving, re-parse-verified edits of every account's config.toml.
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexAccountsDir, codexPretrust, projectHeader } from "../../../src/dispatch/pretrust/codex.ts";
import { runMain } from "../../helpers/ctx.ts";
import { pretrustFailure as fails } from "../../helpers/pretrust.ts";
import { tempDir } from "../../helpers/paths.ts";

const WT = "/tmp/.orca/worktrees/repo/feature";
let dir: string;
let acc: string;
beforeEach(() => {
  dir = tempDir("pretrust-codex-");
  acc = join(dir, "accounts");
});

function account(name: string, toml: string | Buffer): string {
  const p = join(acc, name, "home", "config.toml");
  mkdirSync(join(acc, name, "home"), { recursive: true });
  writeFileSync(p, toml);
  return p;
}
const ctx = () => ({ env: { HOME: dir }, cwd: dir });
const run = (worktree = WT) => codexPretrust(ctx(), { worktree, accountsDir: acc });

describe("edits", () => {
  test("missing project: the table is appended to the original bytes", () => {
    const orig = '# my config\nmodel = "gpt-5.5"\n\n[projects."/other"]\ntrust_level = "trusted"\n';
    const p = account("a", orig);
    const r = run();
    expect(r.lines).toEqual([`${p}: trusted (added)`, "Summary: 1 added, 0 updated, 0 already trusted"]);
    expect(readFileSync(p, "utf8")).toBe(`${orig}\n[projects."${WT}"]\ntrust_level = "trusted"\n`);
  });

  test("no trailing newline and an empty file still append cleanly", () => {
    const a = account("a", 'model = "x"');
    const b = account("b", "");
    expect(run().tally).toEqual({ added: 2, updated: 0, already: 0 });
    expect(readFileSync(a, "utf8")).toBe(`model = "x"\n[projects."${WT}"]\ntrust_level = "trusted"\n`);
    expect(readFileSync(b, "utf8")).toBe(`\n[projects."${WT}"]\ntrust_level = "trusted"\n`);
  });

  test("project without trust_level: the line goes right after the header, in the file's newline style", () => {
    const p = account("a", `a = 1\r\n[projects."${WT}"]\r\nfoo = "bar"\r\n`);
    expect(run().lines[0]).toBe(`${p}: trusted (updated)`);
    expect(readFileSync(p, "utf8")).toBe(`a = 1\r\n[projects."${WT}"]\r\ntrust_level = "trusted"\r\nfoo = "bar"\r\n`);
  });

  test("header as the last line without a newline", () => {
    const p = account("a", `[projects."${WT}"]`);
    run();
    expect(readFileSync(p, "utf8")).toBe(`[projects."${WT}"]\ntrust_level = "trusted"\n`);
  });

  test("another trust_level: that line is rewritten, indentation kept, everything else byte-identical", () => {
    const orig = `[projects."/a"]\ntrust_level = "untrusted"\n\n[projects."${WT}"]\n    trust_level = "untrusted"\n    other = 1\n`;
    const p = account("a", orig);
    expect(run().tally.updated).toBe(1);
    expect(readFileSync(p, "utf8")).toBe(orig.replace('    trust_level = "untrusted"', '    trust_level = "trusted"'));
  });

  test("already trusted: nothing written (mtime and bytes unchanged)", () => {
    const p = account("a", `[projects."${WT}"]\ntrust_level = "trusted"\n`);
    const before = statSync(p).mtimeMs;
    expect(run().lines).toEqual([`${p}: already trusted`, "Summary: 0 added, 0 updated, 1 already trusted"]);
    expect(statSync(p).mtimeMs).toBe(before);
  });

  test("table-like text inside a multi-line string is never edited", () => {
    const orig = `notes = """\n[projects."${WT}"]\n"""\n[projects."${WT}"]\nfoo = 1\n`;
    const p = account("a", orig);
    run();
    expect(readFileSync(p, "utf8")).toBe(`notes = """\n[projects."${WT}"]\n"""\n[projects."${WT}"]\ntrust_level = "trusted"\nfoo = 1\n`);
  });

  test("paths with quotes and backslashes are escaped in the header", () => {
    const odd = '/tmp/we"ird\\path';
    expect(projectHeader(odd)).toBe('[projects."/tmp/we\\"ird\\\\path"]');
    const p = account("a", "");
    run(odd);
    expect(readFileSync(p, "utf8")).toContain('[projects."/tmp/we\\"ird\\\\path"]\ntrust_level = "trusted"\n');
    expect(run(odd).tally.already).toBe(1);
  });

  test("several accounts in name order; hidden dirs and accounts without config.toml skipped; mode kept", () => {
    const b = account("b", "");
    const a = account("a", `[projects."${WT}"]\ntrust_level = "trusted"\n`);
    account(".hidden", "");
    mkdirSync(join(acc, "empty", "home"), { recursive: true });
    chmodSync(b, 0o640);
    expect(run().lines).toEqual([`${a}: already trusted`, `${b}: trusted (added)`, "Summary: 1 added, 0 updated, 1 already trusted"]);
    expect(statSync(b).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(acc, ".hidden", "home", "config.toml"), "utf8")).toBe("");
    expect(readdirSync(join(acc, "b", "home"))).toEqual(["config.toml"]); // no temp file left
  });
});

describe("refusals (exit 2, nothing written anywhere)", () => {
  test("a config that does not parse stops everything, even configs planned earlier", () => {
    const good = account("a", "");
    const bad = account("b", "x = = 1\n");
    const msg = fails(run);
    expect(msg).toStartWith(`ERROR ${bad}: cannot parse TOML before pre-trust edit: line 1`);
    expect(readFileSync(good, "utf8")).toBe("");
  });

  test("invalid UTF-8", () => {
    const p = account("a", Buffer.from([0x61, 0x3d, 0x22, 0xff, 0x22, 0x0a]));
    expect(fails(run)).toBe(`ERROR ${p}: cannot parse TOML before pre-trust edit: invalid UTF-8`);
  });

  test("projects or the project is not a table", () => {
    const p = account("a", "projects = 1\n");
    expect(fails(run)).toBe(`ERROR ${p}: projects is not a table`);
    writeFileSync(p, `[projects]\n"${WT}" = "yes"\n`);
    expect(fails(run)).toBe(`ERROR ${p}: projects."${WT}" is not a table`);
  });

  test("an edit that cannot be verified (odd header spelling, inline tables, dotted keys)", () => {
    const p = account("a", `[ projects . '${WT}' ]\nfoo = 1\n`);
    expect(fails(run)).toBe(`ERROR ${p}: could not produce exactly one verified pre-trust edit (found 0)`);
    writeFileSync(p, `projects = { other = { a = 1 } }\n`);
    expect(fails(run)).toContain("found 0");
    writeFileSync(p, `projects."${WT}".trust_level = "untrusted"\n`);
    expect(fails(run)).toContain("found 0");
    expect(readFileSync(p, "utf8")).toBe(`projects."${WT}".trust_level = "untrusted"\n`);
  });

  test("a trust_level line in a subtable is not the project's own and is left alone", () => {
    const p = account("a", `[projects."${WT}"]\ntrust_level = "no"\n[projects."${WT}".sub]\ntrust_level = "no"\n`);
    run();
    expect(readFileSync(p, "utf8")).toBe(`[projects."${WT}"]\ntrust_level = "trusted"\n[projects."${WT}".sub]\ntrust_level = "no"\n`);
  });

  test("a symlinked config.toml is refused", () => {
    const real = join(dir, "real.toml");
    writeFileSync(real, "");
    mkdirSync(join(acc, "a", "home"), { recursive: true });
    symlinkSync(real, join(acc, "a", "home", "config.toml"));
    expect(fails(run)).toContain("refusing to edit a symlinked config");
    expect(readFileSync(real, "utf8")).toBe("");
  });

  test("relative path and line breaks", () => {
    account("a", "");
    expect(fails(() => run("rel/path"))).toBe("ERROR worktree path must be absolute: rel/path\nUsage: codex-worker-pretrust <worktree-path> [--accounts-dir <dir>]");
    expect(fails(() => run("/tmp/a\nb"))).toBe("ERROR worktree path must not contain a line break");
    expect(fails(() => run("/tmp/a\rb"))).toBe("ERROR worktree path must not contain a line break");
  });
});

describe("accounts directory", () => {
  test("missing: INFO and a zero Summary, exit 0; the worktree need not exist", () => {
    expect(run("/does/not/exist").lines).toEqual([`INFO accounts directory not found: ${acc}; nothing to pre-trust`, "Summary: 0 added, 0 updated, 0 already trusted"]);
  });
  test("flag > CODEX_ACCOUNTS_DIR > platform default", () => {
    expect(codexAccountsDir({ env: { HOME: "/h", CODEX_ACCOUNTS_DIR: "/e" }, cwd: "/c" }, "rel")).toBe("/c/rel");
    expect(codexAccountsDir({ env: { HOME: "/h", CODEX_ACCOUNTS_DIR: "/e" }, cwd: "/c" })).toBe("/e");
    expect(codexAccountsDir({ env: { HOME: "/h" }, cwd: "/c" }, undefined, "darwin")).toBe("/h/Library/Application Support/orca/codex-accounts");
    expect(codexAccountsDir({ env: { HOME: "/h" }, cwd: "/c" }, undefined, "linux")).toBe("/h/.local/share/orca/codex-accounts");
  });
});

describe("the command", () => {
  const cmd = (args: string[], env: Record<string, string> = {}) => runMain(["codex-worker-pretrust", ...args], { env: { HOME: dir, ...env }, cwd: dir });
  test("exit codes and streams", async () => {
    const p = account("a", "");
    expect(await cmd([WT, "--accounts-dir", acc])).toEqual({ code: 0, stdout: `${p}: trusted (added)\nSummary: 1 added, 0 updated, 0 already trusted\n`, stderr: "" });
    expect(await cmd([WT], { CODEX_ACCOUNTS_DIR: acc })).toMatchObject({ code: 0, stdout: `${p}: already trusted\nSummary: 0 added, 0 updated, 1 already trusted\n` });
    const rel = await cmd(["rel", "--accounts-dir", acc]);
    expect(rel).toMatchObject({ code: 2, stdout: "" });
    expect(rel.stderr).toStartWith("ERROR worktree path must be absolute: rel\n");
    expect((await cmd([])).code).toBe(2);
    expect((await cmd([WT, "extra"])).code).toBe(2);
    expect((await cmd([WT, "--accounts-dir"])).code).toBe(2);
    expect((await cmd([WT, "--accounts-dir", ""])).code).toBe(2);
    expect(existsSync(join(dir, ".local"))).toBe(false);
  });
});

describe("Bun.deepEquals (the verification's comparison): what the edit check relies on", () => {
  test("key order ignored; prototype-less tables equal spread copies; types, lengths, Dates, NaN and bigints respected", () => {
    const deepEqual = (a: unknown, b: unknown) => Bun.deepEquals(a, b);
    expect(deepEqual({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(deepEqual(1, "1")).toBe(false);
    expect(deepEqual(Number.NaN, Number.NaN)).toBe(true);
    expect(deepEqual(new Date(5), new Date(5))).toBe(true);
    expect(deepEqual(new Date(5), new Date(6))).toBe(false);
    expect(deepEqual(new Date(5), {})).toBe(false);
    expect(deepEqual(Object.assign(Object.create(null), { a: 1 }), { a: 1 })).toBe(true);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual(10n ** 20n, 10n ** 20n)).toBe(true);
    expect(deepEqual(1n, 1)).toBe(false);
    expect(deepEqual(undefined, {})).toBe(false);
  });
});

test("a config reached through a symlinked account or home directory is refused, nothing edited (issue 13)", () => {
  const realHome = join(dir, "real-home");
  mkdirSync(realHome);
  writeFileSync(join(realHome, "config.toml"), "");
  mkdirSync(join(acc, "a"), { recursive: true });
  symlinkSync(realHome, join(acc, "a", "home"));
  expect(fails(run)).toBe(`ERROR ${join(acc, "a", "home", "config.toml")}: refusing to edit a config through a symlinked directory: ${join(acc, "a", "home")}`);
  const realAccount = join(dir, "real-account");
  mkdirSync(join(realAccount, "home"), { recursive: true });
  writeFileSync(join(realAccount, "home", "config.toml"), "");
  symlinkSync(realAccount, join(acc, "b"));
  expect(fails(run)).toContain("refusing to edit a config through a symlinked directory");
  expect(readFileSync(join(realHome, "config.toml"), "utf8")).toBe("");
  expect(readFileSync(join(realAccount, "home", "config.toml"), "utf8")).toBe("");
});

test("a symlink anywhere above the accounts directory is refused, real symlinks, nothing edited (issue 23)", () => {
  // The accounts directory itself a link, and an ancestor of it a link: each redirects the edit.
  const realAcc = join(dir, "real-accounts");
  mkdirSync(join(realAcc, "a", "home"), { recursive: true });
  writeFileSync(join(realAcc, "a", "home", "config.toml"), "");
  const linkAcc = join(dir, "link-accounts");
  symlinkSync(realAcc, linkAcc);
  const viaLink = () => codexPretrust(ctx(), { worktree: WT, accountsDir: linkAcc });
  expect(fails(viaLink)).toBe(`ERROR ${join(linkAcc, "a", "home", "config.toml")}: refusing to edit a config through a symlinked directory: ${linkAcc}`);
  const realParent = join(dir, "real-parent");
  mkdirSync(join(realParent, "codex-accounts", "b", "home"), { recursive: true });
  writeFileSync(join(realParent, "codex-accounts", "b", "home", "config.toml"), "");
  symlinkSync(realParent, join(dir, "share"));
  const viaAncestor = () => codexPretrust(ctx(), { worktree: WT, accountsDir: join(dir, "share", "codex-accounts") });
  expect(fails(viaAncestor)).toContain(`refusing to edit a config through a symlinked directory: ${join(dir, "share")}`);
  expect(readFileSync(join(realAcc, "a", "home", "config.toml"), "utf8")).toBe("");
  expect(readFileSync(join(realParent, "codex-accounts", "b", "home", "config.toml"), "utf8")).toBe("");
  // The same tree reached without a link is edited.
  expect(codexPretrust(ctx(), { worktree: WT, accountsDir: realAcc }).tally.added).toBe(1);
});
