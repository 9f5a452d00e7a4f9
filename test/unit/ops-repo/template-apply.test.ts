// template apply planning and writing (reference §28.2): plan actions, instance-owned paths, every invalid-path rule,
// overlap, atomic writes that keep modes, placeholder substitution.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ApplySetupError, planApply, substitute, writePlan } from "../../../src/ops-repo/template/apply.ts";
import { invalidRelPath, isInstanceOwned, unsafeDestination } from "../../../src/ops-repo/template/paths.ts";
import { within } from "../../../src/lib/paths.ts";
import { diskTemplate, embeddedTemplate } from "../../../src/ops-repo/template/source.ts";
import { tempDir } from "../../helpers/paths.ts";
import { writeTree } from "../../helpers/files.ts";

const tree = (files: Record<string, string>, dir = tempDir("mogui-tpl-")) => writeTree(dir, files);

function template(files: string[], extra: Record<string, string> = {}): string {
  const body: Record<string, string> = { "TEMPLATE-VERSION": "v2.0.0\n", "MANIFEST.json": JSON.stringify({ template_version: "v2.0.0", files }), ...extra };
  return tree(body);
}

const action = (plan: ReturnType<typeof planApply>, path: string) => plan.entries.find((e) => e.path === path)?.action;

describe("relative path rules", () => {
  test("absolute, '..', ':', NUL, empty segments and non-strings are invalid", () => {
    expect(invalidRelPath("/etc/passwd")).toBe("path is absolute");
    expect(invalidRelPath("a/../b")).toBe("path contains '..'");
    expect(invalidRelPath("c:x")).toBe("path contains ':'");
    expect(invalidRelPath("a\0b")).toBe("path contains NUL");
    expect(invalidRelPath("a//b")).toBe("path has an empty or '.' segment");
    expect(invalidRelPath(7)).toBe("path is not a string");
    expect(invalidRelPath("docs/a.md")).toBeNull();
  });

  test("instance-owned paths", () => {
    for (const p of ["docs/lineage/X.md", ".beads/db", "config/a.json", "contracts/c.md", "docs/runbooks/role-state.md"]) expect(isInstanceOwned(p)).toBe(true);
    for (const p of ["docs/runbooks/worker-reap.md", "docs/lineagex.md", "README.md"]) expect(isInstanceOwned(p)).toBe(false);
  });

  test("destinations through a symlink, or existing non-files, are unsafe", () => {
    const ops = tree({ "real/a.md": "" });
    symlinkSync(join(ops, "real"), join(ops, "linked"));
    symlinkSync(join(ops, "real/a.md"), join(ops, "file-link.md"));
    mkdirSync(join(ops, "adir"));
    expect(unsafeDestination(ops, "linked/a.md")).toBe("destination passes through a symlink (linked)");
    expect(unsafeDestination(ops, "file-link.md")).toBe("destination is a symlink");
    expect(unsafeDestination(ops, "adir")).toBe("destination exists but is not a regular file");
    expect(unsafeDestination(ops, "real/a.md")).toBeNull();
    expect(unsafeDestination(ops, "new/deep/b.md")).toBeNull();
  });

  test("only a leading '..' segment leaves the root: a name that starts with '..' stays inside", () => {
    expect(within("/w/ops", "/w/ops")).toBe(true);
    expect(within("/w/ops", "/w/ops/..notes/a.md")).toBe(true);
    expect(within("/w/ops", "/w/ops/a/../b")).toBe(true);
    expect(within("/w/ops", "/w/ops/../x")).toBe(false);
    expect(within("/w/ops", "/w")).toBe(false);
    expect(within("/w/ops", "/w/ops2")).toBe(false);
    expect(invalidRelPath("..notes/a.md")).toBeNull();
    expect(unsafeDestination(tempDir(), "..notes/a.md")).toBeNull();
  });
});

describe("planApply", () => {
  test("every plan action, sorted by path", () => {
    const t = template(["a.md", "b.md", "missing.md", "docs/runbooks/role-state.md", "../escape.md", "/abs.md", "link/x.md", 5 as unknown as string], {
      "a.md": "A",
      "b.md": "B",
      "docs/runbooks/role-state.md": "RS",
      "docs/lineage/MASTER-LINEAGE.md": "L",
    });
    const ops = tree({ "b.md": "old", "docs/runbooks/role-state.md": "mine" });
    symlinkSync(tempDir(), join(ops, "link"));
    const plan = planApply(ops, diskTemplate(t), ["a.md", "not-listed.md"]);
    expect(plan.entries.map((e) => [e.path, e.action])).toEqual([
      ["../escape.md", "error-invalid-path"],
      ["/abs.md", "error-invalid-path"],
      ["5", "error-invalid-path"],
      ["a.md", "planned"],
      ["b.md", "planned"],
      ["docs/lineage/MASTER-LINEAGE.md", "planned"],
      ["docs/runbooks/role-state.md", "skipped-as-instance-owned"],
      ["link/x.md", "error-invalid-path"],
      ["missing.md", "error-missing-template-file"],
      ["not-listed.md", "refused-not-in-manifest"],
    ]);
    expect(plan.entries.find((e) => e.path === "a.md")!.reason).toBe("template-layer path; would create missing file");
    expect(plan.entries.find((e) => e.path === "b.md")!.reason).toBe("template-layer path; would overwrite existing file");
    expect(plan.seeds).toEqual(new Set(["docs/lineage/MASTER-LINEAGE.md"]));
    expect(plan.templateVersion).toBe("v2.0.0");
  });

  test("overlapping template and ops roots are refused", () => {
    const t = template(["a.md"], { "a.md": "A" });
    mkdirSync(join(t, "ops"));
    expect(() => planApply(join(t, "ops"), diskTemplate(t))).toThrow(new ApplySetupError("template and ops roots must be distinct and non-overlapping"));
    expect(() => planApply(t, diskTemplate(t))).toThrow(ApplySetupError);
  });

  test("a template file reached through a symlinked directory is missing: nothing is read from outside the template", () => {
    const outside = tree({ "secret.md": "outside\n" });
    const t = template(["docs/secret.md"]);
    symlinkSync(outside, join(t, "docs"));
    const src = diskTemplate(t);
    expect(src.read("docs/secret.md")).toBeNull();
    expect(src.mode("docs/secret.md")).toBeNull();
    expect(action(planApply(tempDir(), src), "docs/secret.md")).toBe("error-missing-template-file");
  });

  test("a template without MANIFEST.json, or with an unreadable one, is a setup error", () => {
    expect(() => planApply(tempDir(), diskTemplate(tree({ "TEMPLATE-VERSION": "v1\n" })))).toThrow("template has no MANIFEST.json");
    expect(() => planApply(tempDir(), diskTemplate(tree({ "TEMPLATE-VERSION": "v1\n", "MANIFEST.json": "[" })))).toThrow(/not valid JSON/);
  });

  test("the embedded template plans every install path plus the lineage seed into an empty ops dir", async () => {
    const plan = planApply(tempDir(), await embeddedTemplate());
    expect(plan.entries.every((e) => e.action === "planned")).toBe(true);
    expect(action(plan, "docs/lineage/MASTER-LINEAGE.md")).toBe("planned");
    expect(action(plan, "docs/runbooks/role-state.md")).toBe("planned");
    expect(action(plan, "ONBOARDING.md")).toBeUndefined();
  });
});

describe("writePlan", () => {
  test("writes atomically, substitutes placeholders, keeps an existing file's mode, else the source mode", () => {
    const t = template(["a.md", "run.sh", "keep.md"], { "a.md": "name={{WORKSPACE_NAME}} v={{TEMPLATE_VERSION}} other={{OPS_REPO}}\n", "run.sh": "#!/bin/sh\n", "keep.md": "new\n" });
    chmodSync(join(t, "run.sh"), 0o755);
    const ops = tree({ "keep.md": "old\n" });
    chmodSync(join(ops, "keep.md"), 0o600);
    const plan = planApply(ops, diskTemplate(t));
    const written = writePlan(ops, diskTemplate(t), plan, { WORKSPACE_NAME: "acme", TEMPLATE_VERSION: "v2.0.0" });
    expect(written.map((w) => [w.path, w.reason])).toEqual([
      ["a.md", "created missing file"],
      ["keep.md", "overwrote existing file"],
      ["run.sh", "created missing file"],
    ]);
    expect(readFileSync(join(ops, "a.md"), "utf8")).toBe("name=acme v=v2.0.0 other={{OPS_REPO}}\n");
    expect(lstatSync(join(ops, "keep.md")).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(ops, "run.sh")).mode & 0o777).toBe(0o755);
    expect(readdirSync(ops).filter((f) => f.startsWith(".template-apply-"))).toEqual([]);
  });

  test("atomicWrite without a mode gives a new file 0o666 minus the umask, and leaves no temp file", async () => {
    const { atomicWrite } = await import("../../../src/lib/fs.ts");
    const dir = tempDir();
    const old = process.umask(0o027);
    try {
      atomicWrite(join(dir, "f.txt"), "x\n", undefined, ".t-");
      atomicWrite(join(dir, "g.sh"), "y\n", 0o751, ".t-");
    } finally {
      process.umask(old);
    }
    expect(lstatSync(join(dir, "f.txt")).mode & 0o777).toBe(0o640);
    expect(lstatSync(join(dir, "g.sh")).mode & 0o777).toBe(0o751);
    expect(readdirSync(dir).sort()).toEqual(["f.txt", "g.sh"]);
  });

  test("a destination that became a symlink after planning aborts before any write", () => {
    const t = template(["a.md", "b/c.md"], { "a.md": "A", "b/c.md": "C" });
    const ops = tempDir();
    const plan = planApply(ops, diskTemplate(t));
    symlinkSync(tempDir(), join(ops, "b"));
    expect(() => writePlan(ops, diskTemplate(t), plan, {})).toThrow(/write aborted before any write: b\/c.md/);
    expect(existsSync(join(ops, "a.md"))).toBe(false);
  });

  test("substitute leaves non-UTF-8 bytes untouched", () => {
    const bin = new Uint8Array([0xff, 0xfe, 0x7b, 0x7b]);
    expect(substitute(bin, { WORKSPACE_NAME: "x" })).toEqual(bin);
  });
});
