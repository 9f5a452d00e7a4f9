// generate-manifest (reference §26): install paths and exclusions, frame hygiene, --check diagnostics, symlink refusal.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installPaths, renderManifest, staleDiagnostics } from "../../../src/ops-repo/manifest/generate.ts";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";
import { writeTree } from "../../helpers/files.ts";

const skeleton = (files: Record<string, string>) => writeTree(tempDir("mogui-skel-"), files);

const FRAME = ["master", "ops/"].join("-");

describe("install paths", () => {
  test("template-side files, onboarding/, docs/lineage/ and caches are excluded; MANIFEST.json always included", () => {
    const dir = skeleton({
      "TEMPLATE-VERSION": "v1\n",
      "CHANGELOG.md": "",
      "ONBOARDING.md": "",
      ".coverage": "",
      "onboarding/00-x.md": "",
      "docs/lineage/MASTER-LINEAGE.md": "",
      "docs/charter/01.md": "",
      "a/__pycache__/x.pyc": "",
      "b.pyc": "",
      "c.pyo": "",
      "x.egg-info/PKG": "",
      ".git/config": "",
      ".beads/db": "",
      "build/out": "",
      "dist/out": "",
      "htmlcov/i": "",
      ".pytest_cache/x": "",
      "README.md": "",
      "Z.md": "",
      "docs/a.md": "",
    });
    symlinkSync(join(dir, "README.md"), join(dir, "link.md"));
    expect(installPaths(dir)).toEqual(["MANIFEST.json", "README.md", "Z.md", "docs/a.md", "docs/charter/01.md"]);
  });

  test("rendering is indent-2 JSON with template_version first and a trailing newline", () => {
    expect(renderManifest({ template_version: "v1", files: ["a", "b"] })).toBe('{\n  "template_version": "v1",\n  "files": [\n    "a",\n    "b"\n  ]\n}\n');
  });

  test("stale diagnostics name missing, extra, order and version", () => {
    expect(staleDiagnostics({ template_version: "v1", files: ["a", "c"] }, { template_version: "v2", files: ["a", "b"] })).toEqual(['  missing from committed: ["b"]', '  extra in committed: ["c"]', "  version 'v1' -> 'v2'"]);
    expect(staleDiagnostics({ template_version: "v1", files: ["b", "a"] }, { template_version: "v1", files: ["a", "b"] })).toEqual(["  files set matches but order differs"]);
    expect(staleDiagnostics({ template_version: "v1", files: ["a"] }, { template_version: "v1", files: ["a"] })).toEqual([]);
  });
});

describe("mogui generate-manifest", () => {
  test("writes, then --check passes, --stdout prints the same bytes", async () => {
    const dir = skeleton({ "TEMPLATE-VERSION": "v9.9.9\n", "README.md": "hi\n", "docs/x.md": "x\n" });
    const w = await runMain(["generate-manifest", "--skeleton", dir]);
    expect(w).toEqual({ code: 0, stdout: `wrote ${join(dir, "MANIFEST.json")} (3 paths, version v9.9.9)\n`, stderr: "" });
    expect(JSON.parse(readFileSync(join(dir, "MANIFEST.json"), "utf8"))).toEqual({ template_version: "v9.9.9", files: ["MANIFEST.json", "README.md", "docs/x.md"] });
    expect((await runMain(["generate-manifest", "--skeleton", dir, "--check"])).code).toBe(0);
    const s = await runMain(["generate-manifest", "--skeleton", dir, "--stdout"]);
    expect(s.stdout).toBe(readFileSync(join(dir, "MANIFEST.json"), "utf8"));
  });

  test("--check: a new file makes the manifest stale (exit 1) with the diagnostic; CRLF is tolerated", async () => {
    const dir = skeleton({ "TEMPLATE-VERSION": "v1\n", "README.md": "hi\n" });
    await runMain(["generate-manifest", "--skeleton", dir]);
    const text = readFileSync(join(dir, "MANIFEST.json"), "utf8");
    writeFileSync(join(dir, "MANIFEST.json"), text.replace(/\n/g, "\r\n"));
    expect((await runMain(["generate-manifest", "--skeleton", dir, "--check"])).code).toBe(0);
    writeFileSync(join(dir, "new.md"), "n\n");
    const r = await runMain(["generate-manifest", "--skeleton", dir, "--check"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('generate-manifest: MANIFEST.json is stale; run mogui generate-manifest\n  missing from committed: ["new.md"]\n');
  });

  test("--check: missing or invalid committed manifest is exit 1", async () => {
    const dir = skeleton({ "TEMPLATE-VERSION": "v1\n" });
    const r = await runMain(["generate-manifest", "--skeleton", dir, "--check"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("MANIFEST.json missing");
    writeFileSync(join(dir, "MANIFEST.json"), "{not json");
    expect((await runMain(["generate-manifest", "--skeleton", dir, "--check"])).stderr).toContain("committed manifest is invalid");
  });

  test("frame hygiene defects fail with exit 1 and name each file; docs/blame/ is exempt", async () => {
    const dir = skeleton({ "TEMPLATE-VERSION": "v1\n", "a.md": `see ${FRAME}x\n`, "b.md": `clone ${["mogui", "master", "ops"].join("-")}\n`, "docs/blame/i.md": `${FRAME}\n`, "onboarding/s.md": `${FRAME}\n` });
    const r = await runMain(["generate-manifest", "--skeleton", dir, "--stdout"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`generate-manifest: frame hygiene failed\n  a.md: contains '${FRAME}' (ADE-frame path leak)\n  b.md: contains authoring repository name '${["mogui", "master", "ops"].join("-")}'\n`);
  });

  test("skeleton not a directory is exit 2; missing or empty TEMPLATE-VERSION is exit 1", async () => {
    const r = await runMain(["generate-manifest", "--skeleton", "/nonexistent/skel"]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: "generate-manifest: skeleton not a directory: /nonexistent/skel\n" });
    expect((await runMain(["generate-manifest", "--skeleton", skeleton({ "a.md": "" })])).code).toBe(1);
    const empty = await runMain(["generate-manifest", "--skeleton", skeleton({ "TEMPLATE-VERSION": "  \n" })]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("TEMPLATE-VERSION is empty");
  });

  test("refuses a symlinked or non-regular output path (exit 1) and leaves the target alone", async () => {
    const dir = skeleton({ "TEMPLATE-VERSION": "v1\n", "a.md": "" });
    const victim = join(tempDir(), "victim.txt");
    writeFileSync(victim, "keep\n");
    symlinkSync(victim, join(dir, "MANIFEST.json"));
    const r = await runMain(["generate-manifest", "--skeleton", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`generate-manifest: refusing non-regular output path: ${join(dir, "MANIFEST.json")}\n`);
    expect(readFileSync(victim, "utf8")).toBe("keep\n");
    const out = join(dir, "outdir");
    mkdirSync(out);
    expect((await runMain(["generate-manifest", "--skeleton", dir, "--out", out])).code).toBe(1);
  });

  test("--check and --stdout together is a usage error", async () => {
    expect((await runMain(["generate-manifest", "--check", "--stdout"])).code).toBe(2);
  });
});
