// scripts/<original-name> shims of the evidence family exec the binary (DECISIONS D1) with their arguments and exit code.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT } from "../../helpers/paths.ts";

async function run(script: string, ...args: string[]) {
  const p = Bun.spawn([join(ROOT, "scripts", script), ...args], { env: e2eEnv(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

test("acceptance-loop, l1-digest, adapter and workspace-descriptor-check shims", async () => {
  expect((await run("acceptance-loop", "validate", "--help")).stdout).toContain("USAGE\n  mogui acceptance-loop validate --config <path>");
  expect((await run("acceptance-loop", "inspect", "--run-dir", "/nonexistent")).code).toBe(2);
  expect((await run("l1-digest", "tick", "--help")).stdout).toContain("USAGE\n  mogui l1-digest tick --config <file>");
  const doc = await run("adapter", "doctor", "--json");
  expect(doc.code).toBe(0);
  expect(JSON.parse(doc.stdout).results.map((r: { name: string }) => r.name)).toEqual(["git", "node", "orca", "bd", "bun"]);
  const wd = await run("workspace-descriptor-check", "--path", "example-ops", "--action", "force-push", "--config", join(ROOT, "config", "workspace-descriptor.example.json"));
  expect(wd).toEqual({ code: 1, stdout: "PROHIBITED: action=force-push repo=example-ops path=example-ops\n", stderr: "" });
});
