// The committed master-ops/ template: its structure, the closed placeholder set, the byte-identical pairs, the
// §30.1 policy values, no home paths, the committed MANIFEST.json (what CI's `generate-manifest --check` runs) and
// the embedded copy in src/ops-repo/template/embedded.gen.ts.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hygieneDefects, installPaths } from "../../../src/ops-repo/manifest/generate.ts";
import { routerRows } from "../../../src/ops-repo/rehearsal/rehearsal.ts";
import { renderEmbedded, walkFiles } from "../../../src/ops-repo/template/embed-render.ts";
import { PLACEHOLDERS, placeholderTokens } from "../../../src/ops-repo/template/paths.ts";
import { runMain } from "../../helpers/ctx.ts";
import { ROOT } from "../../helpers/paths.ts";

const T = join(ROOT, "master-ops");
const read = (rel: string) => readFileSync(join(T, rel), "utf8");
const FILES = walkFiles(T);

describe("master-ops template structure", () => {
  test("the router's stage table lists exactly the files in onboarding/, each once", () => {
    const rows = routerRows(read("ONBOARDING.md"));
    const stages = readdirSync(join(T, "onboarding")).sort();
    expect([...rows].sort()).toEqual(stages);
    expect(new Set(rows).size).toBe(rows.length);
    expect(stages).toContain("reverify.md");
    expect(stages).toContain("upgrade.md");
    for (const nn of ["00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10"]) expect(stages.some((s) => s.startsWith(`${nn}-`))).toBe(true);
  });

  test("the router names the four session modes and every stage file has its own Verify", () => {
    const router = read("ONBOARDING.md");
    for (const mode of ["Founding", "Reverify", "Upgrade", "Template improve"]) expect(router).toContain(`**${mode}**`);
    for (const f of readdirSync(join(T, "onboarding"))) expect(read(`onboarding/${f}`)).toMatch(/^## Verify\b/m);
  });

  test("stage files pin their key steps", () => {
    const stage = (prefix: string) => read(`onboarding/${readdirSync(join(T, "onboarding")).find((f) => f.startsWith(prefix))!}`);
    expect(stage("01-")).toContain("mogui preflight");
    expect(stage("02-")).toMatch(/absolute path/);
    expect(stage("02-")).toContain("workspace-descriptor.json");
    const seat = stage("04-");
    for (const s of ["Step 3.5", "temporary plain terminal", "`id:`", "**zero** terminals"]) expect(seat).toContain(s);
    const spawn = stage("09-");
    for (const s of ["mogui master-succeed spawn", "--expected-placement", "empty-seat gate", "boot smoke"]) expect(spawn).toContain(s);
    expect(stage("10-")).toContain("mogui master-succeed retire");
    expect(stage("10-")).toContain("Print the operations card");
    expect(read("onboarding/upgrade.md")).toContain("adoption_notes");
  });

  test("every {{...}} token is in the closed placeholder set", () => {
    const bad: string[] = [];
    for (const f of FILES) for (const tok of placeholderTokens(read(f))) if (!(PLACEHOLDERS as readonly string[]).includes(tok)) bad.push(`${f}: {{${tok}}}`);
    expect(bad).toEqual([]);
  });

  test("byte-identical pairs: AGENTS.md == CLAUDE.md, workspace-card/AGENTS.md == workspace-card/CLAUDE.md", () => {
    expect(readFileSync(join(T, "AGENTS.md")).equals(readFileSync(join(T, "CLAUDE.md")))).toBe(true);
    expect(readFileSync(join(T, "workspace-card/AGENTS.md")).equals(readFileSync(join(T, "workspace-card/CLAUDE.md")))).toBe(true);
  });

  test("no absolute home path anywhere in the template", () => {
    const bad = FILES.filter((f) => /\/Users\/|\/home\/|[A-Za-z]:\\Users\\/.test(read(f)));
    expect(bad).toEqual([]);
  });

  test("the required documents exist", () => {
    for (const f of [
      "AGENTS.md",
      "CLAUDE.md",
      "ONBOARDING.md",
      "TEMPLATE-VERSION",
      "CHANGELOG.md",
      "MANIFEST.json",
      "model-tier-policy.json",
      "docs/MASTER-OPERATIONS.md",
      "docs/lineage/MASTER-LINEAGE.md",
      "docs/runbooks/contract-conventions.md",
      "docs/runbooks/error-and-logging.md",
      "docs/runbooks/role-state.md",
      "docs/runbooks/succession-boot-card.md",
      "docs/runbooks/worker-reap.md",
      "workspace-card/CLAUDE.md",
      "workspace-card/AGENTS.md",
    ])
      expect(FILES).toContain(f);
    expect(FILES.filter((f) => f.startsWith("docs/charter/")).length).toBeGreaterThanOrEqual(6);
  });

  test("role-state.md carries the canonical Role State template and the seat lines", () => {
    const rs = read("docs/runbooks/role-state.md");
    expect(rs).toContain("Current Role: (not booted; declare on first master start)\nRole Lock: ENABLED\nFrozen: all other roles\nUnlock: explicit user instruction only\n");
    expect(rs).toContain("Master seat (absolute path): `{{WORKSPACE_ROOT}}`");
    expect(rs).toMatch(/Master seat \(workspace id\): `/);
  });

  test("the succession charter quotes every trigger phrase, the Korean ones included", () => {
    const c = read("docs/charter/06-succession.md");
    for (const p of ["succession now", "handoff to successor", "승계해줘", "다음 마스터로 넘기자", "승계 진행해"]) expect(c).toContain(p);
    expect(read("docs/charter/08-evidence.md")).toContain("Self-report is not evidence");
  });

  test("model-tier-policy.json keeps the §30.1 values", () => {
    const p = JSON.parse(read("model-tier-policy.json"));
    expect(p.version).toBe(2);
    expect(p.tiers.top).toEqual(["gpt-5.6-sol", "claude-opus-5", "claude-fable-5", "gpt-5.5-pro", "grok-4-heavy"]);
    expect(p.tiers.efficient).toEqual(["gpt-5.6-luna", "gpt-5.3-codex", "grok-4.5", "claude-haiku-4-5", "claude-haiku-4-5-20251001", "gemini-3.6-flash", "claude-sonnet-5", "gpt-5.5", "grok-4.5-fast"]);
    expect(p.fanout_caps).toEqual({ unknown: 8 });
    expect(p.window_seconds).toBe(86400);
    expect(Object.keys(p.tiers)).toEqual(["top", "efficient"]);
  });

  test("TEMPLATE-VERSION matches MANIFEST.json and the newest CHANGELOG section", () => {
    const v = read("TEMPLATE-VERSION").trim();
    expect(v).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(JSON.parse(read("MANIFEST.json")).template_version).toBe(v);
    expect(/^## (.*)$/m.exec(read("CHANGELOG.md"))?.[1]).toBe(v);
  });

  test("frame hygiene: no install path names the authoring frame", () => {
    expect(hygieneDefects(T, installPaths(T))).toEqual([]);
  });

  test("CI gate: `mogui generate-manifest --check` passes on the committed template", async () => {
    const r = await runMain(["generate-manifest", "--check", "--skeleton", T]);
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("src/ops-repo/template/embedded.gen.ts is the current master-ops/ (run scripts/gen-embedded-template.ts when this fails)", () => {
    expect(readFileSync(join(ROOT, "src", "ops-repo", "template", "embedded.gen.ts"), "utf8")).toBe(renderEmbedded(T));
  });
});
