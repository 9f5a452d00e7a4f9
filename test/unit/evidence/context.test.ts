/** The filesystem context resolver (reference §16): kinds, statuses, warnings, no recursive scan, manifest errors. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadManifest, ManifestError, parseManifest, type WorkspaceManifest } from "../../../src/evidence/context/manifest.ts";
import { gitMarker, resolveContext } from "../../../src/evidence/context/resolve.ts";
import { tempDir } from "../../helpers/paths.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

function workspace() {
  const root = tempDir("mogui-ctx-");
  for (const d of ["prod/.git", "prod/vendor/lib/.git", "prod/src", "ops", "notes/deep/hidden/.git", "stray/.git", "fake"]) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, "ops", ".git"), "gitdir: /elsewhere/.git/worktrees/ops\n");
  writeFileSync(join(root, "fake", ".git"), "not a gitdir pointer\n");
  const m: WorkspaceManifest = {
    workspaceRoot: root,
    workspaceIdentity: "ws-1",
    repositories: [
      { path: "prod", identity: "product", metadata: {} },
      { path: "ops", identity: "ops-wt", metadata: {} },
      { path: "missing", identity: "gone", metadata: {} },
    ],
    metadata: {},
  };
  return { root, m };
}

describe("resolve", () => {
  test("a declared repo, its repo set and the sorted warnings", () => {
    const { root, m } = workspace();
    const d = resolveContext(join(root, "prod", "src"), m);
    expect(d.kind).toBe("git-repo");
    expect(d.repositoryIdentity).toBe("product");
    expect(d.capabilities.gitRepo).toBe(true);
    expect(d.repoSet).toEqual([
      { path: join(root, "missing"), identity: "gone", status: "declared-missing" },
      { path: join(root, "ops"), identity: "ops-wt", status: "declared+observed" },
      { path: join(root, "prod"), identity: "product", status: "declared+observed" },
      { path: join(root, "stray"), identity: "observed:stray", status: "observed-undeclared" },
    ]);
    expect(d.warnings).toEqual([`Declared repository missing on disk: ${join(root, "missing")}`, "Observed undeclared repository: stray"]);
  });

  test("kinds: worktree by the gitdir prefix, folder, multi-repo root, nested repo with a warning", () => {
    const { root, m } = workspace();
    expect(resolveContext(join(root, "ops"), m).kind).toBe("git-worktree");
    expect(gitMarker(join(root, "fake"))).toBeNull();
    const folder = resolveContext(join(root, "fake", "x"), m);
    expect([folder.kind, folder.repositoryIdentity, folder.capabilities.gitRepo]).toEqual(["folder", null, false]);
    const top = resolveContext(root, m);
    expect([top.kind, top.capabilities.gitRepo]).toEqual(["multi-repo-workspace", false]);
    const nested = resolveContext(join(root, "prod", "vendor", "lib", "x.ts"), m);
    expect(nested.kind).toBe("nested-repo");
    expect(nested.repositoryIdentity).toBe("observed:prod/vendor/lib");
    expect(nested.warnings.at(-1)).toBe(`Nested repository ${join(root, "prod/vendor/lib")} inside enclosing repository ${join(root, "prod")}`);
  });

  test("no recursive scan: a grandchild repo is seen only on the queried path's ancestry", () => {
    const { root, m } = workspace();
    expect(resolveContext(join(root, "prod"), m).repoSet.some((r) => r.path.includes("hidden"))).toBe(false);
    const deep = resolveContext(join(root, "notes", "deep", "hidden", "f"), m);
    expect(deep.repositoryIdentity).toBe("observed:notes/deep/hidden");
  });

  test("a root that is itself a repo is observed:.; symlinked paths are normalised", () => {
    const { root, m } = workspace();
    mkdirSync(join(root, ".git"));
    const d = resolveContext(join(root, "fake"), m);
    expect([d.kind, d.repositoryIdentity]).toEqual(["git-repo", "observed:."]);
    const link = join(tempDir(), "link");
    symlinkSync(join(root, "prod"), link);
    expect(resolveContext(link, m).repositoryIdentity).toBe("product");
  });

  test("two declarations normalising to one path with different identities collide", () => {
    const { root, m } = workspace();
    const bad = { ...m, repositories: [...m.repositories, { path: "./prod/", identity: "other", metadata: {} }] };
    expect(() => resolveContext(root, bad)).toThrow(`repository path collision after normalization: ${join(root, "prod")} (product, other)`);
  });
});

describe("manifest", () => {
  const msg = (raw: unknown) => {
    try {
      parseManifest(raw, "/base");
      return "ok";
    } catch (e) {
      expect(e).toBeInstanceOf(ManifestError);
      return errorMessage(e);
    }
  };
  test("every shape message; relative workspace_root resolves against the manifest's directory", () => {
    const ok = { workspace_root: "ws", workspace_identity: "id", repositories: [] };
    expect(msg([])).toBe("manifest must be a JSON object");
    expect(msg({ ...ok, workspace_root: "" })).toBe("manifest key 'workspace_root' must be a non-empty string");
    expect(msg({ ...ok, workspace_identity: 3 })).toBe("manifest key 'workspace_identity' must be a non-empty string");
    expect(msg({ ...ok, repositories: {} })).toBe("manifest repositories must be a list");
    expect(msg({ ...ok, metadata: [] })).toBe("manifest metadata must be an object");
    expect(msg({ ...ok, repositories: [1] })).toBe("repository entry must be an object");
    expect(msg({ ...ok, repositories: [{ path: "a", identity: " " }] })).toBe("manifest key 'identity' must be a non-empty string");
    expect(msg({ ...ok, repositories: [{ path: "a", identity: "b", metadata: "x" }] })).toBe("repository metadata must be an object");
    expect(parseManifest(ok, "/base").workspaceRoot).toBe("/base/ws");
    const dir = tempDir();
    expect(() => loadManifest(join(dir, "none.json"))).toThrow(`manifest file does not exist: ${join(dir, "none.json")}`);
    writeFileSync(join(dir, "bad.json"), "{");
    expect(() => loadManifest(join(dir, "bad.json"))).toThrow(`invalid manifest JSON: ${join(dir, "bad.json")}`);
  });
});
