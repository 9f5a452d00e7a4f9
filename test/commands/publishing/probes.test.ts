import { describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const T = (n: string) => join(ROOT, "fixtures", "transcripts", n);
const ACTION = "propose a clean-spawn succession and review delegation state for sensitive areas";
const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: tempDir(), TZ: "UTC", MOGUI_HOME: tempDir(), ...extra });
const probe = (args: string[], e = env()) => runMain(["model-identity-probe", ...args], { env: e });
const auditCmd = (args: string[], e = env()) => runMain(["model-drift-audit", ...args], { env: e });

describe("model-identity-probe", () => {
  const rows: Array<[string, string[], number, string]> = [
    ["OK, last 10 of 12", ["--transcript", T("claude-clean.jsonl"), "--expect", "claude-opus-4-1"], 0, "MODEL-PROBE OK claude-opus-4-1 10/10\n"],
    ["OK with --limit 3", ["--transcript", T("claude-clean.jsonl"), "--expect", "claude-opus-4-1", "--limit", "3"], 0, "MODEL-PROBE OK claude-opus-4-1 3/3\n"],
    ["INFO without expectation", ["--transcript", T("claude-switch.jsonl")], 0, "MODEL-PROBE INFO claude-opus-4-1=4, claude-sonnet-4-5=3 — no expected model supplied (--expect or MODEL_IDENTITY_EXPECT); nothing asserted\n"],
    ["DRIFT on a mid-session switch", ["--transcript", T("claude-switch.jsonl"), "--expect", "claude-opus-4-1", "--limit", "5"], 2, `MODEL-PROBE DRIFT: claude-sonnet-4-5=3, claude-opus-4-1=2 — ${ACTION}\n`],
    ["Codex: model from turn_context", ["--transcript", T("codex-clean.jsonl"), "--expect", "gpt-5-codex"], 0, "MODEL-PROBE OK gpt-5-codex 5/5\n"],
    ["Codex switch", ["--transcript", T("codex-switch.jsonl"), "--expect", "gpt-5-codex"], 2, `MODEL-PROBE DRIFT: gpt-5-codex=3, gpt-5=2 — ${ACTION}\n`],
    ["torn last line ignored", ["--transcript", T("claude-torn.jsonl"), "--expect", "claude-opus-4-1"], 0, "MODEL-PROBE OK claude-opus-4-1 3/3\n"],
    ["malformed lines skipped and counted", ["--transcript", T("claude-malformed.jsonl"), "--expect", "claude-opus-4-1"], 0, "MODEL-PROBE OK claude-opus-4-1 3/3 (skipped 3 malformed lines, first at line 3)\n"],
    ["synthetic counted in the sample", ["--transcript", T("claude-synthetic.jsonl"), "--expect", "claude-opus-4-1"], 2, `MODEL-PROBE DRIFT: claude-opus-4-1=4, <synthetic>=1 — ${ACTION}\n`],
    ["invalid limit", ["--transcript", T("claude-clean.jsonl"), "--limit", "0"], 2, `MODEL-PROBE DRIFT: invalid limit - 0 — ${ACTION}\n`],
    ["non-numeric limit", ["--transcript", T("claude-clean.jsonl"), "--limit", "x"], 2, `MODEL-PROBE DRIFT: invalid limit - x — ${ACTION}\n`],
  ];
  for (const [name, args, code, stdout] of rows) {
    test(name, async () => {
      const r = await probe(args);
      expect(r).toEqual({ code, stdout, stderr: "" });
    });
  }

  test("undecidable: no assistant turns, all synthetic, unsupported format, missing file", async () => {
    const cases: Array<[string, RegExp]> = [
      ["claude-no-assistant.jsonl", /^MODEL-PROBE DRIFT: undecidable - no assistant turns in .*claude-no-assistant\.jsonl — /],
      ["claude-all-synthetic.jsonl", /^MODEL-PROBE DRIFT: undecidable - no real model in the last 2 assistant turns \(<synthetic>=2\) in /],
      ["claude-missing-model.jsonl", /^MODEL-PROBE DRIFT: undecidable - no real model in the last 1 assistant turns \(<missing>=1\)/],
      ["unknown-format.jsonl", /^MODEL-PROBE DRIFT: unsupported - transcript format not recognised/],
      ["does-not-exist.jsonl", /^MODEL-PROBE DRIFT: transcript_error=cannot read .*does-not-exist\.jsonl: ENOENT — /],
    ];
    for (const [file, re] of cases) {
      const r = await probe(["--transcript", T(file), "--expect", "claude-opus-4-1"]);
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(re);
      expect(r.stdout.split("\n").length).toBe(2);
      expect(r.stderr).toBe("");
    }
  });

  test("MODEL_IDENTITY_EXPECT is the default expectation", async () => {
    const r = await probe(["--transcript", T("codex-switch.jsonl")], env({ MODEL_IDENTITY_EXPECT: "gpt-5" }));
    expect(r.code).toBe(2);
    expect(r.stdout).toStartWith("MODEL-PROBE DRIFT: gpt-5-codex=3, gpt-5=2");
  });

  test("MOGUI_TRANSCRIPT_GLOB: the newest match wins", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "a", "b"), { recursive: true });
    writeFileSync(join(dir, "a", "old.jsonl"), await Bun.file(T("codex-switch.jsonl")).text());
    writeFileSync(join(dir, "a", "b", "new.jsonl"), await Bun.file(T("codex-clean.jsonl")).text());
    utimesSync(join(dir, "a", "old.jsonl"), new Date(1_000_000), new Date(1_000_000));
    const r = await probe(["--expect", "gpt-5-codex"], env({ MOGUI_TRANSCRIPT_GLOB: `${dir}/**/*.jsonl` }));
    expect(r).toEqual({ code: 0, stdout: "MODEL-PROBE OK gpt-5-codex 5/5\n", stderr: "" });
  });

  test("instance config: runtime glob, unconfigured, no match", async () => {
    const home = tempDir();
    const dir = tempDir();
    writeFileSync(join(dir, "s.jsonl"), await Bun.file(T("claude-clean.jsonl")).text());
    mkdirSync(join(home, "config"), { recursive: true });
    writeFileSync(join(home, "config", "instance-runtime.json"), JSON.stringify({ master_host_runtime: "claude", transcript_globs: { claude: `${dir}/*.jsonl`, codex: `${dir}/none/*.jsonl` } }));
    const ok = await probe(["--expect", "claude-opus-4-1"], env({ MOGUI_HOME: home }));
    expect(ok.stdout).toBe("MODEL-PROBE OK claude-opus-4-1 10/10\n");
    const none = await probe(["--runtime", "codex"], env({ MOGUI_HOME: home }));
    expect(none).toEqual({ code: 2, stdout: `MODEL-PROBE DRIFT: transcript_error=no transcript files matched configured glob '${dir}/none/*.jsonl' — ${ACTION}\n`, stderr: "" });
    const unconf = await probe([], env({ MOGUI_HOME: tempDir() }));
    expect(unconf.code).toBe(2);
    expect(unconf.stdout).toMatch(/^MODEL-PROBE DRIFT: unconfigured - master host runtime is unconfigured: set MOGUI_MASTER_HOST_RUNTIME/);
    writeFileSync(join(home, "config", "instance-runtime.json"), "{not json");
    const bad = await probe([], env({ MOGUI_HOME: home }));
    expect(bad.stdout).toMatch(/^MODEL-PROBE DRIFT: unconfigured - instance runtime config is not valid JSON/);
  });

  test("usage errors are exit 2", async () => {
    const r = await probe(["--limit"]);
    expect(r.code).toBe(2);
    expect((await probe(["--bogus"])).code).toBe(2);
  });
});

describe("model-drift-audit", () => {
  test("no transition, expected match: exit 0 and the text report", async () => {
    const r = await auditCmd(["--transcript", T("claude-clean.jsonl"), "--expect", "claude-opus-4-1"]);
    expect(r).toEqual({
      code: 0,
      stdout: "model-drift-audit: claude-clean.jsonl\n  distribution: claude-opus-4-1=12  (assistant turns 12)\n  no transition\n  expected claude-opus-4-1: match\n",
      stderr: "",
    });
  });

  test("a switch in the middle: exit 1 with the transition at local time", async () => {
    const r = await auditCmd(["--transcript", T("claude-switch.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("model-drift-audit: claude-switch.jsonl\n  distribution: claude-opus-4-1=4 / claude-sonnet-4-5=3  (assistant turns 7)\n  transitions: 1\n    11-30 08:04:30  claude-opus-4-1 -> claude-sonnet-4-5\n");
  });

  test("synthetic turns: transitions with and without --ignore-synthetic (JSON)", async () => {
    const withS = await auditCmd(["--transcript", T("claude-synthetic.jsonl"), "--json"]);
    expect(withS.code).toBe(1);
    const j = JSON.parse(withS.stdout);
    expect(Object.keys(j).sort()).toEqual(["assistant_turns", "counts", "drift", "expect", "expect_mismatch", "format", "malformed_lines", "transcript", "transitions", "transitions_including_synthetic"]);
    expect(j.transitions).toEqual([
      { at: "11-30 08:02:30", from: "claude-opus-4-1", to: "<synthetic>" },
      { at: "11-30 08:03:30", from: "<synthetic>", to: "claude-opus-4-1" },
    ]);
    expect(j.counts).toEqual({ "claude-opus-4-1": 4, "<synthetic>": 1 });
    const without = await auditCmd(["--transcript", T("claude-synthetic.jsonl"), "--json", "--ignore-synthetic", "--expect", "claude-opus-4-1"]);
    expect(without.code).toBe(0);
    const k = JSON.parse(without.stdout);
    expect(k.transitions).toEqual([]);
    expect(k.transitions_including_synthetic.length).toBe(2);
    expect(k).toMatchObject({ drift: false, expect: "claude-opus-4-1", expect_mismatch: false, format: "claude-code" });
    expect(without.stdout).toContain(',"drift":false,'); // one compact document, keys sorted
  });

  test("expectation mismatch without a transition is exit 1", async () => {
    const r = await auditCmd(["--transcript", T("codex-clean.jsonl"), "--expect", "gpt-5"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("  expected gpt-5: MISMATCH\n");
  });

  test("Codex switch and malformed lines (warning on stderr)", async () => {
    const c = await auditCmd(["--transcript", T("codex-switch.jsonl"), "--json"]);
    expect(c.code).toBe(1);
    expect(JSON.parse(c.stdout)).toMatchObject({ format: "codex", transitions: [{ at: "11-30 09:05:00", from: "gpt-5-codex", to: "gpt-5" }] });
    const m = await auditCmd(["--transcript", T("claude-malformed.jsonl")]);
    expect(m.code).toBe(0);
    expect(m.stderr).toBe("model-drift-audit: warning: skipped 3 malformed line(s)\n");
    const t = await auditCmd(["--transcript", T("claude-torn.jsonl")]);
    expect(t).toMatchObject({ code: 0, stderr: "" });
  });

  test("undecidable cases are exit 2 with the FAIL lines", async () => {
    const rows: Array<[string[], string]> = [
      [["--transcript", T("claude-no-assistant.jsonl")], "model-drift-audit: FAIL. zero assistant turns, undecidable\n"],
      [["--transcript", T("claude-all-synthetic.jsonl")], "model-drift-audit: FAIL. no real model observed (all 2 assistant turns are <synthetic> or <missing>), undecidable\n"],
      [["--transcript", T("unknown-format.jsonl")], "model-drift-audit: FAIL. unsupported transcript format (neither Claude Code nor Codex JSONL): unknown-format.jsonl, undecidable\n"],
      [["--transcript", T("nope.jsonl")], `model-drift-audit: FAIL. no transcript found (session=unset, workspace=unset): ${T("nope.jsonl")}\n`],
      [["--session", "abc"], "model-drift-audit: FAIL. no transcript found (session=abc, workspace=unset)\n"],
    ];
    for (const [args, stderr] of rows) expect(await auditCmd(args)).toEqual({ code: 2, stdout: "", stderr });
  });

  test("--session and --workspace-dir lookups under the projects dir (env defaults)", async () => {
    const projects = tempDir();
    mkdirSync(join(projects, "ws-one"), { recursive: true });
    writeFileSync(join(projects, "ws-one", "sess-1.jsonl"), await Bun.file(T("claude-switch.jsonl")).text());
    const s = await auditCmd(["--session", "sess-1", "--projects-dir", projects]);
    expect(s.code).toBe(1);
    expect(s.stdout).toStartWith("model-drift-audit: sess-1.jsonl\n");
    const w = await auditCmd([], env({ MODEL_DRIFT_PROJECTS_DIR: projects, MODEL_DRIFT_WORKSPACE_DIR: "/x/ws-one" }));
    expect(w.code).toBe(1);
    const dots = await auditCmd(["--session", "..", "--projects-dir", projects]);
    expect(dots.code).toBe(2);
  });
});

test("invalid UTF-8: a bad middle line is malformed (skipped, counted); a torn multi-byte last line is ignored", async () => {
  const dir = tempDir();
  const good = await Bun.file(T("claude-clean.jsonl")).bytes();
  const bad = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]); // {"\xff\xfe"}\n
  const torn = Buffer.from('{"type":"assistant","message":{"role":"assistant","model":"\uD55C', "utf8").subarray(0, -1);
  const p = join(dir, "u.jsonl");
  writeFileSync(p, Buffer.concat([bad, Buffer.from(good), torn]));
  const r = await probe(["--transcript", p, "--expect", "claude-opus-4-1"]);
  expect(r).toEqual({ code: 0, stdout: "MODEL-PROBE OK claude-opus-4-1 10/10 (skipped 1 malformed line, first at line 1)\n", stderr: "" });
  const a = await auditCmd(["--transcript", p]);
  expect(a.code).toBe(0);
  expect(a.stderr).toBe("model-drift-audit: warning: skipped 1 malformed line(s)\n");
});
