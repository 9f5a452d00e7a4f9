// scripts/<original-name> shims exec the binary (DECISIONS D1), so paths quoted by onboarding documents keep working.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv } from "../helpers/binary.ts";
import { ROOT } from "../helpers/paths.ts";

test("scripts/worker-reap execs `mogui worker-reap` with its arguments and exit code", async () => {
  const run = async (...args: string[]) => {
    const p = Bun.spawn([join(ROOT, "scripts", "worker-reap"), ...args], { env: e2eEnv(), stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { stdout, stderr, code };
  };
  const help = await run("--help");
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("USAGE\n  mogui worker-reap");
  const bad = await run("--task-id", "t", "--dispatch-id", "d");
  expect(bad.code).toBe(2);
  expect(bad.stderr).toStartWith("mogui: flags --task-id, --dispatch-id cannot be used together");
});
