// template check (reference §28.1): the report fields, every exit rule, adoption notes.
import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { adoptionNotes, normalizeVersion } from "../../../src/ops-repo/template/changelog.ts";
import { templateCheck } from "../../../src/ops-repo/template/check.ts";
import { diskTemplate } from "../../../src/ops-repo/template/source.ts";
import { tempDir } from "../../helpers/paths.ts";
import { writeTree } from "../../helpers/files.ts";

const tree = (files: Record<string, string>) => writeTree(tempDir("mogui-chk-"), files);

const manifest = (v: string, files: string[]) => JSON.stringify({ template_version: v, files });
const LOG = "# Changelog\n\n## Unreleased\n- next\n\n## v3.0.0\n- three\n  detail\n\n### sub\n- still three\n\n## 2.0.0 - 2026-01-01\n- two\n\n## v1.0.0\n- one\n";

describe("adoption notes", () => {
  test("Unreleased always, then every section newer than the installed version, v prefix tolerated", () => {
    expect(adoptionNotes(LOG, "v2.0.0").map((n) => n.version)).toEqual(["Unreleased", "v3.0.0"]);
    expect(adoptionNotes(LOG, "2.0.0").map((n) => n.version)).toEqual(["Unreleased", "v3.0.0"]);
    expect(adoptionNotes(LOG, "v1.0.0").map((n) => n.version)).toEqual(["Unreleased", "v3.0.0", "2.0.0 - 2026-01-01"]);
    expect(adoptionNotes(LOG, null).length).toBe(4);
    expect(adoptionNotes(LOG, "v2.0.0")[1]!.body).toBe("- three\n  detail\n\n### sub\n- still three");
    expect(normalizeVersion("[v0.5.0] - 2026")).toBe("0.5.0");
  });
});

describe("templateCheck", () => {
  test("install-manifest mode: current repository is exit 0", () => {
    const ops = tree({ "MANIFEST.json": manifest("v1", ["MANIFEST.json", "a.md"]), "a.md": "", "docs/lineage/L.md": "", "config/x.json": "", "contracts/c.md": "", ".git/HEAD": "", "onboarding/00.md": "", "CHANGELOG.md": "" });
    const { report, code } = templateCheck(ops, null);
    expect(code).toBe(0);
    expect(report).toEqual({
      report_set: "install-manifest",
      ops_root: ops,
      template: null,
      installed_version: "v1",
      manifest_status: "ok",
      absent_required: [],
      unknown_present: [],
      template_version: null,
      adoption_notes: [],
      questions_unanswered: [],
      invalid_paths: [],
      unfilled_placeholders: [],
    });
  });

  test("absent, unknown and symlinked paths are drift (exit 1)", () => {
    const ops = tree({ "MANIFEST.json": manifest("v1", ["MANIFEST.json", "a.md", "b.md"]), "a.md": "", "extra.md": "" });
    symlinkSync(join(ops, "a.md"), join(ops, "link.md"));
    const { report, code } = templateCheck(ops, null);
    expect(code).toBe(1);
    expect(report.absent_required).toEqual(["b.md"]);
    expect(report.unknown_present).toEqual(["extra.md"]);
    expect(report.invalid_paths).toEqual(["link.md"]);
  });

  test("no MANIFEST.json is exit 1 with the undeterminable-version question; a malformed one is exit 2", () => {
    const absent = templateCheck(tree({ "a.md": "" }), null);
    expect(absent.code).toBe(1);
    expect(absent.report.manifest_status).toBe("absent");
    expect(absent.report.questions_unanswered).toEqual(["installed version undeterminable (no MANIFEST.json); compare by content presence only"]);
    const bad = templateCheck(tree({ "MANIFEST.json": '{"files": "nope"}' }), null);
    expect(bad.code).toBe(2);
    expect(bad.report.manifest_status).toBe("malformed");
  });

  test("template-compare: the template's manifest is the required set; behind -> exit 1 with adoption notes", () => {
    const t = tree({ "TEMPLATE-VERSION": "v3.0.0\n", "MANIFEST.json": manifest("v3.0.0", ["MANIFEST.json", "a.md", "new.md"]), "CHANGELOG.md": LOG });
    const ops = tree({ "MANIFEST.json": manifest("v2.0.0", ["MANIFEST.json", "a.md"]), "a.md": "" });
    const { report, code } = templateCheck(ops, diskTemplate(t));
    expect(code).toBe(1);
    expect(report.report_set).toBe("template-compare");
    expect(report.template_version).toBe("v3.0.0");
    expect(report.absent_required).toEqual(["new.md"]);
    expect(report.adoption_notes.map((n) => n.version)).toEqual(["Unreleased", "v3.0.0"]);
  });

  test("template-compare: same version and files is exit 0 with no notes", () => {
    const t = tree({ "TEMPLATE-VERSION": "v3.0.0\n", "MANIFEST.json": manifest("v3.0.0", ["MANIFEST.json", "a.md"]), "CHANGELOG.md": LOG });
    const ops = tree({ "MANIFEST.json": manifest("v3.0.0", ["MANIFEST.json", "a.md"]), "a.md": "" });
    expect(templateCheck(ops, diskTemplate(t))).toMatchObject({ code: 0, report: { adoption_notes: [], template_version: "v3.0.0" } });
  });

  test("an empty TEMPLATE-VERSION is exit 2 with a question naming VERSION", () => {
    const t = tree({ "TEMPLATE-VERSION": "\n", "MANIFEST.json": manifest("v3", ["MANIFEST.json"]) });
    const r = templateCheck(tree({ "MANIFEST.json": manifest("v3", ["MANIFEST.json"]) }), diskTemplate(t));
    expect(r.code).toBe(2);
    expect(r.report.questions_unanswered[0]).toContain("VERSION");
  });

  test("a template without TEMPLATE-VERSION falls back to its manifest's version", () => {
    const t = tree({ "MANIFEST.json": manifest("v4", ["MANIFEST.json"]) });
    const r = templateCheck(tree({ "MANIFEST.json": manifest("v4", ["MANIFEST.json"]) }), diskTemplate(t));
    expect(r).toMatchObject({ code: 0, report: { template_version: "v4" } });
  });
});
