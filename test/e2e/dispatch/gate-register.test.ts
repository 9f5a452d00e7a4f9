/** check -> register through the compiled binary against the Orca simulator, each probe failure, and the shim. */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const TASK = "task_1a2b3c4d5e6f";
const DISPATCH = "ctx_9f8e7d6c5b4a";

function setup(extra: Record<string, string> = {}) {
  const home = tempDir("gate-e2e-");
  const contract = join(home, "c.md");
  writeFileSync(contract, "Implement the feature on branch feature.\n");
  const env = e2eEnv({ MOGUI_HOME: home, ORCA_SIM_STATE: join(home, "orca.json"), ORCA_SIM_SCENARIO: "basic", ...extra });
  return { home, contract, env, ledger: join(home, "dispatch-ledger.jsonl") };
}

const rows = (p: string) =>
  readFileSync(p, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));

async function check(s: ReturnType<typeof setup>) {
  const r = await runBinary(["dispatch-gate", "--ledger", s.ledger, "check", "--runtime", "claude", "--model", "claude-sonnet-5", "--contract", s.contract, "--agents", "1", "--completion-channel", "orchestration"], { env: s.env });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).contract_sha as string;
}

function register(s: ReturnType<typeof setup>, sha: string) {
  return runBinary(
    [
      "dispatch-gate",
      "--ledger",
      s.ledger,
      "register",
      "--job-id",
      DISPATCH,
      "--contract-sha",
      sha,
      "--runtime",
      "claude",
      "--orchestration-task",
      TASK,
      "--declared-model",
      "claude-sonnet-5",
      "--probe-cmd",
      `orca orchestration dispatch-show --task ${TASK} --json 2>/dev/null | grep -o ${DISPATCH} | head -1`,
      "--model-probe-cmd",
      "echo claude-sonnet-5",
    ],
    { env: s.env },
  );
}

describe("dispatch-gate end to end with the Orca simulator", () => {
  test("check -> register: ALLOW, verified model, lifecycle row the reaper reads", async () => {
    const s = setup();
    const sha = await check(s);
    const r = await register(s, sha);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`{"allow":true,"contract_sha":"${sha}","cost_proxy":41,"reason":"OK","warnings":[]}\n`);
    const [c, reg, life] = rows(s.ledger);
    expect(c.attempt).toBe(1);
    expect(reg).toMatchObject({ attempt: 2, job_id: DISPATCH, model_verified: true, orchestration_task: TASK });
    expect(life).toMatchObject({ event: "dispatch_submitted", dispatch_id: DISPATCH, task_id: TASK, status: "dispatched" });
    const unreaped = await runBinary(["worker-reap", "--unreaped", "--json", "--ledger", s.ledger], { env: s.env });
    expect(JSON.parse(unreaped.stdout).count).toBe(0);
    const report = await runBinary(["dispatch-gate", "report", "--ledger", s.ledger], { env: s.env });
    expect(report.stdout).toContain("Registrations:\n  claude: registrations=1 model_verified=1\n");
  });

  const faults: [string, Record<string, string>, string | null][] = [
    ["malformed reply", { ORCA_SIM_FAULT: "orchestration dispatch-show=malformed" }, "probe_unparseable"],
    ["exit code", { ORCA_SIM_FAULT: "orchestration dispatch-show=exit:3" }, "task_not_found"],
    ["error envelope", { ORCA_SIM_FAULT: "orchestration dispatch-show=error_envelope" }, "task_not_found"],
    ["orca missing", { ORCA_CLI_COMMAND: "/nonexistent/orca" }, "orca_missing"],
    ["Orca not running", { ORCA_SIM_STATE: "" }, "task_not_found"],
    ["legacy flat shape", { ORCA_SIM_FAULT: "orchestration dispatch-show=legacy" }, null],
  ];
  for (const [name, extra, failure] of faults) {
    test(`orchestration probe: ${name} -> ${failure ?? "accepted"}`, async () => {
      const s = setup(extra);
      const sha = await check(s);
      const r = await register(s, sha);
      if (failure === null) {
        expect(r.code).toBe(0);
        expect(rows(s.ledger).at(-1)).toMatchObject({ event: "dispatch_submitted", status: "dispatched" });
        return;
      }
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`dispatch-gate: ORCHESTRATION_UNVERIFIED: probe_failure=${failure}\n`);
      expect(rows(s.ledger).at(-1)).toEqual({ decision: "DENY", job_id: DISPATCH, orchestration_task: TASK, probe_failure: failure, reason: "ORCHESTRATION_UNVERIFIED", ts: expect.any(Number) });
    });
  }

  test("scripts/dispatch-gate shim, --ledger before the subcommand", async () => {
    const s = setup();
    await check(s);
    const p = Bun.spawn(["sh", join(ROOT, "scripts", "dispatch-gate"), "--ledger", s.ledger, "report", "--json"], { env: { ...s.env, MOGUI_BIN: binaryPath() }, stdout: "pipe" });
    const out = await new Response(p.stdout).text();
    expect(await p.exited).toBe(0);
    expect(JSON.parse(out).models).toEqual({ "claude-sonnet-5": { computed_legacy_entries: 0, dispatches: 1, est_cost_proxy: 41 } });
  });
});
