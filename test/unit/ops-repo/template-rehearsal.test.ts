// onboarding-rehearsal rows (reference §28.3): each P row failing on its own defect, L01 with a stub orca, and
// evidence that never carries an absolute path.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../../src/lib/context.ts";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { validateDescriptor } from "../../../src/ops-repo/rehearsal/descriptor.ts";
import { PathNamer } from "../../../src/ops-repo/rehearsal/names.ts";
import { recordedSeat, rehearse, routerRows, type RehearsalInput, type Row } from "../../../src/ops-repo/rehearsal/rehearsal.ts";
import { planApply, writePlan } from "../../../src/ops-repo/template/apply.ts";
import { diskTemplate, embeddedTemplate } from "../../../src/ops-repo/template/source.ts";
import { tempDir } from "../../helpers/paths.ts";
import { unitCtx } from "../../helpers/unit-ctx.ts";
import { put } from "../../helpers/files.ts";

function ctxFor(home: string, runner = stubRunner([])): Ctx {
  return unitCtx({ env: { HOME: "/nonexistent-home", MOGUI_HOME: home, ORCA_CLI_COMMAND: "orca", PATH: "" }, cwd: home, runner });
}

/** A founded workspace: the embedded template applied with every placeholder, card deployed, config written. */
async function founded(): Promise<{ input: RehearsalInput; home: string }> {
  const root = tempDir("mogui-ws-");
  const ops = join(root, "acme-ops");
  const home = tempDir("mogui-home-");
  mkdirSync(ops);
  const t = await embeddedTemplate();
  const values = { WORKSPACE_NAME: "acme", WORKSPACE_ROOT: root, OPS_REPO: ops, MONITOR_NS: "acme", MODEL_ID: "claude-opus-5", REPO_LIST: "- app (product)", RUNTIME_ROOT: "/opt/mogui", TEMPLATE_VERSION: "v0" };
  writePlan(ops, t, planApply(ops, t), values);
  put(root, "CLAUDE.md", await Bun.file(join(ops, "workspace-card/CLAUDE.md")).text());
  put(home, "config/instance-runtime.json", '{"master_host_runtime": "claude"}');
  put(home, "config/workspace-descriptor.json", JSON.stringify({ workspace_root: root, repositories: [{ name: "acme-ops", path: "acme-ops", role: "ops", prohibited: [] }] }));
  const input = { root, ops, template: t, descriptorPath: join(home, "config/workspace-descriptor.json"), instancePath: join(home, "config/instance-runtime.json"), live: false };
  return { input, home };
}

const status = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.id, r.status]));

describe("rehearsal rows", () => {
  test("a founded workspace passes P01-P08; L01 and L02 are GAP without --live", async () => {
    const { input, home } = await founded();
    const rows = await rehearse(ctxFor(home), input);
    expect(status(rows)).toEqual({ P01: "PASS", P02: "PASS", P03: "PASS", P04: "PASS", P05: "PASS", P06: "PASS", P07: "PASS", P08: "PASS", L01: "GAP", L02: "GAP" });
    for (const r of rows) expect(`${r.observed} ${r.evidence}`).not.toMatch(/(^|[\s'"`(=:])\/[A-Za-z]/);
  });

  test("each P row fails on its own defect", async () => {
    const { input, home } = await founded();
    put(input.ops, "docs/extra.md", "left {{WORKSPACE_NAME}} here and {{...}} is prose\n");
    writeFileSync(join(input.ops, "bad.txt"), new Uint8Array([0xff, 0xfe]));
    put(input.ops, "AGENTS.md", "different\n");
    put(input.root, "CLAUDE.md", "stale card\n");
    put(home, "config/workspace-descriptor.json", JSON.stringify({ workspace_root: "/elsewhere", repositories: [] }));
    put(home, "config/instance-runtime.json", '{"master_host_runtime": "  "}');
    put(input.ops, "docs/runbooks/role-state.md", "Current Role: x\n");
    Bun.spawnSync(["rm", join(input.ops, "docs/lineage/MASTER-LINEAGE.md")]);
    const rows = await rehearse(ctxFor(home), input);
    expect(status(rows)).toMatchObject({ P01: "PASS", P02: "FAIL", P03: "FAIL", P04: "FAIL", P05: "FAIL", P06: "FAIL", P07: "FAIL", P08: "FAIL" });
    const p02 = rows.find((r) => r.id === "P02")!;
    expect(p02.evidence).toBe("bad.txt (invalid UTF-8); docs/extra.md ({{WORKSPACE_NAME}})");
    expect(rows.find((r) => r.id === "P05")!.observed).toBe("workspace_root is .../elsewhere");
    expect(rows.find((r) => r.id === "P07")!.observed).toBe("missing fields: Role Lock: Frozen: Unlock:");
  });

  test("P01 fails when the router and the stage files disagree", async () => {
    const { input, home } = await founded();
    const t = tempDir("mogui-tpl-");
    put(t, "TEMPLATE-VERSION", "v1\n");
    put(t, "ONBOARDING.md", "| 00 | `onboarding/00-a.md` | a |\n| 01 | `onboarding/01-gone.md` | b |\n");
    put(t, "onboarding/00-a.md", "");
    put(t, "onboarding/02-new.md", "");
    const r = (await rehearse(ctxFor(home), { ...input, template: diskTemplate(t) }))[0]!;
    expect(r).toMatchObject({ id: "P01", status: "FAIL", observed: "unrouted: [02-new.md] dangling: [01-gone.md]" });
  });

  test("L01 with --live: one terminal in the recorded seat PASS, two FAIL, orca missing GAP", async () => {
    const { input, home } = await founded();
    put(input.ops, "docs/runbooks/role-state.md", "Current Role: Maintenance\nRole Lock: ENABLED\nFrozen: all other roles\nUnlock: explicit user instruction only\nMaster seat (workspace id): `folder:abc`\n");
    const argv = ["orca", "terminal", "list", "--worktree", "id:folder:abc", "--json"];
    const one = stubRunner([[argv, { stdout: { ok: true, result: { terminals: [{ handle: "t1" }] } } }]]);
    expect((await rehearse(ctxFor(home, one), { ...input, live: true }))[8]).toMatchObject({ id: "L01", status: "PASS", observed: "1 terminal(s)" });
    const two = stubRunner([[argv, { stdout: { ok: true, result: { terminals: [{ handle: "t1" }, { handle: "t2" }] } } }]]);
    expect((await rehearse(ctxFor(home, two), { ...input, live: true }))[8]).toMatchObject({ status: "FAIL", observed: "2 terminal(s)" });
    const missing = stubRunner([[argv, { missing: true }]]);
    expect((await rehearse(ctxFor(home, missing), { ...input, live: true }))[8]).toMatchObject({ status: "GAP" });
  });
});

describe("helpers", () => {
  test("routerRows reads `| NN | `onboarding/<f>.md` |` rows only", () => {
    expect(routerRows("| NN | File |\n| 00 | `onboarding/00-a.md` | x |\n| RV | `onboarding/reverify.md` | y |\n| 01 | onboarding/01.md |\n")).toEqual(["00-a.md", "reverify.md"]);
  });

  test("recordedSeat ignores placeholders and instructions", () => {
    expect(recordedSeat("Master seat (workspace id): `id:folder:1`")).toBe("id:folder:1");
    expect(recordedSeat("Master seat (workspace id): `(measure at Step 3.5)`")).toBeNull();
    expect(recordedSeat("Master seat (absolute path): `/w`", "absolute path")).toBe("/w");
  });

  test("PathNamer names roots by role and shortens other absolute paths", () => {
    const n = new PathNamer({ env: { HOME: "/h/me", MOGUI_HOME: "/m" }, cwd: "/" }, "/w", "/w/ops");
    expect(n.name("/w/ops/a.md")).toBe("<ops-repo>/a.md");
    expect(n.name("/w/CLAUDE.md")).toBe("<workspace-root>/CLAUDE.md");
    expect(n.name("/m/config/x.json")).toBe("$MOGUI_HOME/config/x.json");
    expect(n.name("/h/me/x")).toBe("~/x");
    expect(n.scrub("orca '/usr/bin/orca' not found at id::/w/ops")).toBe("orca '.../orca' not found at id::<ops-repo>");
  });

  test("descriptor validation follows the §18 loader rules", () => {
    expect(validateDescriptor('{"workspace_root": "/w", "repositories": [{"name": "a", "path": "a", "role": "product", "prohibited": [], "capabilities": null}]}')).toEqual({ workspaceRoot: "/w", repositories: 1 });
    expect(() => validateDescriptor('{"workspace_root_is_plain_folder": false}')).toThrow(/must be true/);
    expect(() => validateDescriptor('{"repositories": [{"name": "a", "path": "a", "role": "product"}]}')).toThrow(/prohibited/);
    expect(() => validateDescriptor('{"repositories": [{"name": "a", "path": "a", "role": "lib", "prohibited": []}]}')).toThrow(/role must be one of/);
    expect(() => validateDescriptor('{"repositories": [{"name": "a", "path": "a/", "role": "ops", "prohibited": []}, {"name": "b", "path": "a", "role": "ops", "prohibited": []}]}')).toThrow(/duplicate repository path/);
    expect(() => validateDescriptor("[]")).toThrow("root must be a JSON object");
  });
});
