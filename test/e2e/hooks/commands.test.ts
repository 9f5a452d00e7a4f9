// The hooks family's end-to-end rows (test/e2e/cases/hooks.ts) through the compiled binary, on their own, so the
// family can be checked while other families are mid-edit; commands.test.ts runs the same rows with everyone's.
import { describe, expect, test } from "bun:test";
import { commands } from "../../../commands/hooks/index.ts";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { cases } from "../cases/hooks.ts";

describe("hooks family, end to end through dist/mogui", () => {
  test("a case for every command of the family", () => {
    // cases/hooks.ts also still carries the rows of commands that moved to other families (publishing, dispatch,
    // developer); commands.test.ts checks that all case files together cover exactly the registered commands.
    expect(Object.keys(commands).filter((name) => !(name in cases))).toEqual([]);
  });
  for (const [name, c] of Object.entries(cases)) {
    test(`mogui ${name}`, async () => {
      const r = await runBinary(c.argv, { env: c.env?.() ?? e2eEnv(), stdin: c.stdin });
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: c.code, stdout: expect.stringMatching(c.stdout), stderr: expect.any(String) });
    });
    test(`mogui help ${name}`, async () => {
      const r = await runBinary(["help", ...name.split(" ")]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`USAGE\n  mogui ${name}`);
    });
  }
});
