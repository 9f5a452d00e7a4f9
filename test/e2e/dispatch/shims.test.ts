// scripts/dispatch, scripts/dispatch-collision-check and the pretrust shims exec the binary with their arguments and
// exit codes (D1), so the paths the onboarding documents quote keep working.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

async function shim(name: string, args: string[], env = e2eEnv()) {
  const p = Bun.spawn([join(ROOT, "scripts", name), ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

test("each shim is its command", async () => {
  for (const name of ["dispatch", "dispatch-collision-check", "codex-worker-pretrust", "cursor-worker-pretrust"]) {
    const help = await shim(name, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`USAGE\n  mogui ${name}`);
  }
  const acc = tempDir("shim-acc-");
  expect(await shim("codex-worker-pretrust", ["/tmp/wt", "--accounts-dir", acc])).toEqual({ code: 0, stdout: "Summary: 0 added, 0 updated, 0 already trusted\n", stderr: "" });
  expect((await shim("cursor-worker-pretrust", ["relative"])).code).toBe(2);
  expect(await shim("dispatch-collision-check", [join(ROOT, "nope.md")])).toEqual({ code: 0, stdout: "", stderr: "" });
  const d = await shim("dispatch", ["--contract", join(ROOT, "nope.md"), "--spec", "x"], e2eEnv({ MOGUI_HOME: tempDir() }));
  expect(d.code).toBe(1);
  expect(d.stderr).toContain("✗ contract file missing: ");
});
