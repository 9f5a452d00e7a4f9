// In-process exit-code tables for template check|apply|show, onboarding-rehearsal and harness-selfcheck.
import { describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { runMain } from "../../helpers/ctx.ts";
import { put } from "../../helpers/files.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const ALL = ["WORKSPACE_NAME=acme", "WORKSPACE_ROOT=/w", "OPS_REPO=/w/ops", "MONITOR_NS=acme", "MODEL_ID=m", "REPO_LIST=- app", "RUNTIME_ROOT=/opt/mogui"].flatMap((p) => ["--placeholder", p]);

async function found(): Promise<string> {
  const ops = tempDir("mogui-ops-");
  const r = await runMain(["template", "apply", "--ops", ops, "--write", "--yes", "--json", ...ALL]);
  expect(r.code).toBe(0);
  return ops;
}

describe("mogui template apply", () => {
  test("dry run prints the plan and writes nothing (exit 0)", async () => {
    const ops = tempDir();
    const r = await runMain(["template", "apply", "--ops", ops, "--json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.phase).toBe("dry-run");
    expect(doc.actions[0]).toEqual({ action: "planned", path: "AGENTS.md", reason: "template-layer path; would create missing file" });
    expect(Bun.spawnSync(["ls", "-A", ops]).stdout.toString()).toBe("");
    const human = await runMain(["template", "apply", "--ops", ops]);
    expect(human.stdout).toStartWith("dry-run plan (no writes):\nentries: ");
  });

  test("--write --json: the plan goes to stderr, the write result to stdout", async () => {
    const ops = tempDir();
    const r = await runMain(["template", "apply", "--ops", ops, "--write", "--yes", "--json", ...ALL]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stderr.split("\n")[0]!).phase).toBe("dry-run");
    const out = JSON.parse(r.stdout);
    expect(out.phase).toBe("write");
    expect(out.actions).toContainEqual({ action: "written", path: "docs/lineage/MASTER-LINEAGE.md", reason: "seeded instance-owned file" });
    expect(readFileSync(join(ops, "README.md"), "utf8")).toStartWith("# acme — operations repository");
  });

  test("the typed confirmation: anything but 'apply' declines with exit 2 and writes nothing", async () => {
    const ops = tempDir();
    const r = await runMain(["template", "apply", "--ops", ops, "--write", "--confirm-input", "yes", ...ALL]);
    expect(r.code).toBe(2);
    expect(r.stderr).toEndWith("template apply: confirmation declined; no writes\n");
    expect(Bun.spawnSync(["ls", "-A", ops]).stdout.toString()).toBe("");
    expect((await runMain(["template", "apply", "--ops", ops, "--write", "--confirm-input", "apply", ...ALL])).code).toBe(0);
  });

  test("placeholder errors and setup errors are exit 2", async () => {
    const ops = tempDir();
    const unknown = await runMain(["template", "apply", "--ops", ops, "--placeholder", "NOPE=1"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toStartWith("mogui: unknown placeholder 'NOPE'");
    expect((await runMain(["template", "apply", "--ops", ops, "--placeholder", "noequals"])).code).toBe(2);
    expect((await runMain(["template", "apply", "--ops", ops, "--placeholder", "{{MODEL_ID}}=x"])).code).toBe(0);
    expect((await runMain(["template", "apply", "--ops", join(ops, "nope")])).stderr).toBe(`template apply: ops root is not a directory: ${join(ops, "nope")}\n`);
    const overlap = await runMain(["template", "apply", "--ops", join(ROOT, "master-ops", "docs"), "--template", join(ROOT, "master-ops")]);
    expect(overlap).toMatchObject({ code: 2, stderr: "template apply: template and ops roots must be distinct and non-overlapping\n" });
    expect((await runMain(["template", "apply", "--ops", ops, "--template", tempDir()])).code).toBe(2);
    expect((await runMain(["template", "apply"])).code).toBe(2);
  });

  test("an error-* entry makes exit 1 and stops --write; an --attempt outside the manifest is refused (exit 1)", async () => {
    const ops = tempDir();
    symlinkSync(tempDir(), join(ops, "docs"));
    const r = await runMain(["template", "apply", "--ops", ops, "--write", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error-invalid-path: docs/MASTER-OPERATIONS.md — destination passes through a symlink (docs)");
    expect(r.stderr).toStartWith("template apply: the plan has errors; nothing written\n");
    const a = await runMain(["template", "apply", "--ops", tempDir(), "--attempt", "src/evil.ts"]);
    expect(a.code).toBe(1);
    expect(a.stdout).toContain("refused-not-in-manifest: src/evil.ts");
  });
});

describe("mogui template check", () => {
  test("a fresh founding is current (0); a local file is drift (1); JSON is compact with sorted keys", async () => {
    const ops = await found();
    const r = await runMain(["template", "check", "--ops", ops]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("\nstatus: current (no drift)\n");
    put(ops, "notes.md", "x");
    const j = await runMain(["template", "check", "--ops", ops, "--json"]);
    expect(j.code).toBe(1);
    expect(j.stdout).toStartWith('{"absent_required":[],"adoption_notes":[],"installed_version":"v');
    expect(JSON.parse(j.stdout).unknown_present).toEqual(["notes.md"]);
  });

  test("--ops defaults to the working directory; a directory that is no ops repository is exit 2", async () => {
    const ops = await found();
    expect((await runMain(["template", "check"], { cwd: ops })).code).toBe(0);
    const r = await runMain(["template", "check"], { cwd: tempDir() });
    expect(r).toEqual({ code: 2, stdout: "", stderr: "template check: ops root unreadable; pass --ops <path>\n" });
    expect((await runMain(["template", "check", "--ops", "/nonexistent/ops"])).code).toBe(2);
  });

  test("--no-template checks only the repository's own manifest; a malformed manifest is exit 2", async () => {
    const ops = await found();
    expect((await runMain(["template", "check", "--ops", ops, "--no-template"])).stdout).toContain("report_set: install-manifest");
    writeFileSync(join(ops, "MANIFEST.json"), "{");
    const r = await runMain(["template", "check", "--ops", ops]);
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("template check: could not check: MANIFEST.json: not valid JSON");
    expect((await runMain(["template", "check", "--ops", ops, "--template", "x", "--no-template"])).code).toBe(2);
  });
});

describe("mogui template show", () => {
  test("prints a file, lists files, exit 1 for an unknown file", async () => {
    const r = await runMain(["template", "show", "ONBOARDING.md"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(ROOT, "master-ops", "ONBOARDING.md"), "utf8"));
    const list = await runMain(["template", "show", "--json"]);
    expect(JSON.parse(list.stdout).files).toContain("onboarding/09-spawn.md");
    expect(await runMain(["template", "show", "../etc/passwd"])).toMatchObject({ code: 1, stderr: "template show: no such template file: ../etc/passwd (path contains '..')\n" });
  });
});

describe("mogui onboarding-rehearsal", () => {
  test("exit 1 while any row is GAP or FAIL; usage errors are exit 2", async () => {
    const root = tempDir();
    const ops = await found();
    const r = await runMain(["onboarding-rehearsal", "--workspace-root", root, "--ops-repo", ops, "--json"], { env: { MOGUI_HOME: tempDir(), HOME: "/nonexistent" } });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["failures", "gaps", "ops_repo", "results", "workspace_root"]);
    expect(doc.results.map((x: { id: string }) => x.id)).toEqual(["P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08", "L01", "L02"]);
    expect((await runMain(["onboarding-rehearsal", "--workspace-root", "/nonexistent", "--ops-repo", ops])).code).toBe(2);
    expect((await runMain(["onboarding-rehearsal", "--ops-repo", ops])).code).toBe(2);
  });

  test("--ops is the flag (as in template apply|check); --ops-repo stays an alias with the same result", async () => {
    const root = tempDir();
    const ops = await found();
    const env = { MOGUI_HOME: tempDir(), HOME: "/nonexistent" };
    const a = await runMain(["onboarding-rehearsal", "--workspace-root", root, "--ops", ops, "--json"], { env });
    const b = await runMain(["onboarding-rehearsal", "--workspace-root", root, "--ops-repo", ops, "--json"], { env });
    expect(a.code).toBe(1);
    expect(JSON.parse(a.stdout).ops_repo).toBe(ops);
    expect(a).toEqual(b);
    const both = await runMain(["onboarding-rehearsal", "--workspace-root", root, "--ops", ops, "--ops-repo", ops]);
    expect([both.code, both.stderr.split("\n")[0]]).toEqual([2, "mogui: flag --ops given more than once"]);
  });
});

describe("mogui harness-selfcheck", () => {
  test("needs both roots (flag or env); settings unreadable is exit 2", async () => {
    expect((await runMain(["harness-selfcheck"], { env: {} })).code).toBe(2);
    const root = tempDir();
    const ops = await found();
    const env = { MOGUI_WORKSPACE_ROOT: root, MOGUI_OPS_REPO: ops, HOME: "/nonexistent" };
    const r = await runMain(["harness-selfcheck"], { env, runner: stubRunner([[["bd", "where"], { missing: true }]]) });
    expect(r.code).toBe(2);
    expect(r.stdout.split("\n").map((l) => l.split(":")[0])).toEqual(["Seat", "Skills", "Hooks", "Card", "Tracker", "Template", ""]);
    expect(r.stdout).toContain("Template: current (v");
    const j = await runMain(["harness-selfcheck", "--json"], { env, runner: stubRunner([[["bd", "where"], { missing: true }]]) });
    expect(JSON.parse(j.stdout).exit_code).toBe(2);
  });

  test("--ops is the flag (as in onboarding-rehearsal); --ops-repo stays an alias with the same result", async () => {
    const root = tempDir();
    const ops = await found();
    const env = { HOME: "/nonexistent" };
    const runner = () => stubRunner([[["bd", "where"], { missing: true }]]);
    const a = await runMain(["harness-selfcheck", "--workspace-root", root, "--ops", ops, "--json"], { env, runner: runner() });
    const b = await runMain(["harness-selfcheck", "--workspace-root", root, "--ops-repo", ops, "--json"], { env, runner: runner() });
    expect(a.code).toBe(2);
    expect(a).toEqual(b);
    const none = await runMain(["harness-selfcheck", "--workspace-root", root], { env });
    expect([none.code, none.stderr.split("\n")[0]]).toEqual([2, "mogui: --ops is required (or set MOGUI_OPS_REPO)"]);
    const gone = await runMain(["harness-selfcheck", "--workspace-root", root, "--ops", "/nonexistent"], { env });
    expect([gone.code, gone.stderr]).toEqual([2, "harness-selfcheck: cannot enter ops: /nonexistent\n"]);
  });
});

describe("mogui template", () => {
  test("check and apply take --ops-repo as an alias of --ops; the group's --help lists its subcommands (exit 0)", async () => {
    const ops = await found();
    const a = await runMain(["template", "check", "--ops", ops, "--json"]);
    expect(a.code).toBe(0);
    expect(await runMain(["template", "check", "--ops-repo", ops, "--json"])).toEqual(a);
    const plan = await runMain(["template", "apply", "--ops", ops, "--json"]);
    expect(await runMain(["template", "apply", "--ops-repo", ops, "--json"])).toEqual(plan);
    const help = await runMain(["template", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/check: [\s\S]*apply: [\s\S]*show: /);
  });
});
