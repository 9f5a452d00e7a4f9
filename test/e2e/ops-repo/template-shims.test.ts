// scripts/<original-name> shims of the template family exec the binary with their subcommand (DECISIONS D1).
import { expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT } from "../../helpers/paths.ts";

const SHIMS: [string, string][] = [
  ["generate-manifest", "generate-manifest"],
  ["template-check", "template check"],
  ["template-apply", "template apply"],
  ["onboarding-rehearsal", "onboarding-rehearsal"],
  ["harness-selfcheck", "harness-selfcheck"],
];

for (const [script, cmd] of SHIMS) {
  test(`scripts/${script} execs \`mogui ${cmd}\``, async () => {
    const p = Bun.spawn([join(ROOT, "scripts", script), "--help"], { env: e2eEnv(), stdout: "pipe", stderr: "pipe" });
    const [stdout, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect(code).toBe(0);
    expect(stdout).toContain(`USAGE\n  mogui ${cmd}`);
  });
}

test("scripts/generate-manifest passes arguments and the exit code through", async () => {
  const p = Bun.spawn([join(ROOT, "scripts", "generate-manifest"), "--check", "--skeleton", join(ROOT, "master-ops")], { env: e2eEnv(), stdout: "pipe", stderr: "pipe" });
  expect(await p.exited).toBe(0);
  const bad = Bun.spawn([join(ROOT, "scripts", "generate-manifest"), "--skeleton", "/nonexistent"], { env: e2eEnv(), stdout: "pipe", stderr: "pipe" });
  expect(await bad.exited).toBe(2);
});
