/**
 * The evidence family in process through main(argv): every exit code of every command's table, with the exact
 * stdout/stderr contracts (JSON documents, one-line errors naming the file).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACCEPTANCE_BIN, makeAcceptanceFixture, type AcceptanceFixture } from "../../../fixtures/acceptance/make.ts";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { runMain } from "../../helpers/ctx.ts";
import { gitEnv, makeRepo, sh } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const EXAMPLE_DESCRIPTOR = join(ROOT, "config", "workspace-descriptor.example.json");
const accEnv = (f: AcceptanceFixture) => ({ ...gitEnv(), PATH: `${ACCEPTANCE_BIN}:${process.env.PATH}`, FAKE_PROPOSER_PLAN: f.plan });

describe("acceptance-loop", () => {
  test("validate: 0 with the summary; 2 for a bad case book naming the file; 2 without --config", async () => {
    const f = makeAcceptanceFixture();
    const ok = await runMain(["acceptance-loop", "validate", "--config", f.config]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ name: "e2e", train: 2, holdout: 3, scorecard: 1, max_iterations: 2, proposer_runtime: "claude" });
    expect(ok.stdout).toStartWith('{\n  "holdout": 3,\n');
    const body = JSON.parse(readFileSync(f.config, "utf8"));
    body.cases = body.cases.filter((c: { split: string }) => c.split !== "private" && c.split !== "holdout");
    writeFileSync(f.config, JSON.stringify(body));
    const bad = await runMain(["acceptance-loop", "validate", "--config", f.config]);
    expect(bad).toEqual({ code: 2, stdout: "", stderr: `acceptance-loop: ${f.config}: split holdout must include at least one case\n` });
    expect((await runMain(["acceptance-loop", "validate"])).stderr).toStartWith("mogui: missing required flag --config");
  });

  test("split: writes manifest, split.json (regressions applied as holdout) and split.md; prints the path", async () => {
    const f = makeAcceptanceFixture();
    const out = join(tempDir(), "split");
    mkdirSync(join(f.root, "state"), { recursive: true });
    writeFileSync(f.regressionLog, `${JSON.stringify({ case_id: "OLD-PIN", split: "train", stratum: "alpha", command: ["x"] })}\n`);
    const r = await runMain(["acceptance-loop", "split", "--config", f.config, "--output-dir", out]);
    expect(r).toEqual({ code: 0, stdout: `${join(out, "split.json")}\n`, stderr: "" });
    const split = JSON.parse(readFileSync(join(out, "split.json"), "utf8"));
    expect(split.holdout.map((c: { case_id: string }) => c.case_id)).toContain("OLD-PIN");
    expect(readFileSync(join(out, "split.md"), "utf8")).toContain("[OLD-PIN] origin=`regression`");
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).name).toBe("e2e");
  });

  test("run: 0 complete, 1 incomplete, 1 restore failed (report kept), 2 usage", async () => {
    const f = makeAcceptanceFixture();
    const two = await runMain(["acceptance-loop", "run", "--config", f.config, "--max-iterations", "2", "--restore-cmd", "git checkout -- ."], { env: accEnv(f) });
    expect(two.code).toBe(0);
    expect(two.stdout).toStartWith("# Acceptance Report: e2e\n");
    const g = makeAcceptanceFixture();
    const failed = await runMain(["acceptance-loop", "run", "--config", g.config, "--max-iterations", "2", "--restore-cmd", "false"], { env: accEnv(g) });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toEndWith("acceptance-loop: restore command failed (exit 1); stopped with the rejected tree in place\n");
    expect(JSON.parse(readFileSync(join(g.runDir, "report.json"), "utf8")).iterations).toHaveLength(1);
    const h = makeAcceptanceFixture();
    const one = await runMain(["acceptance-loop", "run", "--config", h.config, "--max-iterations", "1"], { env: accEnv(h) });
    expect(one.code).toBe(1);
    for (const [argv, message] of [
      [["--max-iterations", "0"], "mogui: --max-iterations must be a whole number of at least 1 (got '0')\n"],
      [["--max-iterations", "two"], "mogui: --max-iterations must be a whole number of at least 1 (got 'two')\n"],
      [["--restore-cmd", "git 'oops"], "mogui: --restore-cmd: no closing quotation\n"],
      [["--restore-cmd", "  "], "mogui: --restore-cmd is empty\n"],
    ] as const) {
      const r = await runMain(["acceptance-loop", "run", "--config", h.config, ...argv], { env: accEnv(h) });
      expect({ code: r.code, stdout: r.stdout, first: r.stderr.split("Run ")[0] }).toEqual({ code: 2, stdout: "", first: message });
    }
  });

  test("run --json: one compact sorted document of the final scorecard on stdout; case progress on stderr", async () => {
    const f = makeAcceptanceFixture();
    const r = await runMain(["acceptance-loop", "run", "--config", f.config, "--max-iterations", "2", "--restore-cmd", "git checkout -- .", "--json"], { env: accEnv(f) });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")).toHaveLength(2);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["complete", "final", "final_score", "final_scorecard", "report"]);
    expect(doc).toMatchObject({ complete: true, final: { label: "iter-002" }, final_score: { combined_passed: 5 }, report: join(f.runDir, "report.json") });
    expect(doc.final_scorecard.label).toBe("iter-002-scorecard");
    // Sorted at every level, compact: the text is exactly the sorted re-serialisation.
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sorted)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .sort(([a], [b]) => (a < b ? -1 : 1))
                .map(([k, x]) => [k, sorted(x)]),
            )
          : v;
    expect(r.stdout).toBe(`${JSON.stringify(sorted(doc))}\n`);
    // Not a TTY: the progress lines are plain, one per case here (5 cases: one line per tenth), then a summary.
    expect(r.stderr).toContain("acceptance-loop: baseline cases: 5/5 ");
    expect(r.stderr).toContain("acceptance-loop: iteration 2/2 cases: 5/5 case(s) of iter-002 passing\n");
  });

  test("split and run: an output or run dir that cannot be created is exit 2, one line naming it; nothing runs", async () => {
    const f = makeAcceptanceFixture({ run_dir: "../blocker/run" });
    writeFileSync(join(f.root, "blocker"), "a file, not a directory\n");
    const out = join(f.root, "blocker", "split");
    const split = await runMain(["acceptance-loop", "split", "--config", f.config, "--output-dir", out]);
    expect(split).toEqual({ code: 2, stdout: "", stderr: `acceptance-loop: cannot write to ${out}: ENOTDIR\n` });
    const run = await runMain(["acceptance-loop", "run", "--config", f.config], { env: accEnv(f) });
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", `acceptance-loop: cannot write to ${join(f.root, "blocker", "run")}: ENOTDIR\n`]);
  });

  test("run warns when the private cases are inside the proposer's working tree", async () => {
    const f = makeAcceptanceFixture({ workspace_root: "..", run_dir: "runs/x" });
    const r = await runMain(["acceptance-loop", "run", "--config", f.config], { env: { ...accEnv(f), FAKE_PROPOSER_PLAN: "/nonexistent" } });
    expect(r.stderr).toContain("acceptance-loop: warning: the config (with the private cases) is inside workspace_root");
    expect(r.stderr).toContain("is inside workspace_root; the proposer can read history/private there");
  });

  test("inspect: 0 prints report.json verbatim; 2 when there is none", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "report.json"), '{"x": 1}');
    expect(await runMain(["acceptance-loop", "inspect", "--run-dir", dir])).toEqual({ code: 0, stdout: '{"x": 1}', stderr: "" });
    const none = await runMain(["acceptance-loop", "inspect", "--run-dir", join(dir, "nope")]);
    expect(none).toEqual({ code: 2, stdout: "", stderr: `acceptance-loop: no report at ${join(dir, "nope", "report.json")}\n` });
  });
});

describe("approval classify", () => {
  test("each gate; no flags is G2; contradictions are exit 2", async () => {
    const gate = async (...f: string[]) => (await runMain(["approval", "classify", ...f])).stdout;
    expect(await gate("--read-only")).toBe("G0_READ_ONLY\n");
    expect(await gate("--writes-local")).toBe("G1_REVERSIBLE_LOCAL\n");
    expect(await gate()).toBe("G2_SHARED_STATE\n");
    expect(await gate("--irreversible", "--writes-local")).toBe("G3_IRREVERSIBLE\n");
    const j = await runMain(["approval", "classify", "--writes-local", "--description", "edit", "--json"]);
    expect(j.stdout).toBe('{"action":{"description":"edit","irreversible":false,"read_only":false,"writes_local":true,"writes_shared":false},"gate":"G1_REVERSIBLE_LOCAL","requires_human":false}\n');
    const bad = await runMain(["approval", "classify", "--read-only", "--writes-shared"]);
    expect([bad.code, bad.stdout, bad.stderr.split("\n")[0]]).toEqual([2, "", "mogui: --read-only cannot be combined with --writes-local, --writes-shared or --irreversible"]);
  });
});

describe("context resolve", () => {
  test("0 with text or JSON; 2 for a missing manifest", async () => {
    const f = makeRepo();
    const manifest = join(f.dir, "m.json");
    writeFileSync(
      manifest,
      JSON.stringify({
        workspace_root: ".",
        workspace_identity: "ws",
        repositories: [
          { path: "repo", identity: "prod" },
          { path: "lost", identity: "lost" },
        ],
      }),
    );
    const t = await runMain(["context", "resolve", "repo", "--manifest", manifest], { cwd: f.dir });
    expect(t.code).toBe(0);
    expect(t.stdout).toStartWith(`kind: git-repo\npath: ${f.repo}\nworkspace: ws\nrepository: prod\ngit_repo: true\n`);
    expect(t.stderr).toBe(`context resolve: warning: Declared repository missing on disk: ${join(f.dir, "lost")}\n`);
    const j = await runMain(["context", "resolve", f.dir, "--manifest", manifest, "--json"]);
    expect(Object.keys(JSON.parse(j.stdout))).toEqual(["capabilities", "kind", "repo_set", "repository_identity", "resolved_path", "warnings", "workspace_identity"]);
    expect(JSON.parse(j.stdout).kind).toBe("multi-repo-workspace");
    const none = await runMain(["context", "resolve", ".", "--manifest", join(f.dir, "none.json")]);
    expect(none).toEqual({ code: 2, stdout: "", stderr: `context resolve: manifest file does not exist: ${join(f.dir, "none.json")}\n` });
  });
});

describe("workspace-descriptor-check", () => {
  const run = (...a: string[]) => runMain(["workspace-descriptor-check", ...a], { env: { MOGUI_HOME: tempDir() } });
  test("0 allowed, 1 prohibited or unknown repo, 2 unconfigured or invalid", async () => {
    expect(await run("--path", "example-ops", "--action", "direct-main-commit", "--config", EXAMPLE_DESCRIPTOR)).toEqual({
      code: 0,
      stdout: "ALLOWED: action=direct-main-commit repo=example-ops path=example-ops\n",
      stderr: "",
    });
    const j = await run("--path", "/absolute/path/to/workspace-root/example-product", "--action", "force-push", "--config", EXAMPLE_DESCRIPTOR, "--json");
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toEqual({
      allow: false,
      decidable: true,
      path: "/absolute/path/to/workspace-root/example-product",
      action: "force-push",
      prohibited: true,
      repository: { name: "example-product", path: "example-product", role: "product", prohibited: ["direct-main-commit", "force-push"] },
      source_path: EXAMPLE_DESCRIPTOR,
    });
    expect((await run("--path", "other", "--action", "x", "--config", EXAMPLE_DESCRIPTOR)).stdout).toBe("PROHIBITED: action=x repo=(unmatched) path=other\n");
    expect((await run("--path", "other", "--action", "x", "--config", EXAMPLE_DESCRIPTOR, "--allow-unknown-repo")).code).toBe(0);
    const un = await run("--path", "p", "--action", "a");
    expect([un.code, un.stdout]).toEqual([2, ""]);
    expect(un.stderr).toStartWith("workspace-descriptor-check: workspace descriptor is unconfigured: no file at ");
    const bad = join(tempDir(), "d.json");
    writeFileSync(bad, JSON.stringify({ repositories: [{ name: "a", path: "a", role: "product" }] }));
    const inv = await run("--path", "a", "--action", "x", "--config", bad, "--json");
    expect(inv.code).toBe(2);
    expect(JSON.parse(inv.stdout)).toEqual({
      allow: false,
      decidable: false,
      path: "a",
      action: "x",
      reason: "unconfigured_or_invalid",
      message: `workspace descriptor ${bad}: repositories[0].prohibited is required: a JSON array of prohibited actions (use [] for none)`,
    });
    expect((await run("--path", "a")).code).toBe(2);
  });

  test("WORKSPACE_DESCRIPTOR env is honoured before MOGUI_HOME", async () => {
    const r = await runMain(["workspace-descriptor-check", "--path", "example-ops", "--action", "force-push"], { env: { WORKSPACE_DESCRIPTOR: EXAMPLE_DESCRIPTOR, MOGUI_HOME: tempDir() } });
    expect(r.code).toBe(1);
  });
});

describe("config schema / validate", () => {
  test("schema: 0 for each name (the committed file's bytes), 2 for an unknown name", async () => {
    for (const n of ["instance-runtime", "model-tier-policy", "workspace-descriptor"]) {
      const r = await runMain(["config", "schema", n]);
      expect(r).toEqual({ code: 0, stdout: readFileSync(join(ROOT, "config", `${n}.schema.json`), "utf8"), stderr: "" });
    }
    const bad = await runMain(["config", "schema", "nope"]);
    expect([bad.code, bad.stderr.split("\n")[0]]).toEqual([2, "mogui: unknown config 'nope': expected one of instance-runtime, model-tier-policy, workspace-descriptor"]);
  });

  test("validate: 0 valid, 1 invalid with the loader's message, 2 unreadable; default path under MOGUI_HOME", async () => {
    const dir = tempDir();
    const p = join(dir, "ir.json");
    writeFileSync(p, '{"transcript_globs": {"codex": ""}}');
    expect(await runMain(["config", "validate", "instance-runtime", "--file", p])).toEqual({
      code: 1,
      stdout: "",
      stderr: "config validate: transcript_globs['codex'] must be a non-empty string glob\n",
    });
    const home = await runMain(["config", "validate", "workspace-descriptor"], { env: { MOGUI_HOME: dir } });
    expect([home.code, home.stderr]).toEqual([2, `config validate: cannot read ${join(dir, "config", "workspace-descriptor.json")}: ENOENT\n`]);
    const tier = await runMain(["config", "validate", "model-tier-policy", "--file", join(ROOT, "config", "model-tier-policy.example.json")]);
    expect(tier.code).toBe(0);
  });

  test("validate: the default path is the loader's (env variable before MOGUI_HOME); a tier policy the gate refuses is invalid", async () => {
    const dir = tempDir();
    const p = join(dir, "ir.json");
    writeFileSync(p, '{"master_host_runtime": "claude"}');
    const env = { MOGUI_HOME: join(dir, "home"), INSTANCE_RUNTIME_CONFIG: p };
    expect(await runMain(["config", "validate", "instance-runtime"], { env })).toEqual({ code: 0, stdout: `valid: instance-runtime: ${p}\n`, stderr: "" });
    const desc = await runMain(["config", "validate", "workspace-descriptor"], { env: { MOGUI_HOME: dir, MOGUI_WORKSPACE_DESCRIPTOR: EXAMPLE_DESCRIPTOR } });
    expect(desc.stdout).toBe(`valid: workspace-descriptor: ${EXAMPLE_DESCRIPTOR}\n`);
    const policy = JSON.parse(readFileSync(join(ROOT, "config", "model-tier-policy.example.json"), "utf8"));
    const tiers = Object.keys(policy.tiers);
    expect(tiers.length).toBeGreaterThan(1);
    const tp = join(dir, "tp.json");
    writeFileSync(tp, JSON.stringify({ ...policy, tier_rank: tiers.slice(1) }));
    const bad = await runMain(["config", "validate", "model-tier-policy"], { env: { MOGUI_HOME: dir, DISPATCH_TIER_POLICY: tp } });
    expect(bad).toEqual({ code: 1, stdout: "", stderr: `config validate: model tier policy ${tp}: tier_rank must list every tier exactly once\n` });
  });
});

describe("config init / example", () => {
  test("init writes every instance example byte for byte; a second run keeps them all, even an edited one", async () => {
    const home = join(tempDir(), "home");
    const files = ["instance-runtime", "worker-surface-policy", "model-tier-policy", "workspace-descriptor"];
    const first = await runMain(["config", "init"], { env: { MOGUI_HOME: home } });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(files.map((f) => `wrote ${join(home, "config", `${f}.json`)}\n`).join(""));
    for (const f of files) expect(readFileSync(join(home, "config", `${f}.json`), "utf8")).toBe(readFileSync(join(ROOT, "config", `${f}.example.json`), "utf8"));
    // Every written file is accepted by its own loader, except the instance config whose product path is still the
    // example's placeholder: validate says so (issue 23) until the user sets it.
    for (const f of ["model-tier-policy", "workspace-descriptor"]) expect((await runMain(["config", "validate", f], { env: { MOGUI_HOME: home } })).code).toBe(0);
    const placeholder = await runMain(["config", "validate", "instance-runtime"], { env: { MOGUI_HOME: home } });
    expect(placeholder.code).toBe(1);
    expect(placeholder.stderr).toContain("product_repo is still the example placeholder");
    const edited = join(home, "config", "worker-surface-policy.json");
    writeFileSync(edited, "{}\n");
    const again = await runMain(["config", "init", "--json"], { env: { MOGUI_HOME: home } });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ dir: join(home, "config"), written: [], kept: files.map((f) => join(home, "config", `${f}.json`)) });
    expect(readFileSync(edited, "utf8")).toBe("{}\n");
  });

  test("init into a MOGUI_HOME that cannot be created: exit 2, one line", async () => {
    const file = join(tempDir(), "f");
    writeFileSync(file, "");
    const r = await runMain(["config", "init"], { env: { MOGUI_HOME: join(file, "home") } });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, "", `config init: cannot write into ${join(file, "home", "config")}: ENOTDIR\n`]);
  });

  test("example prints the carried file; --out writes it (the hook executable) and never over an existing file", async () => {
    expect((await runMain(["config", "example", "pre-push"])).stdout).toBe(readFileSync(join(ROOT, "scripts", "git-hooks", "pre-push"), "utf8"));
    expect((await runMain(["config", "example", "brief-template"])).stdout).toBe(readFileSync(join(ROOT, "fixtures", "worker", "brief-template.md"), "utf8"));
    const dir = tempDir();
    const hook = join(dir, "pre-push");
    expect(await runMain(["config", "example", "pre-push", "--out", hook])).toEqual({ code: 0, stdout: `wrote ${hook}\n`, stderr: "" });
    expect(statSync(hook).mode & 0o100).toBe(0o100);
    writeFileSync(hook, "mine\n");
    expect(await runMain(["config", "example", "pre-push", "--out", hook])).toEqual({ code: 1, stdout: "", stderr: `config example: ${hook} exists; left unchanged\n` });
    expect(readFileSync(hook, "utf8")).toBe("mine\n");
    const bad = await runMain(["config", "example", "nope"]);
    expect([bad.code, bad.stderr.split("\n")[0]]).toEqual([2, "mogui: unknown example 'nope': expected one of instance-runtime, worker-surface-policy, model-tier-policy, workspace-descriptor, brief-template, pre-push"]);
  });
});

describe("l1-digest tick", () => {
  test("0 quiet, 4 unexplained drift, 2 config error", async () => {
    const f = makeRepo();
    const dir = tempDir();
    const cfg = join(dir, "digest.json");
    writeFileSync(cfg, JSON.stringify({ repos: [f.repo], ledger_path: "l.jsonl", job_log_globs: ["jobs/*.log"], monitor_pgrep_patterns: [], baseline_path: "b.json", digest_dir: "out" }));
    const env = gitEnv();
    const first = await runMain(["l1-digest", "tick", "--config", cfg], { env, now: () => 1_800_000_000_000 });
    expect(first.code).toBe(0);
    expect(first.stdout).toStartWith("# L1 Digest\n\nGenerated: 2027-01-15T08:00:00Z\n");
    expect(first.stderr).toBe(`l1-digest: digest written to ${join(dir, "out", "l1-digest-1800000000.md")}; next tick in 1800 s\n`);
    writeFileSync(join(f.repo, "new.txt"), "x");
    sh(f.repo, "add", ".");
    sh(f.repo, "commit", "-q", "-m", "drift");
    const drift = await runMain(["l1-digest", "tick", "--config", cfg], { env });
    expect(drift.code).toBe(4);
    expect(drift.stdout).toContain("## Repo Drift\n- [unexplained] repo head ");
    writeFileSync(cfg, "{}");
    expect(await runMain(["l1-digest", "tick", "--config", cfg], { env })).toEqual({
      code: 2,
      stdout: "",
      stderr: "l1-digest: Missing digest config fields: repos, ledger_path, job_log_globs, monitor_pgrep_patterns, baseline_path, digest_dir\n",
    });
    expect(existsSync(join(dir, "out"))).toBe(true);
  });
});

describe("adapter doctor", () => {
  test("always 0; one line per tool, or the sorted JSON report", async () => {
    const runner = stubRunner([
      [["git", "--version"], { stdout: "git version 2\n" }],
      [["node", "--version"], { missing: true }],
      [["orca", "status", "--json"], { stdout: '{"ok":true}' }],
      [["bd", "--version"], { code: 3 }],
      [["bun", "--version"], { stdout: "1.4.5\n" }],
    ]);
    const t = await runMain(["adapter", "doctor"], { runner, env: { ORCA_CLI_COMMAND: "orca" } });
    expect(t).toEqual({
      code: 0,
      stdout: 'present\tgit\tgit version 2\nmissing\tnode\texecutable not found: node\npresent\torca\t{"ok":true}\nmissing\tbd\tmissing\npresent\tbun\t1.4.5\n',
      stderr: "",
    });
    const j = await runMain(["adapter", "doctor", "--json"], { runner, env: { ORCA_CLI_COMMAND: "orca" } });
    const doc = JSON.parse(j.stdout);
    expect([j.code, doc.present, doc.missing]).toEqual([0, ["git", "orca", "bun"], ["node", "bd"]]);
    expect(Object.keys(doc.results[0])).toEqual(["detail", "name", "path", "present", "probe_cmd"]);
  });
});
