// The publish family's shims exec the binary with their original script names (DECISIONS D1).
import { expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT } from "../../helpers/paths.ts";

const SHIMS: Array<[string, string]> = [
  ["model-identity-probe", "model-identity-probe"],
  ["model-drift-audit", "model-drift-audit"],
  ["redaction-scan.sh", "redaction-scan"],
  ["redaction-inventory", "redaction-inventory"],
  ["onboarding-preflight.sh", "preflight"],
  ["next-version", "next-version"],
];

for (const [script, command] of SHIMS) {
  test(`scripts/${script} execs mogui ${command}`, () => {
    const p = Bun.spawnSync([join(ROOT, "scripts", script), "--help"], { env: e2eEnv(), stdout: "pipe", stderr: "pipe" });
    expect(p.exitCode).toBe(0);
    expect(p.stdout.toString()).toContain(`USAGE\n  mogui ${command}`);
    const bad = Bun.spawnSync([join(ROOT, "scripts", script), "--no-such-flag"], { env: e2eEnv(), stdout: "pipe", stderr: "pipe" });
    expect(bad.exitCode).toBe(2);
  });
}

test("scripts/model-identity-probe passes arguments and the one-line result through", () => {
  const p = Bun.spawnSync([join(ROOT, "scripts", "model-identity-probe"), "--transcript", join(ROOT, "fixtures", "transcripts", "codex-clean.jsonl"), "--expect", "gpt-5-codex"], { env: e2eEnv(), stdout: "pipe" });
  expect(p.exitCode).toBe(0);
  expect(p.stdout.toString()).toBe("MODEL-PROBE OK gpt-5-codex 5/5\n");
});
