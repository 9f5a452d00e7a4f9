import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitEnv, sh } from "../../helpers/git.ts";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

function repo(files: Record<string, string | Buffer>): string {
  const dir = join(tempDir(), "r");
  mkdirSync(dir, { recursive: true });
  sh(dir, "init", "-q", "-b", "main");
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  if (Object.keys(files).length) {
    sh(dir, "add", ".");
    sh(dir, "commit", "-q", "-m", "init");
  }
  return dir;
}

function rulesFile(text: string): string {
  const p = join(tempDir(), "extra.txt");
  writeFileSync(p, text);
  return p;
}

const NO_DICT = join("/nonexistent", "words");
const run = (args: string[], extra: Record<string, string | undefined> = {}) => runMain(["redaction-inventory", ...args], { env: { ...gitEnv(), REDACTION_INVENTORY_DICT: NO_DICT, ...extra } });

const FILES = {
  "docs/a.md": "The acme-rocket launch and acme-rocket again; see widget-factory.\nmail ops@acme-corp.io or x@example.com\n",
  "notes/ko.md": "우리 팀의 zanzibar 프로젝트는 review 단계\n",
  "log.txt": "/Users/jdoe/work and /home/builder/x\n",
  "bin.dat": Buffer.from([0, 1, 2, 97, 99, 109, 101, 45, 98, 105, 110]),
  "src/read-only.ts": "export const x = 'dry-run';\n",
};

describe("redaction-inventory", () => {
  test("buckets, counts, rule coverage and the baseline; exit 1 with candidates", async () => {
    const dir = repo(FILES);
    writeFileSync(join(dir, ".redaction-inventory-baseline"), "# reviewed\nwidget-factory\n");
    const rules = rulesFile("rocket|Rocket codename|acme-rocket\nbad line\n");
    const r = await run(["-C", dir], { REDACTION_EXTRA_PATTERNS: rules });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        "redaction-inventory: 1 rules / scope tracked / 5 files / baseline 1 / 1 unusable of 2 rule lines",
        "",
        "[kebab] 1",
        "      1  acme-corp",
        "",
        "[word_in_korean] 1",
        "      1  zanzibar",
        "",
        "[home_user] 2",
        "      1  /Users/jdoe",
        "      1  /home/builder",
        "",
        "[email_domain] 1",
        "      1  acme-corp.io",
        "redaction-inventory: 5 uncovered candidates. Not all of them are secrets. Pick the ones that belong in a rule.",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe(`redaction-inventory: note: ${NO_DICT} not found; using the built-in English word list (expect more word_in_korean candidates)\n`);
  });

  test("--json, --min-count, a system dictionary, and OK with exit 0", async () => {
    const dir = repo(FILES);
    const dict = join(tempDir(), "words");
    writeFileSync(dict, "zanzibar\nreview\n");
    const rules = rulesFile("all|Everything known|acme|jdoe|builder\n");
    const j = await run(["-C", dir, "--json", "--min-count", "1"], { REDACTION_EXTRA_PATTERNS: rules, REDACTION_INVENTORY_DICT: dict });
    expect(j.code).toBe(1);
    const doc = JSON.parse(j.stdout);
    expect(Object.keys(doc).sort()).toEqual(["baseline", "rules", "rules_considered", "rules_unusable", "tracked_files", "uncovered", "uncovered_total"]);
    expect(doc.uncovered).toEqual({ kebab: [{ token: "widget-factory", count: 1 }], word_in_korean: [], home_user: [], email_domain: [] });
    expect(j.stderr).toBe("");
    const two = await run(["-C", dir, "--min-count", "2"], { REDACTION_EXTRA_PATTERNS: rules, REDACTION_INVENTORY_DICT: dict });
    expect(two.code).toBe(0);
    expect(two.stdout).toEndWith("redaction-inventory: OK. 0 uncovered candidates\n");
  });

  test("cannot decide: exit 2 with the FAIL lines", async () => {
    const dir = repo(FILES);
    const rules = rulesFile("a|b|c\n");
    const rows: Array<[string[], Record<string, string | undefined>, string]> = [
      [["-C", dir], { REDACTION_EXTRA_PATTERNS: undefined }, "redaction-inventory: FAIL. REDACTION_EXTRA_PATTERNS is unset. A blind spot cannot be measured without rules.\n"],
      [["-C", dir], { REDACTION_EXTRA_PATTERNS: "/nonexistent/rules.txt" }, "redaction-inventory: FAIL. REDACTION_EXTRA_PATTERNS is unset. A blind spot cannot be measured without rules.\n"],
      [["-C", dir], { REDACTION_EXTRA_PATTERNS: rulesFile("# only comments\nnot a rule\n") }, "redaction-inventory: FAIL. No rules could be read from the pattern file.\n"],
      [["-C", tempDir()], { REDACTION_EXTRA_PATTERNS: rules }, "redaction-inventory: FAIL. Not a git repository.\n"],
      [["-C", repo({})], { REDACTION_EXTRA_PATTERNS: rules }, "redaction-inventory: FAIL. No tracked files to scan.\n"],
    ];
    for (const [args, env, stderr] of rows) expect(await run(args, env)).toEqual({ code: 2, stdout: "", stderr });
    const bad = await run(["-C", dir, "--min-count", "few"], { REDACTION_EXTRA_PATTERNS: rules });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--min-count must be a whole number (got 'few')");
  });
});
