/**
 * EXIT CODES sections are complete (issue 13 §5). runBinary (test/helpers/binary.ts) checks EVERY exit code any
 * e2e test observes against the command's own table and fails the observing test otherwise. This file makes sure
 * that check sees at least one usage error from every command (every command can get one, so every table must
 * list 2), and that the check itself can fail.
 */
import { expect, test } from "bun:test";
import { COMMANDS } from "../../commands/index.ts";
import { e2eEnv, runBinary } from "../helpers/binary.ts";
import { unlistedExit } from "../helpers/exit-codes.ts";
import { tempDir } from "../helpers/paths.ts";

test("the check fails for a code a command does not list, and passes for listed ones and `N` rows", async () => {
  expect(await unlistedExit(["worker", "decide", "--job", "j"], 77)).toContain("mogui worker decide exited 77, which its EXIT CODES (0, 2, 3, 5)");
  expect(await unlistedExit(["worker-reap", "--task-id", "t"], 77)).toBeNull(); // "N: orca's own exit code"
  expect(await unlistedExit(["worker", "classify", "--path", "x"], 76)).toContain("mogui worker classify exited 76");
  expect(await unlistedExit(["worker", "classify", "--path", "x"], 4)).toBeNull();
  expect(await unlistedExit(["--debug", "worker", "spawn"], 76)).toBeNull();
  expect(await unlistedExit(["sim", "orca", "anything"], 93)).toBeNull(); // "N: an injected exit code"
  expect(await unlistedExit(["no-such-command"], 2)).toBeNull(); // global: the "(every command)" rows
});

test("every command's usage error is a listed exit 2 (observed through the binary)", async () => {
  const env = e2eEnv({ MOGUI_HOME: tempDir("exit-codes-") });
  // The simulators pass argv through; `measure` runs its argv as the measured command (127: not found, an N row).
  const names = Object.keys(COMMANDS).filter((n) => !n.startsWith("sim ") && n !== "measure");
  const out: string[] = [];
  // A small bound: 2 cores are shared with the rest of the suite.
  for (let i = 0; i < names.length; i += 6) {
    await Promise.all(
      names.slice(i, i + 6).map(async (name) => {
        // runBinary throws if the observed code is not in the command's table.
        const r = await runBinary([...name.split(" "), "--no-such-flag-for-exit-codes"], { env });
        if (r.code !== 2) out.push(`${name}: exit ${r.code}`);
      }),
    );
  }
  expect(out.sort().join("\n")).toBe("");
});
