// cursor-worker-pretrust (reference §25): Cursor's trust marker, atomic, never through a symlink, never for
// another workspace.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cursorPretrust, cursorProjectKey, cursorProjectsDir, pythonJson } from "../../../src/dispatch/pretrust/cursor.ts";
import { runMain } from "../../helpers/ctx.ts";
import { pretrustFailure as fails } from "../../helpers/pretrust.ts";
import { tempDir } from "../../helpers/paths.ts";

const NOW = Date.UTC(2026, 10, 30, 8, 0, 0, 123);
let dir: string;
let wt: string;
let projects: string;
beforeEach(() => {
  dir = tempDir("pretrust-cursor-");
  wt = join(dir, "wt.x");
  mkdirSync(wt);
  projects = join(dir, "projects");
});
const ctx = () => ({ env: { HOME: dir }, cwd: dir, now: () => NOW });
const run = (worktree = wt) => cursorPretrust(ctx(), { worktree, projectsDir: projects });
const markerOf = (p = wt) => join(projects, cursorProjectKey(p), ".workspace-trusted");

test("project key: leading / dropped, / -> -, dots removed", () => {
  expect(cursorProjectKey("/tmp/.orca/worktrees/repo/feature.with.dot")).toBe("tmp-orca-worktrees-repo-featurewithdot");
  expect(cursorProjectKey("/")).toBe("");
});

test("projects dir: flag > CURSOR_PROJECTS_DIR > ~/.cursor/projects", () => {
  expect(cursorProjectsDir({ env: { HOME: "/h", CURSOR_PROJECTS_DIR: "/e" }, cwd: "/c" }, "p")).toBe("/c/p");
  expect(cursorProjectsDir({ env: { HOME: "/h", CURSOR_PROJECTS_DIR: "/e" }, cwd: "/c" })).toBe("/e");
  expect(cursorProjectsDir({ env: { HOME: "/h" }, cwd: "/c" })).toBe("/h/.cursor/projects");
});

describe("marker", () => {
  test("absent: written (Python json indent 2 + newline), 0644, dirs 0755, no temp file left", () => {
    const m = markerOf();
    expect(run().lines).toEqual([`${m}: trusted (added)`, "Summary: 1 added, 0 updated, 0 already trusted"]);
    expect(readFileSync(m, "utf8")).toBe(`{\n  "trustedAt": "2026-11-30T08:00:00.123Z",\n  "workspacePath": "${wt}"\n}\n`);
    expect(statSync(m).mode & 0o777).toBe(0o644);
    expect(statSync(join(projects, cursorProjectKey(wt))).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(projects, cursorProjectKey(wt)))).toEqual([".workspace-trusted"]);
  });

  test("already trusted: bytes untouched", () => {
    run();
    const before = readFileSync(markerOf());
    expect(run().lines).toEqual([`${markerOf()}: already trusted`, "Summary: 0 added, 0 updated, 1 already trusted"]);
    expect(readFileSync(markerOf()).equals(before)).toBe(true);
  });

  test("missing fields are filled in and other keys kept", () => {
    mkdirSync(join(projects, cursorProjectKey(wt)), { recursive: true });
    writeFileSync(markerOf(), JSON.stringify({ note: "kept", trustedAt: "" }));
    expect(run().lines[0]).toBe(`${markerOf()}: trusted (updated)`);
    expect(JSON.parse(readFileSync(markerOf(), "utf8"))).toEqual({ note: "kept", trustedAt: "2026-11-30T08:00:00.123Z", workspacePath: wt });
    writeFileSync(markerOf(), JSON.stringify({ trustedAt: "yesterday" }));
    run();
    expect(JSON.parse(readFileSync(markerOf(), "utf8"))).toEqual({ trustedAt: "yesterday", workspacePath: wt });
  });

  test("non-ASCII is escaped like Python's json.dumps", () => {
    // python3 -c 'import json; print(json.dumps({"a": "é✓\x7f~"}, indent=2))': DEL is escaped too (not in space..~).
    expect(pythonJson({ a: "é✓\u007f~" })).toBe('{\n  "a": "\\u00e9\\u2713\\u007f~"\n}');
  });
});

describe("refusals (exit 2, marker unchanged)", () => {
  const existing = (bytes: string | Buffer) => {
    mkdirSync(join(projects, cursorProjectKey(wt)), { recursive: true });
    writeFileSync(markerOf(), bytes);
  };
  test("workspacePath of another workspace", () => {
    existing(JSON.stringify({ workspacePath: "/elsewhere", trustedAt: "x" }));
    expect(fails(run)).toBe(`ERROR ${markerOf()}: workspacePath mismatch in existing trust marker; refusing to overwrite '/elsewhere' with '${wt}'`);
    expect(JSON.parse(readFileSync(markerOf(), "utf8")).workspacePath).toBe("/elsewhere");
  });
  test("bad UTF-8, bad JSON, not an object, not a regular file", () => {
    existing(Buffer.from([0xff, 0xfe]));
    expect(fails(run)).toStartWith(`ERROR ${markerOf()}: cannot decode trust marker as UTF-8`);
    existing("{nope");
    expect(fails(run)).toStartWith(`ERROR ${markerOf()}: cannot parse trust marker JSON: `);
    existing("[1]");
    expect(fails(run)).toBe(`ERROR ${markerOf()}: trust marker is not a JSON object`);
    expect(readFileSync(markerOf(), "utf8")).toBe("[1]");
    const other = join(dir, "wt2");
    mkdirSync(other);
    mkdirSync(markerOf(other), { recursive: true });
    expect(fails(() => run(other))).toBe(`ERROR ${markerOf(other)}: trust marker is not a regular file`);
  });
  test("a symlink anywhere on the marker path: projects dir, project dir, marker", () => {
    const target = join(dir, "target");
    mkdirSync(target);
    symlinkSync(target, projects);
    expect(fails(run)).toBe(`ERROR trust marker path must not use symlinks: ${projects}`);
    expect(readdirSync(target)).toEqual([]);
  });
  test("symlinked project dir and marker", () => {
    const target = join(dir, "target");
    mkdirSync(target);
    mkdirSync(projects);
    const projectDir = join(projects, cursorProjectKey(wt));
    symlinkSync(target, projectDir);
    expect(fails(run)).toBe(`ERROR trust marker path must not use symlinks: ${projectDir}`);
    expect(fails(() => cursorPretrust(ctx(), { worktree: wt, projectsDir: `${projects}/` }))).toBe(`ERROR trust marker path must not use symlinks: ${projectDir}`);
    const wt2 = join(dir, "wt2");
    mkdirSync(wt2);
    mkdirSync(join(projects, cursorProjectKey(wt2)));
    const file = join(dir, "file.json");
    writeFileSync(file, "{}");
    symlinkSync(file, markerOf(wt2));
    expect(fails(() => run(wt2))).toBe(`ERROR trust marker path must not use symlinks: ${markerOf(wt2)}`);
    expect(readFileSync(file, "utf8")).toBe("{}");
  });
  test("relative, missing, not a directory, no key", () => {
    expect(fails(() => run("rel"))).toStartWith("ERROR worktree path must be absolute: rel");
    expect(fails(() => run(join(dir, "nope")))).toBe(`ERROR worktree path does not exist: ${join(dir, "nope")}`);
    writeFileSync(join(dir, "f"), "");
    expect(fails(() => run(join(dir, "f")))).toBe(`ERROR worktree path does not exist: ${join(dir, "f")}`);
    expect(fails(() => run("/"))).toBe("ERROR could not derive a project key from path: /");
  });
});

test("the command: exit codes and streams", async () => {
  const cmd = (args: string[], env: Record<string, string> = {}) => runMain(["cursor-worker-pretrust", ...args], { env: { HOME: dir, ...env }, cwd: dir });
  const r = await cmd([wt, "--projects-dir", projects]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`${markerOf()}: trusted (added)\nSummary: 1 added, 0 updated, 0 already trusted\n`);
  expect(await cmd([wt], { CURSOR_PROJECTS_DIR: projects })).toMatchObject({ code: 0, stdout: `${markerOf()}: already trusted\nSummary: 0 added, 0 updated, 1 already trusted\n`, stderr: "" });
  const missing = await cmd([join(dir, "nope"), "--projects-dir", projects]);
  expect(missing).toMatchObject({ code: 2, stdout: "", stderr: `ERROR worktree path does not exist: ${join(dir, "nope")}\n` });
  expect((await cmd([])).code).toBe(2);
  expect((await cmd([wt, "x"])).code).toBe(2);
});

// Issue 13: a symlinked ANCESTOR of the projects directory redirected the marker (exit 0, a file under real/).
describe("a symlinked ancestor of the projects directory (flag, env, existing target)", () => {
  const treeOf = (root: string): string[] => {
    const out: string[] = [];
    const walk = (d: string, rel: string) => {
      for (const n of readdirSync(d).sort()) {
        out.push(`${rel}${n}`);
        if (statSync(join(d, n)).isDirectory()) walk(join(d, n), `${rel}${n}/`);
      }
    };
    walk(root, "");
    return out;
  };
  const cmd = (args: string[], env: Record<string, string> = {}) => runMain(["cursor-worker-pretrust", ...args], { env: { HOME: dir, ...env }, cwd: dir });
  const refusal = (link: string) => ({ code: 2, stdout: "", stderr: `ERROR trust marker path must not use symlinks: ${link}\n` });

  for (const existing of [false, true]) {
    test(`--projects-dir and CURSOR_PROJECTS_DIR through link -> real (real/projects ${existing ? "exists" : "absent"}): exit 2, nothing written`, async () => {
      const real = join(dir, "real");
      mkdirSync(existing ? join(real, "projects") : real, { recursive: true });
      const link = join(dir, "link");
      symlinkSync(real, link);
      const before = treeOf(real);
      expect(await cmd([wt, "--projects-dir", `${link}/projects`])).toMatchObject(refusal(link));
      expect(await cmd([wt, "--projects-dir", `${link}//projects/`])).toMatchObject(refusal(link));
      expect(await cmd([wt], { CURSOR_PROJECTS_DIR: `${link}/projects` })).toMatchObject(refusal(link));
      expect(await cmd([wt], { CURSOR_PROJECTS_DIR: "link/projects" })).toMatchObject(refusal(link));
      expect(treeOf(real)).toEqual(before);
    });
  }

  test("a symlinked ~/.cursor (the default projects dir) is refused too; a real path still works", async () => {
    const real = join(dir, "dot-cursor");
    mkdirSync(real);
    symlinkSync(real, join(dir, ".cursor"));
    expect(await cmd([wt])).toMatchObject(refusal(join(dir, ".cursor")));
    expect(readdirSync(real)).toEqual([]);
    expect((await cmd([wt, "--projects-dir", join(real, "projects")])).code).toBe(0);
    expect(treeOf(real)).toEqual(["projects", `projects/${cursorProjectKey(wt)}`, `projects/${cursorProjectKey(wt)}/.workspace-trusted`]);
  });
});
