// spawn-test through the compiled binary: the Orca simulator and the fake agent CLIs.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const COORDINATOR = "term_11111111-2222-4333-8444-555555555555";

function simEnv(scenario: string, extra: Record<string, string> = {}): Record<string, string> {
  const dir = tempDir("hooks-e2e-ops-");
  return e2eEnv({ MOGUI_HOME: join(dir, "home"), ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: scenario, ORCA_SIM_ROOT: dir, ORCA_TERMINAL_HANDLE: COORDINATOR, ...extra });
}

describe("spawn-test with fake agent CLIs (SPAWN_TEST_DRIVER=process) against the simulator", () => {
  function agentsEnv(extra: Record<string, string>): Record<string, string> {
    const env = simEnv("basic", {
      SPAWN_TEST_DRIVER: "process",
      SPAWN_TEST_BLOCKED: "agy",
      SPAWN_TEST_COORDINATOR_TERMINAL: COORDINATOR,
      SPAWN_TEST_ROUND_TRIP_TIMEOUT_MS: "1500",
      SPAWN_TEST_AGENT_RESPONSE_TIMEOUT_SECONDS: "20",
      TMPDIR: tempDir("hooks-e2e-sandboxes-"),
      ...extra,
    });
    delete env.ORCA_TERMINAL_HANDLE;
    env.PATH = `${join(ROOT, "fixtures", "agents")}:${env.PATH}`;
    return env;
  }

  test("happy-path: claude and codex PASS (A, B, C), agy BLOCKED; the report file", async () => {
    const reports = tempDir("hooks-e2e-reports-");
    const r = await runBinary(["spawn-test", "happy-path", "--report-dir", reports, "--json"], { env: agentsEnv({ SPAWN_TEST_RUNTIMES: "claude codex agy" }) });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.results.map((x: { runtime: string; status: string }) => [x.runtime, x.status])).toEqual([
      ["claude", "PASS"],
      ["codex", "PASS"],
      ["agy", "blocked"],
    ]);
    expect(doc.results[0].assertions.map((a: { id: string; ok: boolean }) => [a.id, a.ok])).toEqual([
      ["A", true],
      ["B", true],
      ["C", true],
    ]);
    const md = readFileSync(doc.report, "utf8");
    expect(md).toContain("| claude | PASS | PASS | pass | pass | pass |");
    expect(md).toContain("| agy | blocked | BLOCKED | - | - | - |");
    expect(md).toContain("Must-pass runtimes (claude, codex): PASS");
  });

  test("a silent agent fails A/B/C and the run exits 1; founding-guard checks D and E", async () => {
    const reports = tempDir("hooks-e2e-reports-");
    const bad = await runBinary(["spawn-test", "--report-dir", reports, "--json"], { env: agentsEnv({ SPAWN_TEST_RUNTIMES: "claude", FAKE_AGENT_MODE: "silent" }) });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).results[0].status).toBe("FAIL: A,B,C");
    const guard = await runBinary(["spawn-test", "founding-guard", "--report-dir", reports, "--json"], { env: agentsEnv({ SPAWN_TEST_RUNTIMES: "codex" }) });
    expect(guard.code).toBe(0);
    const res = JSON.parse(guard.stdout).results[0];
    expect(res.assertions.map((a: { id: string; ok: boolean }) => [a.id, a.ok])).toEqual([
      ["D", true],
      ["E", true],
    ]);
    const silentGuard = await runBinary(["spawn-test", "founding-guard", "--report-dir", reports, "--json"], { env: agentsEnv({ SPAWN_TEST_RUNTIMES: "codex", FAKE_AGENT_MODE: "silent" }) });
    expect(JSON.parse(silentGuard.stdout).results[0].status).toBe("FAIL: E");
  });
});
