/** redaction-scan through the compiled binary on real temp repos: every mode, exit code and message of §21/D28. */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary, type BinResult } from "../../helpers/binary.ts";
import { sh } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

// Secrets are assembled at run time so this file never holds one literally.
const AWS = `AKIA${"QZXW".repeat(4)}`;
const GH = `ghp_${"aB3dE5fG7h".repeat(4)}`;
const SLACK = `xoxb-${"1234567890"}-${"Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2"}`;
const ORG_ID = "projectnightjar";
const SECRETS = [AWS, GH, SLACK, ORG_ID];

const FAKE_GITLEAKS_DIR = join(ROOT, "fixtures", "redaction", "bin");

function repo(files: Record<string, string | Buffer> = { "README.md": "hello\n" }): string {
  const dir = join(tempDir("mogui-rs-"), "repo");
  mkdirSync(dir, { recursive: true });
  sh(dir, "init", "-q", "-b", "main");
  write(dir, files);
  sh(dir, "add", ".");
  sh(dir, "commit", "-q", "-m", "init");
  return dir;
}

function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}

function commit(dir: string, files: Record<string, string>, message: string): string {
  write(dir, files);
  sh(dir, "add", ".");
  sh(dir, "commit", "-q", "-m", message);
  return sh(dir, "rev-parse", "HEAD");
}

async function scan(args: string[], extra: Record<string, string> = {}, cwd?: string): Promise<BinResult> {
  const env = e2eEnv({ HOME: tempDir(), ...extra });
  delete env.REDACTION_EXTRA_PATTERNS;
  if (extra.REDACTION_EXTRA_PATTERNS) env.REDACTION_EXTRA_PATTERNS = extra.REDACTION_EXTRA_PATTERNS;
  const r = await runBinary(["redaction-scan", ...args], { env, cwd });
  // The one rule for every output of every run: no planted secret ever appears unmasked.
  for (const s of SECRETS) {
    expect(r.stdout).not.toContain(s);
    expect(r.stderr).not.toContain(s);
  }
  return r;
}

const NO_ORG = "redaction-scan: WARNING — organization-specific rules not loaded (no rules in $REDACTION_EXTRA_PATTERNS or ~/.config/redaction-extra.txt); this scan covers generic patterns only\n";

describe("redaction-scan modes", () => {
  test("tracked (default): clean repo is exit 0 with the OK line; -C chooses the repository", async () => {
    const dir = repo({ "README.md": "hello\n", "src/a.ts": "export const x = 1;\n" });
    const r = await scan(["-C", dir]);
    expect(r).toEqual({ code: 0, stdout: "redaction-scan: OK — 0 findings (mode=tracked, files=2, commit-messages=not-scanned, org-rules=0)\n", stderr: NO_ORG });
    const inside = await scan([], {}, join(dir, "src"));
    expect(inside.code).toBe(0);
  });

  test("tracked findings: exit 1, masked, sorted, deduplicated; binaries skipped; untracked not scanned", async () => {
    const dir = repo({
      "b.txt": `token ${GH}\n`,
      "a.txt": `one\nkey = ${AWS}\nagain ${AWS} and ${SLACK}\n`,
      "blob.bin": Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(` ${AWS}\n`)]),
    });
    writeFileSync(join(dir, "untracked.txt"), `${AWS}\n`);
    const r = await scan(["-C", dir, "-v"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^redaction-scan: mode=tracked range=none files=3 commit-messages=not-scanned org-rules=0 config=built-in gitleaks\.toml engine=mogui \d+\.\d+\.\d+\n$/);
    expect(r.stderr).toBe(
      NO_ORG +
        "  a.txt:2  [aws_access_key] AWS access key id  :: key = AKIA****************\n" +
        "  a.txt:3  [aws_access_key] AWS access key id  :: again AKIA**************** and xox?-********\n" +
        "  a.txt:3  [slack_token] Slack token  :: again AKIA**************** and xox?-********\n" +
        "  b.txt:1  [github_token] GitHub token  :: token gh?_********\n" +
        "redaction-scan: note — 1 binary file(s) not scanned (blind spots): blob.bin\n" +
        "redaction-scan: FAIL — 4 finding(s) (fail-closed)\n" +
        "redaction-scan: fix, or exempt with a .gitleaksignore fingerprint, then re-run.\n",
    );
  });

  test(".gitleaksignore fingerprints (with or without a commit prefix) are honoured", async () => {
    const dir = repo({ "a.txt": `k ${AWS}\n`, "b.txt": `t ${GH}\n` });
    writeFileSync(join(dir, ".gitleaksignore"), `# reviewed\na.txt:aws_access_key:1\n${"0".repeat(40)}:b.txt:github_token:1\n`);
    expect((await scan(["-C", dir])).code).toBe(0);
  });

  test("--baseline: a content fingerprint survives a moved line; an older report's <file>:<rule>:<line> still counts", async () => {
    const dir = repo({ "a.txt": `k ${AWS}\n`, "b.txt": `t ${GH}\n` });
    const report = join(dir, "base.json");
    expect((await scan(["-C", dir, "--report-format", "json", "--report-path", report])).code).toBe(1);
    writeFileSync(join(dir, "a.txt"), `new line above\nand another\nk ${AWS}\n`);
    const moved = await scan(["-C", dir, "--paths", "a.txt", "b.txt", "--baseline", report]);
    expect(moved.code).toBe(0);
    expect(moved.stderr).toContain("redaction-scan: 2 finding(s) suppressed by the baseline or .gitleaksignore\n");
    const old = join(dir, "old.json");
    writeFileSync(old, JSON.stringify({ findings: [{ fingerprint: "a.txt:aws_access_key:3" }, { fingerprint: "b.txt:github_token:1" }] }));
    expect((await scan(["-C", dir, "--paths", "a.txt", "b.txt", "--baseline", old])).code).toBe(0);
    writeFileSync(join(dir, "a.txt"), `k ${AWS}\nk ${AWS}\n`);
    const again = await scan(["-C", dir, "--paths", "a.txt", "--baseline", report]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("  a.txt:2  [aws_access_key]");
  });

  test("--staged scans only staged files", async () => {
    const dir = repo({ "a.txt": "clean\n" });
    writeFileSync(join(dir, "new.txt"), `x ${AWS}\n`);
    expect((await scan(["-C", dir, "--staged"])).stdout).toContain("(mode=staged, files=0,");
    sh(dir, "add", "new.txt");
    const r = await scan(["-C", dir, "--staged"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("  new.txt:1  [aws_access_key]");
  });

  test("--range A..B: the files changed in the range and its commit messages", async () => {
    const dir = repo();
    const a = sh(dir, "rev-parse", "HEAD");
    commit(dir, { "c.txt": "fine\n" }, `deploy with ${GH}`);
    const b = commit(dir, { "d.txt": "fine too\n" }, "second");
    const r = await scan(["-C", dir, "--range", `${a}..${b}`]);
    expect(r.code).toBe(1);
    const sha = sh(dir, "rev-parse", "HEAD~1").slice(0, 12);
    expect(r.stderr).toContain(`  commit:${sha}:1  [github_token] GitHub token  :: deploy with gh?_********\n`);
    const clean = await scan(["-C", dir, "--range", `HEAD~1..HEAD`]);
    expect(clean.stdout).toBe("redaction-scan: OK — 0 findings (mode=range, files=1, commit-messages=1, org-rules=0)\n");
    const msgs = await scan(["-C", dir, "--commit-messages", `${a}..HEAD`]);
    expect(msgs.code).toBe(1);
  });

  test("--staged and --range read git's content, not the working tree", async () => {
    const dir = repo({ "a.txt": "clean\n" });
    writeFileSync(join(dir, "s.txt"), `x ${AWS}\n`);
    sh(dir, "add", "s.txt");
    writeFileSync(join(dir, "s.txt"), "edited away\n");
    const staged = await scan(["-C", dir, "--staged"]);
    expect(staged.code).toBe(1);
    expect(staged.stderr).toContain("  s.txt:1  [aws_access_key]");
    writeFileSync(join(dir, "a.txt"), `worktree only ${GH}\n`);
    sh(dir, "reset", "-q");
    sh(dir, "add", "s.txt");
    writeFileSync(join(dir, "s.txt"), `y ${AWS}\n`);
    sh(dir, "checkout", "--", "s.txt");
    expect((await scan(["-C", dir, "--staged"])).code).toBe(0);
    const base = sh(dir, "rev-parse", "HEAD");
    sh(dir, "commit", "-q", "-m", "add s");
    sh(dir, "checkout", "--", "a.txt");
    const mixed = commit(dir, { "k.md": "한국어 텍스트 가나다\n", "bin.dat": "\u0000\u0001 AKIA", "z.txt": `later ${SLACK}\n` }, "more");
    rmSync(join(dir, "z.txt"));
    const r = await scan(["-C", dir, "--range", `${base}..${mixed}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("redaction-scan: FAIL — 1 finding(s) (fail-closed)\n");
    expect(r.stderr).toContain("  z.txt:1  [slack_token] Slack token  :: later xox?-********\n");
  });

  test("--paths works without git, walks directories, names missing paths", async () => {
    const dir = tempDir();
    write(dir, { "docs/a.md": `see ${AWS}\n`, "docs/sub/b.md": "ok\n", "other.txt": "ok\n" });
    const r = await scan(["-C", dir, "--paths", "docs", "other.txt"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("  docs/a.md:1  [aws_access_key]");
    const ok = await scan(["-C", dir, "--paths", "docs/sub"]);
    expect(ok.stdout).toBe("redaction-scan: OK — 0 findings (mode=paths, files=1, commit-messages=not-scanned, org-rules=0)\n");
    const missing = await scan(["-C", dir, "--paths", "nope"]);
    expect(missing).toEqual({ code: 2, stdout: "", stderr: `${NO_ORG}redaction-scan: FAIL — no such path: nope\n` });
  });
});

describe("redaction-scan cannot decide (exit 2)", () => {
  test("usage: --range without .., stray positionals, --paths with nothing, conflicting modes", async () => {
    const dir = repo();
    const r = await scan(["-C", dir, "--range", "HEAD"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--range requires A..B");
    expect((await scan(["-C", dir, "stray"])).code).toBe(2);
    expect((await scan(["-C", dir, "--paths"])).code).toBe(2);
    expect((await scan(["-C", dir, "--staged", "--range", "a..b"])).code).toBe(2);
    expect((await scan(["-C", dir, "--bogus"])).code).toBe(2);
  });

  test("unresolvable ranges and a directory that is not a repository", async () => {
    const dir = repo();
    expect(await scan(["-C", dir, "--range", "nope..HEAD"])).toMatchObject({ code: 2, stderr: `${NO_ORG}redaction-scan: FAIL — range does not resolve in this repository: nope..HEAD\n` });
    expect(await scan(["-C", dir, "--commit-messages", "nope..HEAD"])).toMatchObject({ code: 2, stderr: `${NO_ORG}redaction-scan: FAIL — message range does not resolve: nope..HEAD\n` });
    const plain = tempDir();
    expect(await scan(["-C", plain])).toEqual({ code: 2, stdout: "", stderr: `redaction-scan: FAIL — not a git repository: ${plain}\n` });
  });

  test("rules config: missing explicit file, invalid TOML, a rule RE2 rejects (named by id, never the pattern)", async () => {
    const dir = repo();
    const missing = join(dir, "none.toml");
    expect(await scan(["-C", dir, "--config", missing])).toEqual({ code: 2, stdout: "", stderr: `redaction-scan: FAIL — missing ${missing}\n` });
    writeFileSync(join(dir, "bad.toml"), "[[rules]]\nid = 'x'\nregex = \"\\d\"\n");
    const bad = await scan(["-C", dir, "--config", join(dir, "bad.toml")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("line 3: unrecognised escape sequence");
    writeFileSync(join(dir, "la.toml"), "[[rules]]\nid = 'sneaky_rule'\nregex = '''(?<=key=)zebrapattern'''\n");
    const la = await scan(["-C", dir, "--config", join(dir, "la.toml")]);
    expect(la.code).toBe(2);
    expect(la.stderr).toBe("redaction-scan: FAIL — rule(s) not supported by RE2: sneaky_rule\nredaction-scan: rewrite those regexes without lookarounds or other non-RE2 constructs, then re-run.\n");
    expect(la.stderr).not.toContain("zebrapattern");
    const envCfg = await scan(["-C", dir], { GITLEAKS_CONFIG: join(dir, "la.toml") });
    expect(envCfg.code).toBe(2);
  });

  test("the repository's own config/gitleaks.toml is used when present", async () => {
    const dir = repo({ "config/gitleaks.toml": "[[rules]]\nid = 'word'\nregex = '''zebra[0-9]+'''\n", "a.txt": "zebra42\n" });
    const r = await scan(["-C", dir, "-v"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(" config=gitleaks.toml ");
    expect(r.stderr).toContain("  a.txt:1  [word] word  :: ********\n");
  });

  test("retired allowlist with entries; --require-extra and REDACTION_REQUIRE_EXTRA=1 without org rules", async () => {
    const dir = repo({ "scripts/redaction-allowlist.txt": "# retired\n\nsomething\n" });
    const r = await scan(["-C", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`redaction-scan: FAIL — ${join(dir, "scripts/redaction-allowlist.txt")} has entries in the retired format.\n`);
    const ok = repo();
    expect(await scan(["-C", ok, "--require-extra"])).toEqual({ code: 2, stdout: "", stderr: `${NO_ORG}redaction-scan: FAIL — required organization rules were not loaded\n` });
    expect((await scan(["-C", ok], { REDACTION_REQUIRE_EXTRA: "1" })).code).toBe(2);
  });
});

describe("organisation rules (REDACTION_EXTRA_PATTERNS)", () => {
  test("loaded rules find org identifiers; counts only; unusable and no-native-script warnings", async () => {
    const dir = repo({ "notes.md": `the ${ORG_ID} launch\n` });
    const rules = join(tempDir(), "extra.txt");
    writeFileSync(rules, `# org rules\nnightjar|Codename|project${"night"}jar\nbroken line\n`);
    const r = await scan(["-C", dir, "-v"], { REDACTION_EXTRA_PATTERNS: rules });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(" org-rules=1 ");
    expect(r.stderr).toBe(
      "redaction-scan: WARNING — 1 of 2 organization rule lines are unusable and were skipped\n" +
        "redaction-scan: WARNING — organization rules contain no native script pattern; romanization only identifier rules miss native spellings\n" +
        "  notes.md:1  [nightjar] Codename  :: the ******** launch\n" +
        "redaction-scan: FAIL — 1 finding(s) (fail-closed)\n" +
        "redaction-scan: fix, or exempt with a .gitleaksignore fingerprint, then re-run.\n",
    );
    writeFileSync(rules, "kr|Hangul codename|야간[가-힣]+\n");
    const kr = await scan(["-C", dir, "--require-extra"], { REDACTION_EXTRA_PATTERNS: rules });
    expect(kr).toEqual({ code: 0, stdout: "redaction-scan: OK — 0 findings (mode=tracked, files=1, commit-messages=not-scanned, org-rules=1)\n", stderr: "" });
  });

  test("an org rule RE2 rejects stops the scan, named by id only", async () => {
    const dir = repo();
    const rules = join(tempDir(), "extra.txt");
    writeFileSync(rules, "good|Fine|abc\nlook_rule|Lookahead|secretword(?=x)\n");
    const r = await scan(["-C", dir], { REDACTION_EXTRA_PATTERNS: rules });
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: "redaction-scan: FAIL — organization rule(s) not supported by RE2: look_rule\nredaction-scan: rewrite those regexes without lookarounds or other non-RE2 constructs, then re-run.\n",
    });
  });
});

describe("--engine gitleaks", () => {
  test("gitleaks missing: exit 2 with the install hint", async () => {
    const dir = repo();
    const env = { PATH: "/usr/bin:/bin" };
    const r = await scan(["-C", dir, "--engine", "gitleaks"], env);
    expect(r).toEqual({ code: 2, stdout: "", stderr: "redaction-scan: FAIL — gitleaks is not on PATH; install it (brew install gitleaks) or see https://gitleaks.io\n" });
  });

  test("delegates file and message scans to gitleaks; an engine error is exit 2, not a finding", async () => {
    const dir = repo({ "a.txt": "x FAKELEAK_one y\n", "b.txt": "clean\n" });
    const log = join(tempDir(), "calls.log");
    const env = { PATH: `${FAKE_GITLEAKS_DIR}:/usr/bin:/bin`, FAKE_GITLEAKS_LOG: log };
    const r = await scan(["-C", dir, "--engine", "gitleaks", "-v", "--commit-messages", "HEAD~0"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(" engine=gitleaks 8.18.4\n");
    expect(r.stderr).toContain("  a.txt:1  [fake_rule] Fake leak  :: x ******** y\n");
    const calls = (await Bun.file(log).text()).trim().split("\n");
    expect(calls.filter((c) => c.startsWith("dir ")).length).toBe(2);
    expect(calls.filter((c) => c.startsWith("stdin ")).length).toBe(1);
    expect(calls.every((c) => c === "version" || c.includes("--config"))).toBe(true);
    const boom = await scan(["-C", dir, "--engine", "gitleaks"], { ...env, FAKE_GITLEAKS_FAIL: "1" });
    expect(boom.code).toBe(2);
    expect(boom.stderr).toContain("redaction-scan: FAIL — gitleaks failed on a.txt (engine error, not a finding)\n");
  });
});

test("the shim scripts/redaction-scan.sh runs the binary", async () => {
  const dir = repo();
  chmodSync(join(ROOT, "scripts", "redaction-scan.sh"), 0o755);
  const p = Bun.spawnSync([join(ROOT, "scripts", "redaction-scan.sh"), "-C", dir], { env: e2eEnv({ HOME: tempDir() }), stdout: "pipe", stderr: "pipe" });
  expect(p.exitCode).toBe(0);
  expect(p.stdout.toString()).toContain("redaction-scan: OK — 0 findings");
});

test("a large scan is split across processes with the same findings as one process", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "many"));
  for (let i = 0; i < 2400; i++) writeFileSync(join(dir, "many", `f${String(i).padStart(4, "0")}.txt`), i % 1000 === 7 ? `leak ${AWS}\n` : `plain ${i}\n`);
  const one = await scan(["-C", dir, "--paths", "many"], { MOGUI_SCAN_JOBS: "1" });
  const three = await scan(["-C", dir, "--paths", "many"], { MOGUI_SCAN_JOBS: "3" });
  expect(one.code).toBe(1);
  expect(three).toEqual(one);
  expect(three.stderr).toContain("  many/f0007.txt:1  [aws_access_key]");
  expect(three.stderr).toContain("  many/f2007.txt:1  [aws_access_key]");
  expect(three.stderr).toContain("redaction-scan: FAIL — 3 finding(s) (fail-closed)\n");
});

test("a walk that counts 2000 files starts the child processes early; with fewer distinct files they get none (one process after all)", async () => {
  const dir = tempDir();
  const tmp = tempDir();
  mkdirSync(join(dir, "many"));
  for (let i = 0; i < 1200; i++) writeFileSync(join(dir, "many", `f${String(i).padStart(4, "0")}.txt`), i % 1000 === 7 ? `leak ${AWS}\n` : `plain ${i}\n`);
  // The directory given twice: the walk sees 2400 entries, 1200 distinct files.
  const twice = await scan(["-C", dir, "--paths", "many", "many"], { MOGUI_SCAN_JOBS: "3", TMPDIR: tmp });
  const once = await scan(["-C", dir, "--paths", "many"], { MOGUI_SCAN_JOBS: "1", TMPDIR: tmp });
  expect(twice.code).toBe(1);
  expect(twice).toEqual(once);
  expect(twice.stderr).toContain("redaction-scan: FAIL — 2 finding(s) (fail-closed)\n");
  // The children's lists are gone, and so are the children.
  expect(readdirSync(tmp)).toEqual([]);
});

test("--engine gitleaks with --staged pipes the staged content to gitleaks stdin", async () => {
  const dir = repo({ "a.txt": "clean\n" });
  writeFileSync(join(dir, "s.txt"), "x FAKELEAK_staged y\n");
  sh(dir, "add", "s.txt");
  writeFileSync(join(dir, "s.txt"), "gone\n");
  const r = await scan(["-C", dir, "--engine", "gitleaks", "--staged"], { PATH: `${FAKE_GITLEAKS_DIR}:/usr/bin:/bin` });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("  s.txt:1  [fake_rule] Fake leak  :: x ******** y\n");
});

test("UTF-16 files (with a BOM) are decoded in every mode: the working tree and git's content", async () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`line one\ntoken ${GH}\n`, "utf16le")]);
  const dir = repo({ "a.txt": "clean\n" });
  const base = sh(dir, "rev-parse", "HEAD");
  write(dir, { "w16.txt": le });
  sh(dir, "add", ".");
  sh(dir, "commit", "-q", "-m", "utf16");
  for (const args of [
    ["-C", dir],
    ["-C", dir, "--range", `${base}..HEAD`],
  ]) {
    const r = await scan(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("  w16.txt:2  [github_token] GitHub token  :: token gh?_********\n");
    expect(r.stderr).not.toContain("blind spots");
  }
});
