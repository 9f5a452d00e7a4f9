/**
 * Every command has an end-to-end case through the compiled binary. The table is keyed by CommandName, so adding a
 * command without a row here is a type error (and the runtime check below catches it for `bun test` too).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { COMMANDS, type CommandName } from "../../commands/index.ts";
import { e2eEnv, runBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/paths.ts";
import { cases as core } from "./cases/core.ts";
import { cases as gate } from "./cases/dispatch-gate.ts";
import { cases as dispatch } from "./cases/dispatch.ts";
import { cases as lifecycle } from "./cases/succession.ts";
import { cases as evidence } from "./cases/evidence.ts";
import { cases as publish } from "./cases/publishing.ts";
import { cases as template } from "./cases/ops-repo.ts";
import { cases as hooks } from "./cases/hooks.ts";
import { cases as workers } from "./cases/workers.ts";
import { cases as fleet } from "./cases/fleet.ts";
import type { Case } from "./cases/types.ts";

// Each family keeps its rows in test/e2e/cases/<family>.ts.
const CASES = { ...core, ...gate, ...dispatch, ...lifecycle, ...evidence, ...publish, ...template, ...hooks, ...workers, ...fleet } as Record<CommandName, Case>;

describe("every command, end to end through dist/mogui", () => {
  test("the table covers exactly the registered commands", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  for (const [name, c] of Object.entries(CASES)) {
    test(`mogui ${name}`, async () => {
      const r = await runBinary(c.argv, { env: c.env?.() ?? e2eEnv(), stdin: c.stdin });
      expect(r.code).toBe(c.code);
      expect(r.stdout).toMatch(c.stdout);
    });
    test(`mogui help ${name}`, async () => {
      // `mogui sim orca --help` is the simulated orca's own help (passthrough); `mogui help <cmd>` is always mogui's.
      const r = await runBinary(["help", ...name.split(" ")]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`USAGE\n  mogui ${name}`);
    });
  }

  test("the demo leaves no temp dir behind and runs from the binary alone (no fixtures on PATH)", async () => {
    const env = e2eEnv();
    env.PATH = env
      .PATH!.split(":")
      .filter((d) => !d.includes("fixtures"))
      .join(":");
    env.TMPDIR = tempDir("demo-tmp-");
    const r = await runBinary(["demo"], { env });
    expect(r.code).toBe(0);
    // The temp dir is gone afterwards, and no path inside it was printed.
    expect(readdirSync(env.TMPDIR)).toEqual([]);
    expect(r.stdout).toStartWith("mogui demo in a temp dir, <demo> below (removed at the end; --keep keeps it)\n");
    expect(r.stdout).not.toContain(env.TMPDIR);
    expect(r.stdout).toContain("<demo>/worktrees/feature-login");
  });

  test("--version and exit-codes from the binary", async () => {
    const v = await runBinary(["--version"]);
    expect(v).toEqual({ code: 0, stdout: expect.stringMatching(/^mogui \d+\.\d+\.\d+ \((?:[0-9a-f]{7}|unknown), [a-z]+-[a-z0-9]+(-musl)?, \d{4}-\d\d-\d\d; template \d+\.\d+\.\d+\)\n$/), stderr: "" });
    const e = await runBinary(["help", "exit-codes"]);
    expect(e.code).toBe(0);
    expect(e.stdout).toContain("mogui worker-reap\n  0  reaped");
  });
});
