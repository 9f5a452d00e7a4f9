// The hooks family's ops helpers through the compiled binary: orca-wait against the Orca simulator, the original script names.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

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

describe("shims with the original script names", () => {
  test("scripts/measure and scripts/workstream-render.sh exec the binary", async () => {
    const p = Bun.spawn([join(ROOT, "scripts", "measure"), "echo", "ok"], { env: e2eEnv(), stdout: "pipe" });
    expect(await new Response(p.stdout).text()).toBe("exit=0\nok\n");
    expect(await p.exited).toBe(0);
    const w = Bun.spawn([join(ROOT, "scripts", "workstream-render.sh"), "not-a-date"], { env: e2eEnv(), stderr: "pipe" });
    expect(await w.exited).toBe(2);
  });
});
