/** The workspace descriptor (reference §18, D2): schema messages, resolution order, exact matching, fail closed. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { descriptorPath, isProhibited, loadDescriptor, parseDescriptor, repositoryForPath, type WorkspaceDescriptor } from "../../../src/evidence/descriptor/descriptor.ts";
import { tempDir } from "../../helpers/paths.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

const repo = (over: Record<string, unknown> = {}) => ({ name: "prod", path: "prod", role: "product", prohibited: ["force-push"], ...over });
const msg = (raw: unknown) => {
  try {
    parseDescriptor(typeof raw === "string" ? raw : JSON.stringify(raw), "/d.json");
    return "ok";
  } catch (e) {
    return errorMessage(e).replace("workspace descriptor /d.json: ", "");
  }
};

describe("parse", () => {
  test("every schema message", () => {
    expect(msg("{")).toStartWith("workspace descriptor is not valid JSON: /d.json");
    expect(msg([])).toBe("workspace descriptor root must be a JSON object: /d.json");
    expect(msg({ workspace_root_is_plain_folder: false })).toBe("workspace_root_is_plain_folder must be true: this runtime rejects submodule parents and non-plain workspace roots");
    expect(msg({ workspace_root_is_plain_folder: "yes" })).toBe("workspace_root_is_plain_folder must be a boolean");
    expect(msg({ repositories: {} })).toBe("repositories must be a JSON array");
    expect(msg({ repositories: [3] })).toBe("repositories[0] must be a JSON object");
    expect(msg({ repositories: [repo(), repo({ name: " ", path: "x" })] })).toBe("repositories[1].name must be a non-empty string");
    expect(msg({ repositories: [repo({ path: undefined })] })).toBe("repositories[0].path must be a non-empty string");
    expect(msg({ repositories: [repo({ role: "qa" })] })).toBe("repositories[0].role must be one of ['ops', 'product'], got 'qa'");
    expect(msg({ repositories: [repo({ prohibited: undefined })] })).toContain("repositories[0].prohibited is required");
    expect(msg({ repositories: [repo({ prohibited: null })] })).toBe("repositories[0].prohibited must be a JSON array of strings");
    expect(msg({ repositories: [repo({ capabilities: ["pr", 1] })] })).toBe("repositories[0].capabilities must be a JSON array of strings");
    expect(msg({ repositories: [repo({ capabilities: ["pr", " "] })] })).toBe("repositories[0].capabilities entries must be non-empty strings");
    expect(msg({ repositories: [repo(), repo({ path: "prod/", name: "b" })] })).toBe("duplicate repository path 'prod'");
    expect(msg({ repositories: [repo(), repo({ path: "b" })] })).toBe("duplicate repository name 'prod'");
    expect(msg({ master_seat: 3 })).toBe("master_seat must be a string or null");
    expect(msg({ _docs: { anything: 1 }, _x: false, repositories: [repo({ _note: 1, remote: "r" })] })).toBe("ok");
  });

  test("defaults: plain folder true, master_seat '' for null, blank workspace_root is null", () => {
    expect(parseDescriptor(JSON.stringify({ master_seat: null, workspace_root: " " }), "/d")).toEqual({ workspaceRoot: null, masterSeat: "", repositories: [] });
  });
});

describe("resolution (D2): --config > WORKSPACE_DESCRIPTOR > MOGUI_WORKSPACE_DESCRIPTOR > MOGUI_HOME", () => {
  test("order and the unconfigured case", () => {
    const env = { WORKSPACE_DESCRIPTOR: "a.json", MOGUI_WORKSPACE_DESCRIPTOR: "b.json", MOGUI_HOME: "/h" };
    expect(descriptorPath({ env, cwd: "/c" }, "f.json")).toBe("/c/f.json");
    expect(descriptorPath({ env, cwd: "/c" })).toBe("/c/a.json");
    expect(descriptorPath({ env: { ...env, WORKSPACE_DESCRIPTOR: " " }, cwd: "/c" })).toBe("/c/b.json");
    expect(descriptorPath({ env: { MOGUI_HOME: "/h" }, cwd: "/c" })).toBe("/h/config/workspace-descriptor.json");
    const d = loadDescriptor({ env: { MOGUI_HOME: tempDir() }, cwd: "/" });
    expect(d.sourcePath).toBeNull();
    expect(d.repositories).toEqual([]);
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), Buffer.from([0x7b, 0xff, 0x7d]));
    expect(() => loadDescriptor({ env: {}, cwd: dir }, "bad.json")).toThrow(`workspace descriptor is not valid UTF-8: ${join(dir, "bad.json")}`);
    mkdirSync(join(dir, "dir.json"));
    expect(() => loadDescriptor({ env: {}, cwd: dir }, "dir.json")).toThrow(/cannot read workspace descriptor/);
  });
});

describe("matching and prohibition", () => {
  const d: WorkspaceDescriptor = {
    ...parseDescriptor(JSON.stringify({ workspace_root: "/ws", repositories: [repo(), repo({ name: "ops", path: "tools/ops", role: "ops", prohibited: [] }), repo({ name: "root", path: ".", prohibited: ["x"] })] }), "/d"),
    sourcePath: "/d",
    configPath: "/d",
  };
  test("absolute: under workspace_root, exact declared path; the root itself is '.'; outside -> none", () => {
    expect(repositoryForPath(d, "/ws/prod")?.name).toBe("prod");
    expect(repositoryForPath(d, "/ws/tools/ops/")?.name).toBe("ops");
    expect(repositoryForPath(d, "/ws")?.name).toBe("root");
    expect(repositoryForPath(d, "/ws/prod/src")).toBeNull();
    expect(repositoryForPath(d, "/elsewhere/prod")).toBeNull();
    expect(repositoryForPath({ ...d, workspaceRoot: null }, "/ws/prod")).toBeNull();
    // A directory whose name starts with '..' is inside the root, not above it.
    const dots = { ...d, repositories: [...d.repositories, { ...d.repositories[0]!, name: "dots", path: "..dots" }] };
    expect(repositoryForPath(dots, "/ws/..dots")?.name).toBe("dots");
    expect(repositoryForPath(dots, "/ws/../dots")).toBeNull();
  });
  test("relative: exact path, or a one-segment name; never basename or suffix", () => {
    expect(repositoryForPath(d, "prod/")?.name).toBe("prod");
    expect(repositoryForPath(d, "tools/ops")?.name).toBe("ops");
    expect(repositoryForPath(d, "ops")?.name).toBe("ops");
    expect(repositoryForPath(d, "x/prod")).toBeNull();
    expect(repositoryForPath(d, "  ")).toBeNull();
    // Two declarations that normalise to the same path: ambiguous, never a guess.
    const amb = { ...d, repositories: [d.repositories[0]!, { ...d.repositories[0]!, name: "prod-dot", path: "./prod" }] };
    expect(() => repositoryForPath(amb, "prod")).toThrow("path 'prod' matches multiple repository entries: prod, prod-dot");
  });
  test("is_prohibited: exact action string; unknown repo fails closed unless allowed; blank action is an error", () => {
    expect(isProhibited(d, "prod", "force-push").prohibited).toBe(true);
    expect(isProhibited(d, "prod", "Force-Push").prohibited).toBe(false);
    expect(isProhibited(d, "ops", "force-push").prohibited).toBe(false);
    expect(isProhibited(d, "nowhere", "anything")).toEqual({ prohibited: true, repository: null });
    expect(isProhibited(d, "nowhere", "anything", false).prohibited).toBe(false);
    expect(() => isProhibited(d, "prod", " ")).toThrow("action must be a non-empty string");
  });
});
