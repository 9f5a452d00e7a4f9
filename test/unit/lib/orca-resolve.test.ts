/**
 * Which executable is "orca" (DECISIONS D5): ORCA_CLI_COMMAND > orca-dev when ORCA_DEV_REPO_ROOT is set > orca,
 * with orca-ide preferred on Linux outside an Orca terminal and accepted as the fallback elsewhere.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveOrcaExecutable } from "../../../src/lib/orca/resolve.ts";
import { tempDir } from "../../helpers/paths.ts";

/** A `which` that knows exactly these names, and records what it was asked. */
function whichOf(...present: string[]) {
  const asked: string[] = [];
  const fn = (name: string) => {
    asked.push(name);
    return present.includes(name);
  };
  return Object.assign(fn, { asked });
}

describe("resolveOrcaExecutable", () => {
  test("ORCA_CLI_COMMAND wins over everything (trimmed), without looking at PATH", () => {
    const which = whichOf("orca", "orca-ide", "orca-dev");
    const env = { ORCA_CLI_COMMAND: " /opt/bin/my-orca ", ORCA_DEV_REPO_ROOT: "/src/orca", ORCA_TERMINAL_HANDLE: "term_1" };
    expect(resolveOrcaExecutable(env, "linux", which)).toBe("/opt/bin/my-orca");
    expect(resolveOrcaExecutable(env, "darwin", which)).toBe("/opt/bin/my-orca");
    expect(which.asked).toEqual([]);
  });

  test("an empty or blank ORCA_CLI_COMMAND does not count", () => {
    expect(resolveOrcaExecutable({ ORCA_CLI_COMMAND: "   " }, "darwin", whichOf("orca"))).toBe("orca");
    expect(resolveOrcaExecutable({ ORCA_CLI_COMMAND: "" }, "darwin", whichOf("orca"))).toBe("orca");
  });

  test("ORCA_DEV_REPO_ROOT selects orca-dev, even when orca-dev is not on PATH", () => {
    const which = whichOf("orca", "orca-ide");
    expect(resolveOrcaExecutable({ ORCA_DEV_REPO_ROOT: "/src/orca" }, "linux", which)).toBe("orca-dev");
    expect(resolveOrcaExecutable({ ORCA_DEV_REPO_ROOT: "/src/orca" }, "darwin", which)).toBe("orca-dev");
    expect(which.asked).toEqual([]);
  });

  test("Linux outside an Orca terminal prefers orca-ide when present (bare orca is the screen reader)", () => {
    expect(resolveOrcaExecutable({}, "linux", whichOf("orca", "orca-ide"))).toBe("orca-ide");
    expect(resolveOrcaExecutable({ ORCA_TERMINAL_HANDLE: "" }, "linux", whichOf("orca", "orca-ide"))).toBe("orca-ide");
    // Without orca-ide, plain orca.
    expect(resolveOrcaExecutable({}, "linux", whichOf("orca"))).toBe("orca");
  });

  test("inside an Orca terminal (ORCA_TERMINAL_HANDLE set) orca is used when present", () => {
    const which = whichOf("orca", "orca-ide");
    expect(resolveOrcaExecutable({ ORCA_TERMINAL_HANDLE: "term_abc" }, "linux", which)).toBe("orca");
    expect(which.asked).toEqual(["orca"]);
  });

  test("macOS and Windows use orca when present, even if orca-ide exists", () => {
    expect(resolveOrcaExecutable({}, "darwin", whichOf("orca", "orca-ide"))).toBe("orca");
    expect(resolveOrcaExecutable({}, "win32", whichOf("orca", "orca-ide"))).toBe("orca");
  });

  test("orca-ide is the fallback when orca is missing", () => {
    expect(resolveOrcaExecutable({}, "darwin", whichOf("orca-ide"))).toBe("orca-ide");
    expect(resolveOrcaExecutable({ ORCA_TERMINAL_HANDLE: "term_abc" }, "linux", whichOf("orca-ide"))).toBe("orca-ide");
  });

  test("nothing on PATH: plain orca (the runner then reports it missing)", () => {
    expect(resolveOrcaExecutable({}, "linux", whichOf())).toBe("orca");
    expect(resolveOrcaExecutable({}, "darwin", whichOf())).toBe("orca");
  });

  test("the default which searches env.PATH (not the process PATH)", () => {
    const dir = tempDir("mogui-orca-path-");
    for (const name of ["orca", "orca-ide"]) {
      const f = join(dir, name);
      writeFileSync(f, "#!/bin/sh\nexit 0\n");
      chmodSync(f, 0o755);
    }
    expect(resolveOrcaExecutable({ PATH: dir }, "linux")).toBe("orca-ide");
    expect(resolveOrcaExecutable({ PATH: dir, ORCA_TERMINAL_HANDLE: "term_1" }, "linux")).toBe("orca");
    const onlyIde = tempDir("mogui-orca-path-");
    writeFileSync(join(onlyIde, "orca-ide"), "#!/bin/sh\n");
    chmodSync(join(onlyIde, "orca-ide"), 0o755);
    expect(resolveOrcaExecutable({ PATH: onlyIde }, "darwin")).toBe("orca-ide");
    expect(resolveOrcaExecutable({ PATH: "" }, "darwin")).toBe("orca");
  });
});
