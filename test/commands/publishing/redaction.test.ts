/** redaction-scan in process: progress on stderr for long scans (a fake clock), and exit 2 for anything unexpected. */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../commands/main.ts";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

const env = () => ({ PATH: process.env.PATH, HOME: tempDir(), GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" });

test("progress: files scanned / total on stderr once the scan runs longer than a second", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "d"));
  for (let i = 0; i < 200; i++) writeFileSync(join(dir, "d", `f${i}.txt`), `line ${i}\n`);
  let t = 0;
  const r = await runMain(["redaction-scan", "-C", dir, "--paths", "d"], { env: env(), now: () => (t += 1100) });
  expect(r.code).toBe(0);
  const progress = r.stderr.split("\n").filter((l) => l.startsWith("redaction-scan: scanned "));
  expect(progress).toEqual(["redaction-scan: scanned 64/200 files", "redaction-scan: scanned 128/200 files", "redaction-scan: scanned 192/200 files", "redaction-scan: scanned 200/200 files"]);
  expect(r.stdout).toBe("redaction-scan: OK — 0 findings (mode=paths, files=200, commit-messages=not-scanned, org-rules=0)\n");
});

test("progress on a TTY: one updating line, replaced by the total at the end", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "d"));
  for (let i = 0; i < 200; i++) writeFileSync(join(dir, "d", `f${i}.txt`), `line ${i}\n`);
  let t = 0;
  let stderr = "";
  const io = { stdout: () => {}, stderr: (s: string) => void (stderr += s), stdoutIsTTY: false, stderrIsTTY: true };
  const code = await main(["redaction-scan", "-C", dir, "--paths", "d"], { env: env(), now: () => (t += 1100), io });
  expect(code).toBe(0);
  expect(stderr.slice(stderr.indexOf("\r"))).toBe("\r\x1b[2Kredaction-scan: 64/200 files\r\x1b[2Kredaction-scan: 128/200 files\r\x1b[2Kredaction-scan: 192/200 files\r\x1b[2Kredaction-scan: scanned 200/200 files\n");
});

test("text findings stream as files are scanned (before later progress), at most --max-findings, then the verdict", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "d"));
  for (let i = 0; i < 200; i++) writeFileSync(join(dir, "d", `f${i}.txt`), `line ${i}\n`);
  const key = `${"AK" + "IA"}${"QZXW".repeat(4)}`;
  writeFileSync(join(dir, "d", "f0.txt"), `k ${key}\n`);
  writeFileSync(join(dir, "d", "f99.txt"), `k ${key}\n`);
  let t = 0;
  const r = await runMain(["redaction-scan", "-C", dir, "--paths", "d", "--max-findings", "1"], { env: env(), now: () => (t += 1100) });
  expect(r.code).toBe(1);
  const lines = r.stderr.split("\n").filter((l) => !l.includes("WARNING"));
  expect(lines).toEqual([
    "  d/f0.txt:1  [aws_access_key] AWS access key id  :: k AKIA****************",
    "redaction-scan: scanned 64/200 files",
    "redaction-scan: scanned 128/200 files",
    "redaction-scan: scanned 192/200 files",
    "redaction-scan: scanned 200/200 files",
    "redaction-scan: FAIL — 2 finding(s) (fail-closed)",
    "redaction-scan: ... and 1 more finding(s) not listed (--max-findings 1)",
    "redaction-scan: fix, or exempt with a .gitleaksignore fingerprint, then re-run.",
    "",
  ]);
});

test("no progress for a scan under a second", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "a.txt"), "x\n");
  const r = await runMain(["redaction-scan", "-C", dir, "--paths", "a.txt"], { env: env(), now: () => 0 });
  expect(r.stderr).not.toContain("scanned");
});

test("a failing git is exit 2 (never 1, which means findings)", async () => {
  const dir = tempDir();
  const runner = async (argv: readonly string[]) => ({ argv: [...argv], code: argv.includes("rev-parse") ? 0 : 128, signal: null, stdout: argv.includes("rev-parse") ? `${dir}\n` : "", stderr: "fatal: broken", timedOut: false, missing: false });
  const r = await runMain(["redaction-scan", "-C", dir], { env: env(), runner });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("redaction-scan: FAIL — git ls-files failed: git: exit 128: fatal: broken\n");
});

test("a failed share of a parallel scan makes the scan undecided (exit 2), naming the child's reason", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "d"));
  for (let i = 0; i < 2000; i++) writeFileSync(join(dir, "d", `f${i}`), "x\n");
  const calls: string[][] = [];
  const runner = async (argv: readonly string[]) => {
    calls.push([...argv]);
    const child = argv.includes("--shard-list");
    return { argv: [...argv], code: child ? 2 : 128, signal: null, stdout: "", stderr: child ? "redaction-scan: FAIL — cannot read /x: EACCES\n" : "not a repo", timedOut: false, missing: false };
  };
  const r = await runMain(["redaction-scan", "-C", dir, "--paths", "d"], { env: { ...env(), MOGUI_SCAN_JOBS: "2" }, runner });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("redaction-scan: FAIL — cannot read /x: EACCES\n");
  const child = calls.find((c) => c.includes("--shard-list"))!;
  const at = child.indexOf("redaction-scan");
  expect(child.slice(at, at + 3)).toEqual(["redaction-scan", "-C", dir]);
  expect(child.slice(-2, -1)).toEqual(["--shard-list"]);
});

test("REDACTION_EXTRA_PATTERNS is resolved the same way everywhere: '~' expands to $HOME", async () => {
  const { orgRulesPath } = await import("../../../src/publishing/redaction/rules.ts");
  expect(orgRulesPath({ env: { REDACTION_EXTRA_PATTERNS: "~/rules.txt", HOME: "/h" }, cwd: "/w" })).toBe("/h/rules.txt");
  expect(orgRulesPath({ env: { REDACTION_EXTRA_PATTERNS: " rel/r.txt " }, cwd: "/w" })).toBe("/w/rel/r.txt");
  // Unset or blank: the conventional place, ~/.config/redaction-extra.txt (preflight and the scan alike).
  expect(orgRulesPath({ env: { REDACTION_EXTRA_PATTERNS: "  ", HOME: "/h" }, cwd: "/w" })).toBe("/h/.config/redaction-extra.txt");
  expect(orgRulesPath({ env: { HOME: "/h" }, cwd: "/w" })).toBe("/h/.config/redaction-extra.txt");
});

test("an internal error is exit 2 ('did not decide'); --debug prints its stack", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "d"));
  for (let i = 0; i < 2000; i++) writeFileSync(join(dir, "d", `f${i}`), "x\n");
  const runner = async (argv: readonly string[]) => {
    if (argv.includes("--shard-list")) throw new RangeError("Invalid string length");
    return { argv: [...argv], code: 128, signal: null, stdout: "", stderr: "not a repo", timedOut: false, missing: false };
  };
  const plain = await runMain(["redaction-scan", "-C", dir, "--paths", "d"], { env: { ...env(), MOGUI_SCAN_JOBS: "2" }, runner });
  expect(plain.code).toBe(2);
  expect(plain.stderr).toContain("redaction-scan: FAIL — internal error (RangeError); the scan did not decide\n");
  expect(plain.stderr).not.toContain("    at ");
  const debug = await runMain(["--debug", "redaction-scan", "-C", dir, "--paths", "d"], { env: { ...env(), MOGUI_SCAN_JOBS: "2" }, runner });
  expect(debug.code).toBe(2);
  expect(debug.stderr).toContain("RangeError: Invalid string length\n    at ");
});
