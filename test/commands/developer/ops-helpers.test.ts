// The developer family's ops helpers in process (test-tool-naming, spawn-test): every documented exit code, with a stub runner for orca.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { scratchRunner } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("hooks-ops-");
});
const { env, run } = scratchRunner(() => dir);

describe("test-tool-naming", () => {
  test("findings exit 1 with path:line: name; clean exit 0; self-test", async () => {
    mkdirSync(join(dir, "docs", "a"), { recursive: true });
    mkdirSync(join(dir, "skills"), { recursive: true });
    writeFileSync(join(dir, "docs", "a", "x.md"), "fine\nuse ctx.search here and ctx.sqlite there\n");
    writeFileSync(join(dir, "skills", "s.md"), "ctx.status\n");
    const r = await run(["test-tool-naming"]);
    expect(r).toMatchObject({ code: 1, stdout: "docs/a/x.md:2: ctx.search\nskills/s.md:1: ctx.status\n" });
    writeFileSync(join(dir, "docs", "a", "x.md"), "fine\n");
    writeFileSync(join(dir, "skills", "s.md"), "fine\n");
    expect((await run(["test-tool-naming", "--root", dir])).code).toBe(0);
    expect((await run(["test-tool-naming", "--self-test"])).code).toBe(0);
  });
});

describe("spawn-test (command level)", () => {
  test("bad scenario or driver is a usage error; orca missing is exit 2", async () => {
    expect((await run(["spawn-test", "nope"])).code).toBe(2);
    expect((await run(["spawn-test"], { env: env({ SPAWN_TEST_DRIVER: "x" }) })).code).toBe(2);
    expect((await run(["spawn-test"], { env: env({ SPAWN_TEST_ROUND_TRIP_TIMEOUT_MS: "soon" }) })).code).toBe(2);
    const r = await run(["spawn-test"], { env: env({ ORCA_CLI_COMMAND: "orca" }), runner: stubRunner([[["orca", "status", "--json"], { missing: true }]]) });
    expect(r).toEqual({ code: 2, stdout: "", stderr: "spawn-test: orca: command not found\n" });
  });
});
