// The ops helpers through the compiled binary: the Orca simulator, the fake gh, the fake agents.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../helpers/binary.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

const COORDINATOR = "term_11111111-2222-4333-8444-555555555555";

function simEnv(scenario: string, extra: Record<string, string> = {}): Record<string, string> {
  const dir = tempDir("hooks-e2e-ops-");
  return e2eEnv({ MOGUI_HOME: join(dir, "home"), ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: scenario, ORCA_SIM_ROOT: dir, ORCA_TERMINAL_HANDLE: COORDINATOR, ...extra });
}

describe("orca-wait against the Orca simulator", () => {
  test("drains the backlog (consuming it), then blocks and times out on an empty inbox", async () => {
    const env = simEnv("settled");
    const first = await runBinary(["orca-wait", "--timeout-ms", "300"], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^worker_done\|msg_[0-9a-f]{12}\|term_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee\|.+\n$/);
    const second = await runBinary(["orca-wait", "--timeout-ms", "300"], { env });
    expect(second).toEqual({ code: 0, stdout: "", stderr: "orca-wait: no message within 300 ms\n" });
    const inbox = await runBinary(["hook", "orch-inbox-warn"], { env });
    expect(inbox.stdout).toBe("");
  });

  test("orca not running passes orca's exit code; orca missing is 127", async () => {
    const env = simEnv("settled");
    delete env.ORCA_SIM_STATE;
    const down = await runBinary(["orca-wait", "--once", "--timeout-ms", "100"], { env });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("orca-wait: orca orchestration check failed");
    const missing = await runBinary(["orca-wait", "--once"], { env: { ...env, ORCA_CLI_COMMAND: "/nonexistent/orca" } });
    expect(missing).toEqual({ code: 127, stdout: "", stderr: "orca-wait: /nonexistent/orca: command not found\n" });
  });
});

describe("gh-based checks with the fake gh", () => {
  test("a gh that is not logged in, and no gh at all: exit 2 with a clear message", async () => {
    const unauth = await runBinary(["pr-steward-status", "5", "--repo", "a/b"], { env: e2eEnv() });
    expect(unauth).toEqual({ code: 2, stdout: "", stderr: "pr-steward-status: gh is not authenticated: run 'gh auth login' (or set GH_TOKEN)\n" });
    const env = e2eEnv();
    env.PATH = join(ROOT, "fixtures", "none");
    const none = await runBinary(["conversation-redaction-scan", "--repo", "a/b"], { env });
    expect(none).toEqual({ code: 2, stdout: "", stderr: "conversation-redaction-scan: gh (the GitHub CLI) is not installed or not on PATH\n" });
  });
});

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

describe("shims with the original script names", () => {
  test("scripts/measure and scripts/workstream-render.sh exec the binary", async () => {
    const p = Bun.spawn([join(ROOT, "scripts", "measure"), "echo", "ok"], { env: e2eEnv(), stdout: "pipe" });
    expect(await new Response(p.stdout).text()).toBe("exit=0\nok\n");
    expect(await p.exited).toBe(0);
    const w = Bun.spawn([join(ROOT, "scripts", "workstream-render.sh"), "not-a-date"], { env: e2eEnv(), stderr: "pipe" });
    expect(await w.exited).toBe(2);
  });
});
