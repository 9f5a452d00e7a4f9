/** The simulator through the compiled binary: fixtures/bin/orca (+ orca-dev / orca-ide links) first on PATH. */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processIo, type Ctx } from "../../../src/lib/context.ts";
import { realRunner } from "../../../src/lib/runner.ts";
import { OrcaClient, OrcaError } from "../../../src/lib/orca/client.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { FIXTURES_BIN } from "../../helpers/paths.ts";
import { tempDir } from "../../helpers/paths.ts";

const COORD = "term_11111111-2222-4333-8444-555555555555";
const WORKER = "term_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const TASK = "task_1a2b3c4d5e6f";

function simEnv(extra: Record<string, string> = {}): { dir: string; env: Record<string, string> } {
  const dir = tempDir("sim-orca-e2e-");
  const env = e2eEnv({ ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: "basic", ORCA_SIM_CALL_LOG: join(dir, "calls.jsonl"), ...extra });
  return { dir, env };
}

async function orca(exe: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = Bun.which(exe, { PATH: env.PATH });
  if (bin !== join(FIXTURES_BIN, exe)) throw new Error(`${exe} resolved to ${bin}, not the fixture`);
  const p = Bun.spawn([bin, ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

async function result(args: string[], env: Record<string, string>): Promise<any> {
  const r = await orca("orca", [...args, "--json"], env);
  if (r.code !== 0) throw new Error(`orca ${args.join(" ")}: exit ${r.code}\n${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout).result;
}

describe("orca simulator (compiled binary)", () => {
  test("status: running from a scenario, not running without ORCA_SIM_STATE", async () => {
    const { env } = simEnv();
    const r = await orca("orca", ["status", "--json"], env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect([doc.id, doc.result.runtime.state, doc._meta.runtimeId]).toEqual(["local-status", "ready", "7d3f8a52-1c4e-4b9a-9f0e-2a6b5c8d1e34"]);
    const { ORCA_SIM_STATE: _gone, ...bare } = env;
    const down = await orca("orca", ["status", "--json"], bare);
    expect([down.code, JSON.parse(down.stdout).result.runtime.state]).toEqual([0, "not_running"]);
    const list = await orca("orca", ["terminal", "list", "--json"], bare);
    expect([list.code, JSON.parse(list.stdout).error.code]).toEqual([1, "runtime_unavailable"]);
  });

  test("full run/task/dispatch/worker_done round trip", async () => {
    const { env } = simEnv();
    await result(["orchestration", "send", "--from", WORKER, "--type", "worker_done", "--subject", "done", "--task-id", TASK, "--dispatch-id", "ctx_9f8e7d6c5b4a", "--outcome", "succeeded"], env);
    const run = (await result(["orchestration", "run-create", "--objective", "second", "--from", COORD], env)).run;
    const task = (await result(["orchestration", "task-create", "--spec", "more", "--from", COORD], env)).task;
    const d = (await result(["orchestration", "dispatch", "--task", task.id, "--to", WORKER, "--from", COORD], env)).dispatch;
    expect([d.run_id, d.status, d.assignee_handle]).toEqual([run.id, "dispatched", WORKER]);
    const done = await result(["orchestration", "send", "--type", "worker_done", "--subject", "ok", "--task-id", task.id, "--dispatch-id", d.id, "--outcome", "succeeded"], { ...env, ORCA_TERMINAL_HANDLE: WORKER });
    expect(done.lifecycle.action).toBe("completed");
    expect((await result(["orchestration", "dispatch-show", "--task", task.id], env)).dispatch.status).toBe("completed");
    const inbox = await result(["orchestration", "check", "--terminal", COORD, "--all", "--types", "worker_done"], env);
    expect(inbox.count).toBe(2);
  });

  test("a hang is killed by the caller's timeout (and logged with exit:null first)", async () => {
    const { dir, env } = simEnv({ ORCA_SIM_FAULT: "terminal close=hang" });
    const started = Date.now();
    const r = await realRunner(["orca", "terminal", "close", "--terminal", WORKER, "--json"], { env, timeoutMs: 700 });
    expect([r.timedOut, r.code]).toEqual([true, null]);
    expect(Date.now() - started).toBeLessThan(10_000);
    const log = readFileSync(join(dir, "calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log).toEqual([{ argv: ["terminal", "close", "--terminal", WORKER, "--json"], exit: null, ts: expect.any(Number) }]);
  });

  test("late: the command acts (state written, call logged exit:null), then answers after the caller's timeout", async () => {
    const { dir, env } = simEnv({ ORCA_SIM_FAULT: "terminal create=late" });
    const r = await realRunner(["orca", "terminal", "create", "--worktree=branch:feature", "--title=late one", "--json"], { env, timeoutMs: 1500 });
    expect([r.timedOut, r.stdout]).toEqual([true, ""]);
    const { ORCA_SIM_FAULT: _f, ...clean } = env;
    const titles = (await result(["terminal", "list"], clean)).terminals.map((t: any) => t.title);
    expect(titles).toContain("late one");
    const log = readFileSync(join(dir, "calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log[0]).toMatchObject({ exit: null });
  });

  test("orca-dev and orca-ide links run the same simulator and state", async () => {
    const { env } = simEnv();
    expect((await orca("orca-dev", ["--version"], env)).stdout).toBe("1.4.164\n");
    const r = await orca("orca-ide", ["orchestration", "run-current", "--from", COORD], env);
    expect([r.code, r.stdout]).toEqual([0, "run_0a1b2c3d4e5f Ship the feature branch\n"]);
  });

  test("concurrent calls do not lose updates", async () => {
    const { env } = simEnv();
    await result(["status"], env);
    const made = await Promise.all(Array.from({ length: 8 }, (_, i) => result(["terminal", "create", "--worktree", "branch:feature", "--title", `t${i}`], env)));
    const handles = (await result(["terminal", "list"], env)).terminals.map((t: any) => t.handle);
    for (const m of made) expect(handles).toContain(m.terminal.handle);
    expect(handles.length).toBe(10);
  });

  test("mogui's own Orca client reads the simulator, in both dispatch shapes", async () => {
    const { env } = simEnv();
    const ctx = (e: Record<string, string>): Ctx => ({ io: processIo(), env: e, cwd: process.cwd(), runner: realRunner, now: Date.now, debug: false, self: [] });
    const real = await new OrcaClient(ctx({ ...env, ORCA_CLI_COMMAND: "orca" })).dispatchShow(TASK);
    expect(real).toMatchObject({ id: "ctx_9f8e7d6c5b4a", status: "dispatched", terminal: WORKER, shape: "envelope" });
    const legacy = await new OrcaClient(ctx({ ...env, ORCA_CLI_COMMAND: "orca", ORCA_SIM_FAULT: "orchestration dispatch-show=legacy" })).dispatchShow(TASK);
    expect(legacy).toMatchObject({ id: "ctx_9f8e7d6c5b4a", status: "DISPATCHED", terminal: WORKER, shape: "legacy" });
    const err = await new OrcaClient(ctx({ ...env, ORCA_CLI_COMMAND: "orca", ORCA_SIM_FAULT: "terminal close=survive_close" })).terminalClose(WORKER).catch((e) => e);
    expect(err).toBeInstanceOf(OrcaError);
    expect((err as OrcaError).orcaCode).toBe("terminal_stop_live");
  });
  test("the client returns the exit-1 success envelopes of terminal wait and terminal send as results", async () => {
    const { dir, env } = simEnv();
    const st = JSON.parse(readFileSync(join(import.meta.dir, "../../../fixtures/scenarios/basic.json"), "utf8"));
    st.terminals[1].agentStatus = "agent-approval-prompt";
    st.terminals[0].agentStatusCycle = ["idle", "working"];
    writeFileSync(join(dir, "scenario.json"), JSON.stringify(st));
    const e = { ...env, ORCA_SIM_SCENARIO: join(dir, "scenario.json"), ORCA_CLI_COMMAND: "orca" };
    const ctx: Ctx = { io: processIo(), env: e, cwd: process.cwd(), runner: realRunner, now: Date.now, debug: false, self: [] };
    const client = new OrcaClient(ctx);
    expect(await client.terminalWait(WORKER, "tui-idle", 200)).toMatchObject({ satisfied: false, status: "running", blockedReason: "agent-approval-prompt" });
    expect(await client.terminalWait(COORD, "tui-idle", 200)).toMatchObject({ satisfied: true });
    expect(await client.terminalWait(COORD, "tui-idle", 200).catch((x) => x)).toMatchObject({ failure: "exit", orcaCode: "timeout" });
    const refused = new OrcaClient({ ...ctx, env: { ...e, ORCA_SIM_FAULT: "terminal send=not_accepted" } });
    expect(await refused.terminalSend(WORKER, { text: "hi", enter: true })).toEqual({ handle: WORKER, accepted: false, bytesWritten: 0, refusedReason: "no-agent" });
  });
});
