/**
 * Done means (issue 7), through the compiled binary with nothing but the binary: found a fresh ops repository from
 * the embedded template, then `template check` reports no drift, `onboarding-rehearsal` passes P01-P08 and
 * `generate-manifest --check` passes; and upgrade an ops repository one version behind, reading its adoption notes.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const PREVIOUS = "v0.4.4";

function env(home: string): Record<string, string> {
  const e = e2eEnv({ MOGUI_HOME: home });
  // The binary alone: no fixtures, no checkout on PATH, run from a directory unrelated to the repository.
  e.PATH = "/usr/bin:/bin";
  return e;
}

async function foundWorkspace() {
  const root = tempDir("mogui-ws-");
  const ops = join(root, "acme-ops");
  const home = tempDir("mogui-home-");
  mkdirSync(ops);
  const placeholders = {
    WORKSPACE_NAME: "acme",
    WORKSPACE_ROOT: root,
    OPS_REPO: ops,
    MONITOR_NS: "acme",
    MODEL_ID: "claude-opus-5",
    REPO_LIST: "- acme-app (product) acme-app\n  - acme-ops (ops) acme-ops",
    RUNTIME_ROOT: "/opt/mogui",
    TEMPLATE_VERSION: "",
  };
  const args = Object.entries(placeholders)
    .filter(([k]) => k !== "TEMPLATE_VERSION")
    .flatMap(([k, v]) => ["--placeholder", `${k}=${v}`]);
  const dry = await runBinary(["template", "apply", "--ops", ops, ...args], { env: env(home), cwd: root });
  expect(dry.code).toBe(0);
  expect(dry.stdout).toStartWith("dry-run plan (no writes):\n");
  expect(existsSync(join(ops, "MANIFEST.json"))).toBe(false);
  // The real path: the typed confirmation arrives on stdin.
  const w = await runBinary(["template", "apply", "--ops", ops, "--write", ...args], { env: env(home), cwd: root, stdin: "apply\n" });
  expect(w.code).toBe(0);
  expect(w.stderr).toContain("Type 'apply' to write these files into the ops repository: ");
  expect(w.stdout).toStartWith("write results:\n");
  // What onboarding stages 02 and 07 leave behind.
  for (const f of ["CLAUDE.md", "AGENTS.md"]) writeFileSync(join(root, f), readFileSync(join(ops, "workspace-card", f)));
  mkdirSync(join(home, "config"), { recursive: true });
  writeFileSync(join(home, "config", "instance-runtime.json"), JSON.stringify({ master_host_runtime: "claude" }));
  writeFileSync(
    join(home, "config", "workspace-descriptor.json"),
    JSON.stringify({ workspace_root_is_plain_folder: true, workspace_root: root, master_seat: "folder-workspace-of-workspace-root", repositories: [{ name: "acme-ops", path: "acme-ops", role: "ops", prohibited: ["force-push"] }] }),
  );
  return { root, ops, home, args };
}

describe("founding from the embedded template", () => {
  test("apply --write with every placeholder, then check, rehearsal P01-P08 and generate-manifest --check", async () => {
    const { root, ops, home } = await foundWorkspace();
    const version = readFileSync(join(ROOT, "master-ops", "TEMPLATE-VERSION"), "utf8").trim();
    expect(readFileSync(join(ops, "README.md"), "utf8")).toContain(`Installed from the mogui ops template, version ${version}.`);
    expect(readFileSync(join(ops, "docs/runbooks/role-state.md"), "utf8")).toContain(`Master seat (absolute path): \`${root}\``);
    expect(readFileSync(join(ops, "CLAUDE.md")).equals(readFileSync(join(ops, "AGENTS.md")))).toBe(true);
    expect(existsSync(join(ops, "ONBOARDING.md"))).toBe(false);
    expect(statSync(join(ops, "docs/MASTER-OPERATIONS.md")).mode & 0o777).toBe(0o644);

    const check = await runBinary(["template", "check", "--ops", ops, "--json"], { env: env(home), cwd: root });
    expect(check.code).toBe(0);
    const report = JSON.parse(check.stdout);
    expect(report).toMatchObject({ installed_version: version, template_version: version, template: "embedded", absent_required: [], unknown_present: [], invalid_paths: [], adoption_notes: [] });

    const reh = await runBinary(["onboarding-rehearsal", "--workspace-root", root, "--ops-repo", ops, "--json"], { env: env(home), cwd: root });
    expect(reh.code).toBe(1); // L01 and L02 are GAP without a live host
    const doc = JSON.parse(reh.stdout);
    expect(doc.failures).toBe(0);
    expect(Object.fromEntries(doc.results.map((r: { id: string; status: string }) => [r.id, r.status]))).toEqual({
      P01: "PASS",
      P02: "PASS",
      P03: "PASS",
      P04: "PASS",
      P05: "PASS",
      P06: "PASS",
      P07: "PASS",
      P08: "PASS",
      L01: "GAP",
      L02: "GAP",
    });
    for (const r of doc.results) expect(`${r.observed} ${r.evidence}`).not.toContain(root);

    const gm = await runBinary(["generate-manifest", "--check", "--skeleton", join(ROOT, "master-ops")], { env: env(home), cwd: root });
    expect(gm).toEqual({ code: 0, stdout: "", stderr: "" });
    // The embedded copy is the committed template: its manifest matches what generate-manifest computes.
    const shown = await runBinary(["template", "show", "MANIFEST.json"], { env: env(home), cwd: root });
    expect(shown.stdout).toBe(readFileSync(join(ROOT, "master-ops", "MANIFEST.json"), "utf8"));
  });

  test("a second apply (the same version) overwrites template files but never instance-owned ones", async () => {
    const { root, ops, home, args } = await foundWorkspace();
    writeFileSync(join(ops, "docs/runbooks/role-state.md"), "Current Role: Maintenance\n");
    writeFileSync(join(ops, "docs/charter/05-dispatch-gate.md"), "local edit\n");
    // Without the values again, an upgrade would turn filled files back into {{...}}: refused, nothing written.
    const readme = readFileSync(join(ops, "README.md"));
    const bare = await runBinary(["template", "apply", "--ops", ops, "--write", "--yes"], { env: env(home), cwd: root });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("placeholder(s) would stay unfilled; nothing written");
    expect(bare.stderr).toContain("  README.md: {{WORKSPACE_NAME}}\n");
    expect(readFileSync(join(ops, "README.md")).equals(readme)).toBe(true);
    expect(readFileSync(join(ops, "docs/charter/05-dispatch-gate.md"), "utf8")).toBe("local edit\n");
    const r = await runBinary(["template", "apply", "--ops", ops, "--write", "--yes", "--json", ...args], { env: env(home), cwd: root });
    expect(r.code).toBe(0);
    const actions = JSON.parse(r.stdout).actions as { path: string; reason: string }[];
    expect(actions.find((a) => a.path === "docs/charter/05-dispatch-gate.md")?.reason).toBe("overwrote existing file");
    expect(actions.some((a) => a.path === "docs/runbooks/role-state.md")).toBe(false);
    expect(readFileSync(join(ops, "docs/runbooks/role-state.md"), "utf8")).toBe("Current Role: Maintenance\n");
    expect(readFileSync(join(ops, "docs/charter/05-dispatch-gate.md"), "utf8")).not.toBe("local edit\n");
  });
});

describe("the typed confirmation through the binary", () => {
  test("EOF or any answer but 'apply' on stdin declines (exit 2) and writes nothing", async () => {
    for (const stdin of ["", "yes\n", "APPLY\n"]) {
      const ops = tempDir("mogui-ops-");
      const r = await runBinary(["template", "apply", "--ops", ops, "--write", "--allow-unfilled"], { env: env(tempDir()), stdin });
      expect(r.code).toBe(2);
      expect(r.stderr).toEndWith("template apply: confirmation declined; no writes\n");
      expect(existsSync(join(ops, "MANIFEST.json"))).toBe(false);
    }
  });
});

describe("upgrading an ops repository one version behind", () => {
  test("check shows the adoption notes (exit 1), apply brings it current (exit 0)", async () => {
    const { root, ops, home, args } = await foundWorkspace();
    // Make it an install of the previous template version: its manifest says v0.4.4 and lacks the runbook v0.5.0 added.
    const manifest = JSON.parse(readFileSync(join(ops, "MANIFEST.json"), "utf8"));
    writeFileSync(join(ops, "MANIFEST.json"), `${JSON.stringify({ template_version: PREVIOUS, files: manifest.files.filter((f: string) => f !== "docs/runbooks/worker-reap.md") }, null, 2)}\n`);
    rmSync(join(ops, "docs/runbooks/worker-reap.md"));
    writeFileSync(join(ops, "docs/runbooks/role-state.md"), "Current Role: Maintenance\nRole Lock: ENABLED\nFrozen: all other roles\nUnlock: explicit user instruction only\n");

    const before = await runBinary(["template", "check", "--ops", ops], { env: env(home), cwd: root });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`installed_version: ${PREVIOUS}\n`);
    expect(before.stdout).toContain("absent_required: 1\n  - docs/runbooks/worker-reap.md\n");
    expect(before.stdout).toContain("adoption_notes: 1 section(s)\n  ## v0.5.0\n    - Every script the template used to ship is now a `mogui` subcommand.");
    expect(before.stdout).toContain("status: drift or behind\n");
    const json = JSON.parse((await runBinary(["template", "check", "--ops", ops, "--json"], { env: env(home), cwd: root })).stdout);
    expect(json.adoption_notes.map((n: { version: string }) => n.version)).toEqual(["v0.5.0"]);
    expect(json.adoption_notes[0].body).toContain("Manual step: re-wire the hooks with `mogui hook install --host claude`");

    const apply = await runBinary(["template", "apply", "--ops", ops, "--write", "--yes", ...args], { env: env(home), cwd: root });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain("written: docs/runbooks/worker-reap.md — created missing file");
    expect(apply.stdout).toContain("written: MANIFEST.json — overwrote existing file");

    const after = await runBinary(["template", "check", "--ops", ops], { env: env(home), cwd: root });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("adoption_notes: 0 section(s)\n");
    expect(readFileSync(join(ops, "docs/runbooks/role-state.md"), "utf8")).toStartWith("Current Role: Maintenance\n");
  });
});
