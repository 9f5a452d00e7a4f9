// Exit-code tables of the `mogui worker ...` commands, in process. The stub runner fails on ANY call: every case
// here must be decided before a host or git is touched.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";
import { stubRunner } from "../../helpers/stub-runner.ts";

const POLICY = join(ROOT, "config", "worker-surface-policy.example.json");
const TEMPLATE = join(ROOT, "fixtures", "worker", "brief-template.md");
const FINDINGS = join(ROOT, "fixtures", "worker", "findings-example.md");

function setup(withPolicy = true) {
  const home = tempDir("workers-cmd-");
  const env = { MOGUI_HOME: home, HOME: home, ...(withPolicy ? { MOGUI_WORKER_POLICY: POLICY } : {}) };
  const run = (...argv: string[]) => runMain(argv, { env, cwd: home, runner: stubRunner([]) });
  return { home, run };
}

const spawn = (extra: string[]) => ["worker", "spawn", "--issue", "rob1", "--stage", "impl", "--name", "rob1-fix", "--model", "claude-opus-5", "--owner", "o", "--brief", TEMPLATE, "--workspace", "w1", "--repo", ROOT, ...extra];

describe("worker classify", () => {
  test.each([
    [["--path", "tools/a.py"], 0],
    [["--path", "vendor/x.c"], 3],
    [["--path", "deploy/x", "--proposed", "T2"], 4],
    [["--path", "tools/a", "--grade", "C", "--profile-grade", "A"], 4],
    [["--path", "tools/a", "--proposed", "T7"], 2],
    [["--path", "tools/a", "--repo", "."], 2],
    [[], 2],
  ] as const)("%p -> %d", async (args, code) => {
    expect((await setup().run("worker", "classify", ...args)).code).toBe(code);
  });

  test("no policy file: exit 2 naming the path and the example", async () => {
    const r = await setup(false).run("worker", "classify", "--path", "x");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/surface policy unreadable: .*config\/worker-surface-policy\.json: ENOENT \(write one: mogui config example worker-surface-policy --out .*config\/worker-surface-policy\.json; or mogui config init; or pass --policy\)/);
  });
});

describe("worker brief-lint", () => {
  test("0 clean / 1 findings / 2 unreadable", async () => {
    const s = setup();
    expect((await s.run("worker", "brief-lint", TEMPLATE)).code).toBe(0);
    const bad = join(s.home, "bad.md");
    writeFileSync(bad, "# Brief\n- [D1] do a thing\n");
    const r = await s.run("worker", "brief-lint", bad, "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings.map((f: { code: string }) => f.code)).toContain("DIRECTIVE_UNCHECKED");
    expect((await s.run("worker", "brief-lint", join(s.home, "missing.md"))).code).toBe(2);
    expect((await s.run("worker", "brief-lint")).code).toBe(2);
  });
});

describe("worker spawn refuses before touching anything", () => {
  test.each([
    [["--path", "tools/a", "--name", "x"], 2, /flag --name given more than once/],
    [["--path", "vendor/x.c"], 3, /NEEDS_CLASSIFICATION/],
    [["--path", "deploy/x"], 4, /downgrade refused/],
    [["--path", "tools/a", "--worktree", join(ROOT, "inside")], 2, /inside the canonical checkout/],
    [["--path", "tools/a", "--kind", "claude", "--model", "x"], 2, /--model given more than once/],
  ] as const)("%p -> %d", async (args, code, msg) => {
    const r = await setup().run(...spawn([...args]));
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(msg);
  });

  test("bad name, missing model, no workspace on herdr, no --path, T0 brief, unclean brief", async () => {
    const s = setup();
    const base = spawn(["--path", "tools/a"]);
    const named = [...base];
    named[named.indexOf("rob1-fix")] = "Rob_1";
    expect((await s.run(...named)).stderr).toContain("must match ^[a-z][a-z0-9_-]{0,31}$");
    const noModel = base.filter((a, i) => a !== "--model" && base[i - 1] !== "--model");
    expect((await s.run(...noModel)).stderr).toContain("missing required flag --model");
    const noWs = base.filter((a, i) => a !== "--workspace" && base[i - 1] !== "--workspace");
    expect((await s.run(...noWs)).stderr).toContain("--workspace is required on herdr");
    expect((await s.run(...spawn([]))).stderr).toContain("at least one --path");
    const t0 = join(s.home, "t0.md");
    writeFileSync(t0, (await Bun.file(TEMPLATE).text()).replace("- T: T1", "- T: T0"));
    const r0 = await s.run(...spawn(["--path", ".gitignore", "--diff-lines", "2"]).map((a) => (a === TEMPLATE ? t0 : a)));
    expect(r0.code).toBe(7);
    const unclean = join(s.home, "unclean.md");
    writeFileSync(unclean, (await Bun.file(TEMPLATE).text()).replace("## Prohibitions", "## Notes"));
    const r6 = await s.run(...spawn(["--path", "tools/a"]).map((a) => (a === TEMPLATE ? unclean : a)));
    expect(r6.code).toBe(6);
    expect(r6.stderr).toContain("MISSING_SECTION");
  });
});

describe("ledger-backed commands", () => {
  test("unknown job, bad findings, bad --state, bad SHA are exit 2", async () => {
    const s = setup();
    expect((await s.run("worker", "verdict", "--job", "j", "--findings", FINDINGS, "--verifier-model", "gpt-5", "--verifier-session", "v")).stderr).toContain("no job j in");
    const bad = join(s.home, "f.md");
    writeFileSync(bad, "- [MAJOR] x\n");
    expect((await s.run("worker", "verdict", "--job", "j", "--findings", bad, "--verifier-model", "m", "--verifier-session", "v")).code).toBe(2);
    expect((await s.run("worker", "decide", "--job", "j", "--state", "done")).code).toBe(2);
    expect((await s.run("worker", "verify-push", "--repo", ".", "--branch", "b", "--sha", "XYZ")).code).toBe(2);
    expect((await s.run("worker", "verify-push", "--repo", ".", "--branch", "b")).code).toBe(2);
    // An option-shaped remote or diff base is refused before git runs (the stub runner refuses every call).
    const opt = await s.run("worker", "verify-push", "--repo", ".", "--branch", "b", "--sha", "1a2b3c4d", "--remote=--upload-pack=touch /tmp/x");
    expect(opt.code).toBe(2);
    expect(opt.stderr).toContain("--remote must be a remote name or URL, not an option");
    const base = await s.run("worker", "classify", "--repo", ".", "--base=--output=/tmp/x");
    expect(base.code).toBe(2);
    expect(base.stderr).toContain("diff base '--output=/tmp/x' must be a ref, not an option");
  });

  test("sweep and verdict: a broken policy file is exit 2, never a silent fall back to the defaults", async () => {
    const s = setup(false);
    const broken = join(s.home, "policy.json");
    writeFileSync(broken, "{ not json");
    const sw = await s.run("worker", "sweep", "--workspace", "w1", "--policy", broken);
    expect(sw.code).toBe(2);
    expect(sw.stderr).toContain("worker sweep: surface policy is not JSON");
    const vd = await s.run("worker", "verdict", "--job", "j", "--findings", FINDINGS, "--verifier-model", "gpt-5", "--verifier-session", "v", "--policy", broken);
    expect(vd.code).toBe(2);
    expect(vd.stderr).toContain("worker verdict: surface policy is not JSON");
    const named = await s.run("worker", "sweep", "--workspace", "w1", "--policy", join(s.home, "typo.json"));
    expect(named.code).toBe(2);
    expect(named.stderr).toContain("surface policy unreadable");
  });

  test("a corrupt ledger line is LEDGER_UNAVAILABLE with its line number (exit 2)", async () => {
    const s = setup();
    mkdirSync(s.home, { recursive: true });
    writeFileSync(join(s.home, "jobs-ledger.jsonl"), '{"event":"rep"}\nnot json\n{"event":"rep"}\n');
    for (const cmd of [
      ["collect", "--owner", "o"],
      ["status", "--owner", "o"],
      ["reps", "report"],
      ["sweep", "--workspace", "w1"],
    ]) {
      const r = await s.run("worker", ...cmd);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/LEDGER_UNAVAILABLE: .*jobs-ledger\.jsonl:2: corrupt line/);
    }
  });

  test("reps add: guessed tokens are refused, measured ones need a source", async () => {
    const s = setup();
    const base = ["worker", "reps", "add", "--profile", "p", "--model", "m", "--task", "t", "--tier", "T1", "--role", "impl", "--rounds", "1", "--blockers-found", "1", "--completed", "0"];
    expect((await s.run(...base, "--input-tokens", "~5000")).code).toBe(2);
    expect((await s.run(...base, "--input-tokens", "5k")).code).toBe(2);
    const r = await s.run(...base, "--input-tokens", "5000");
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("--tokens-source");
    expect((await s.run(...base, "--input-tokens", "5123", "--tokens-source", "usage api", "--json")).code).toBe(0);
    expect((await s.run(...base, "--tier", "T5")).code).toBe(2);
    const rep = await s.run("worker", "reps", "report", "--json");
    expect(JSON.parse(rep.stdout).profiles).toEqual([expect.objectContaining({ launch_profile: "m@default", runs: 1, completed: 0, input_tokens: 5123 })]);
  });
});

describe("the worker and worker reps groups", () => {
  test("--help lists the subcommands (exit 0); a bare group is exit 2; a flag before the subcommand is the subcommand's", async () => {
    const s = setup();
    const help = await s.run("worker", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\n {2}classify: +Scale T0-T3[\s\S]*\n {2}reps: +Measured runs/);
    const reps = await s.run("worker", "reps", "--help");
    expect(reps.code).toBe(0);
    expect(reps.stdout).toMatch(/\n {2}add: +Record a measured run[\s\S]*\n {2}report: +Aggregate recorded runs/);
    expect((await s.run("worker")).code).toBe(2);
    expect((await s.run("worker", "reps")).code).toBe(2);
    const lead = await s.run("worker", "--json", "reps", "report");
    expect(lead.code).toBe(0);
    expect(JSON.parse(lead.stdout)).toEqual({ ledger: join(s.home, "jobs-ledger.jsonl"), profiles: [], runs: 0 });
  });
});
