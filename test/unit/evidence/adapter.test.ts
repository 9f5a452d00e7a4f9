/** Sync CLI profiles and the doctor (reference §14). */
import { describe, expect, test } from "bun:test";
import { buildProposerArgv, resolveSyncCliProfile, syncCliRuntimes } from "../../../src/evidence/adapter/profile.ts";
import { defaultChecks, doctor, validateCheck } from "../../../src/evidence/adapter/doctor.ts";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { tempDir } from "../../helpers/paths.ts";

describe("sync CLI profiles", () => {
  test("argv per runtime; the prompt is one element; model optional", () => {
    expect(syncCliRuntimes()).toEqual(["claude", "codex", "cursor-agent"]);
    const p = "fix it; rm -rf / $(x)";
    expect(buildProposerArgv("claude", p, null)).toEqual(["claude", "-p", p]);
    expect(buildProposerArgv(" Claude ", p, "m1")).toEqual(["claude", "-p", p, "--model", "m1"]);
    expect(buildProposerArgv("codex", p, "m1")).toEqual(["codex", "exec", "--model", "m1", p]);
    expect(buildProposerArgv("cursor-agent", p, null)).toEqual(["cursor-agent", "-p", "--trust", "--force", p]);
    expect(resolveSyncCliProfile("grok")).toBeUndefined();
    expect(() => buildProposerArgv("codex", "  ", null)).toThrow("proposer prompt is empty");
    expect(() => buildProposerArgv("grok", "x", null)).toThrow("unsupported proposer runtime 'grok'; expected one of claude, codex, cursor-agent");
  });
});

describe("doctor", () => {
  test("default checks in order, orca resolved per D5 and probed with status --json", () => {
    expect(defaultChecks({ ORCA_CLI_COMMAND: "/opt/orca" }).map((c) => [c.name, c.probeCmd])).toEqual([
      ["git", ["git", "--version"]],
      ["node", ["node", "--version"]],
      ["orca", ["/opt/orca", "status", "--json"]],
      ["bd", ["bd", "--version"]],
      ["bun", ["bun", "--version"]],
    ]);
  });

  test("present iff exit 0; detail from stdout, stderr, or the failure kind", async () => {
    const runner = stubRunner([
      [["git", "--version"], { stdout: "git version 2.43.0\n" }],
      [["node", "--version"], { code: 0, stderr: "v20\n" }],
      [["orca", "status", "--json"], { code: 1, stdout: "", stderr: "not running\n" }],
      [["bd", "--version"], { missing: true }],
      [["bun", "--version"], { timedOut: true }],
    ]);
    const r = await doctor({ runner, env: { ORCA_CLI_COMMAND: "orca" }, cwd: "/" });
    expect(r.present).toEqual(["git", "node"]);
    expect(r.missing).toEqual(["orca", "bd", "bun"]);
    expect(r.results.map((x) => x.detail)).toEqual(["git version 2.43.0", "v20", "not running", "executable not found: bd", "timed out after 10000 ms"]);
    expect(runner.calls.every((c) => c.opts?.timeoutMs === 10000)).toBe(true);
  });

  test("path checks expand ~ and test existence; a check needs exactly one of probe_cmd and path", async () => {
    const home = tempDir();
    const r = await doctor({ runner: stubRunner([]), env: { HOME: home }, cwd: "/" }, [
      { name: "home", path: "~" },
      { name: "nope", path: "~/nope" },
    ]);
    expect(r.results.map((x) => [x.name, x.present, x.detail, x.path])).toEqual([
      ["home", true, "present", "~"],
      ["nope", false, "missing", "~/nope"],
    ]);
    expect(() => validateCheck({ name: "x" })).toThrow("exactly one of probe_cmd or path");
    expect(() => validateCheck({ name: "x", path: "/", probeCmd: ["a"] })).toThrow();
  });
});
