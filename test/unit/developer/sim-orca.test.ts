/** `mogui sim orca` in-process: exact exit codes, envelopes and row keys of the real Orca CLI (docs/orca-cli.md). */
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { addWorktree, makeRepo } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";

const COORD = "term_11111111-2222-4333-8444-555555555555";
const WORKER = "term_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const TASK = "task_1a2b3c4d5e6f";
const CTX = "ctx_9f8e7d6c5b4a";
const FOLDER = "folder:9b1e4c7d-2a5f-4e8b-b3c6-0d9e8f7a6b5c";
const DISPATCH_KEYS = [
  "id",
  "run_id",
  "task_id",
  "contract_version",
  "launch_token_hash",
  "assignee_handle",
  "assignee_pane_key",
  "capability_hash",
  "process_incarnation",
  "capability_revoked_at",
  "status",
  "failure_count",
  "last_failure",
  "dispatched_at",
  "completed_at",
  "created_at",
  "last_heartbeat_at",
];
const TASK_KEYS = ["id", "run_id", "parent_id", "created_by_terminal_handle", "created_by_pane_key", "created_by_process_incarnation", "created_by_run_generation", "task_title", "display_name", "spec", "status", "deps", "result", "created_at", "completed_at"];

let dir: string;
let baseEnv: Record<string, string>;
beforeEach(() => {
  dir = tempDir("sim-orca-");
  baseEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: "basic", ORCA_SIM_CALL_LOG: join(dir, "calls.jsonl") };
});

const sim = (args: string[], env: Record<string, string | undefined> = {}) => runMain(["sim", "orca", ...args], { env: { ...baseEnv, ...env }, cwd: dir });
async function ok(args: string[], env: Record<string, string | undefined> = {}): Promise<any> {
  const r = await sim([...args, "--json"], env);
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stdout}${r.stderr}`);
  const doc = JSON.parse(r.stdout);
  expect(Object.keys(doc)).toEqual(["id", "ok", "result", "_meta"]);
  return doc.result;
}
async function fail(args: string[], env: Record<string, string | undefined> = {}): Promise<any> {
  const r = await sim([...args, "--json"], env);
  expect(r.code).toBe(1);
  const doc = JSON.parse(r.stdout);
  expect(doc.ok).toBe(false);
  return doc;
}

describe("not running", () => {
  test("status --json exits 0 with the not-running envelope; others are runtime_unavailable", async () => {
    const r = await sim(["status", "--json"], { ORCA_SIM_STATE: undefined });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: "local-status", ok: true, result: { app: { running: false, pid: null }, runtime: { state: "not_running", reachable: false, runtimeId: null }, graph: { state: "not_running" } }, _meta: { runtimeId: "none" } });
    expect((await sim(["status"], { ORCA_SIM_STATE: undefined })).code).toBe(1);
    const e = await fail(["terminal", "list"], { ORCA_SIM_STATE: undefined });
    expect(e).toMatchObject({ id: "local", error: { code: "runtime_unavailable" }, _meta: { runtimeId: null } });
    const text = await sim(["terminal", "list"], { ORCA_SIM_STATE: undefined });
    expect(text.stderr).toContain("Orca is not running. Run 'orca open' first.");
  });
});

describe("orchestration round trip", () => {
  test("run -> task -> dispatch -> worker_done -> dispatch-show completed", async () => {
    const run = (await ok(["orchestration", "run-create", "--objective", "Ship it", "--from", COORD])).run;
    expect(run.id).toMatch(/^run_[0-9a-f]{12}$/);
    expect(Object.keys(run)).toEqual(["id", "objective", "coordinator_handle", "consumer_generation", "legacy", "created_at", "updated_at"]);
    const term = (await ok(["terminal", "create", "--worktree", "branch:feature", "--title", "w2", "--command", "claude"])).terminal;
    expect(term.handle).toMatch(/^term_[0-9a-f-]{36}$/);
    expect(term.paneKey.startsWith(`${term.tabId}:`)).toBe(true);
    const task = (await ok(["orchestration", "task-create", "--spec", "do it", "--task-title", "T", "--from", COORD])).task;
    expect(Object.keys(task)).toEqual(TASK_KEYS);
    expect([task.status, task.deps, task.run_id]).toEqual(["ready", "[]", run.id]);
    const d = (await ok(["orchestration", "dispatch", "--task", task.id, "--to", term.handle, "--from", COORD])).dispatch;
    expect(Object.keys(d)).toEqual(DISPATCH_KEYS);
    expect(d.id).toMatch(/^ctx_[0-9a-f]{12}$/);
    expect(d.process_incarnation).toBe(`${term.worktreeId}@@1`);
    expect(d.dispatched_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const sent = await ok(["orchestration", "send", "--from", term.handle, "--type", "worker_done", "--subject", "done", "--task-id", task.id, "--dispatch-id", d.id, "--outcome", "succeeded"]);
    expect(sent.lifecycle).toMatchObject({ action: "completed" });
    expect(sent.message.to_handle).toBe(COORD);
    const shown = (await ok(["orchestration", "dispatch-show", "--task", task.id])).dispatch;
    expect([shown.id, shown.status, shown.completed_at === null]).toEqual([d.id, "completed", false]);
    const rows = (await ok(["orchestration", "task-list", "--from", COORD])).tasks;
    expect(rows[0]).toMatchObject({ id: task.id, status: "completed", assignee_handle: term.handle, dispatch_id: d.id });
  });

  test("worker_done --outcome failed fails both; refusals and rejection codes", async () => {
    expect((await fail(["orchestration", "send", "--from", WORKER, "--subject", "x", "--outcome", "failed"])).error.code).toBe("invalid_argument");
    expect((await fail(["orchestration", "send", "--from", WORKER, "--type", "worker_done", "--subject", "x"])).error.code).toBe("invalid_argument");
    const wd = ["orchestration", "send", "--from", WORKER, "--type", "worker_done", "--subject", "x", "--outcome", "failed"];
    expect((await fail([...wd, "--task-id", "task_000000000000", "--dispatch-id", CTX])).error.code).toBe("unknown_task");
    expect((await fail([...wd, "--task-id", TASK, "--dispatch-id", "ctx_000000000000"])).error.code).toBe("unknown_dispatch");
    expect((await fail(["orchestration", "send", "--subject", "x"])).error).toMatchObject({ code: "no_active_sender_terminal" });
    expect((await ok([...wd, "--task-id", TASK, "--dispatch-id", CTX])).lifecycle.action).toBe("failed");
    expect((await ok(["orchestration", "dispatch-show", "--task", TASK])).dispatch).toMatchObject({ status: "failed", failure_count: 1 });
    expect((await ok(["orchestration", "task-list", "--status", "failed"])).tasks.map((t: any) => t.id)).toEqual([TASK]);
    const busy = await fail(["orchestration", "dispatch", "--task", TASK, "--to", WORKER, "--from", COORD]);
    expect(busy.error).toMatchObject({ code: "task_not_startable", data: { taskId: TASK, status: "failed" } });
    expect((await fail(["orchestration", "task-create", "--spec", "x", "--from", WORKER])).error).toMatchObject({ code: "run_required", data: { effectsApplied: false, nextCommandArgs: ["skills", "get", "orchestration", "--full"] } });
  });

  test("dispatch-show takes only --task; unknown task is {dispatch:null}", async () => {
    for (const flag of ["--dispatch", "--id"]) {
      const e = await fail(["orchestration", "dispatch-show", flag, CTX]);
      expect(e).toEqual({
        id: "local",
        ok: false,
        error: { code: "invalid_argument", message: `Unknown flag ${flag} for command: orchestration dispatch-show`, data: expect.objectContaining({ validFlags: ["environment", "from", "help", "json", "pairing-code", "preamble", "task"] }) },
        _meta: { runtimeId: null },
      });
    }
    expect(await ok(["orchestration", "dispatch-show", "--task", "task_ffffffffffff"])).toEqual({ dispatch: null });
  });

  test("check: one mode only, timeout is count 0 exit 0, delivery replays until ack", async () => {
    expect((await fail(["orchestration", "check", "--terminal", COORD, "--unread", "--all"])).error.code).toBe("invalid_argument");
    const t = await ok(["orchestration", "check", "--terminal", COORD, "--wait", "--timeout-ms", "100"]);
    expect([t.count, t.timedOut]).toEqual([0, true]);
    await ok(["orchestration", "send", "--from", WORKER, "--subject", "hi", "--to", COORD]);
    const a = await ok(["orchestration", "check", "--terminal", COORD]);
    const b = await ok(["orchestration", "check", "--terminal", COORD]);
    expect([a.count, a.replayed, b.replayed, b.deliveryId]).toEqual([1, false, true, a.deliveryId]);
    expect((await ok(["orchestration", "check", "--terminal", COORD, "--ack", a.deliveryId])).count).toBe(0);
  });
});

describe("faults", () => {
  test("exit, malformed, error_envelope from ORCA_SIM_FAULT", async () => {
    const show = ["orchestration", "dispatch-show", "--task", TASK, "--json"];
    const ex = await sim(show, { ORCA_SIM_FAULT: "orchestration dispatch-show=exit:7" });
    expect([ex.code, ex.stdout, ex.stderr]).toEqual([7, "", "orca: injected failure\n"]);
    const bad = await sim(show, { ORCA_SIM_FAULT: "orchestration dispatch-show=malformed" });
    expect(bad.code).toBe(0);
    expect(() => JSON.parse(bad.stdout)).toThrow();
    const env = await sim(show, { ORCA_SIM_FAULT: "terminal close=hang,orchestration dispatch-show=error_envelope" });
    expect(env.code).toBe(1);
    expect(JSON.parse(env.stdout)).toMatchObject({ ok: false, error: { code: "runtime_error", message: "injected failure" } });
    expect((await sim(show, { ORCA_SIM_FAULT: "orchestration dispatch-show=explode" })).code).toBe(1);
  });

  test("hang logs exit:null before sleeping", async () => {
    const r = await sim(["terminal", "close", "--terminal", WORKER, "--json"], { ORCA_SIM_FAULT: "terminal close=hang", ORCA_SIM_HANG_MS: "30" });
    expect(r.code).toBe(1);
    const log = readFileSync(join(dir, "calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log).toEqual([{ argv: ["terminal", "close", "--terminal", WORKER, "--json"], exit: null, ts: expect.any(Number) }]);
  });

  test("legacy prints the flat shape (and accepts --dispatch); other commands print the bare result", async () => {
    const flat = { dispatch_id: CTX, task_id: TASK, terminal_id: WORKER, status: "DISPATCHED", worktree_path: join(dir, "wt-feature") };
    for (const sel of [
      ["--task", TASK],
      ["--dispatch", CTX],
    ]) {
      const r = await sim(["orchestration", "dispatch-show", ...sel, "--json"], { ORCA_SIM_FAULT: "orchestration dispatch-show=legacy" });
      expect([r.code, JSON.parse(r.stdout)]).toEqual([0, flat]);
    }
    const r = await sim(["orchestration", "task-list", "--json"], { ORCA_SIM_FAULT: "orchestration task-list=legacy" });
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(["tasks", "count"]);
  });

  test("survive_close keeps the terminal; state faults count down `times`", async () => {
    writeFileSync(join(dir, "sc.json"), JSON.stringify({ ...JSON.parse(readFileSync(join(import.meta.dir, "../../../fixtures/scenarios/basic.json"), "utf8")), faults: [{ command: "terminal close", mode: "survive_close", times: 1 }] }));
    const e = await fail(["terminal", "close", "--terminal", WORKER], { ORCA_SIM_SCENARIO: join(dir, "sc.json") });
    expect(e.error).toMatchObject({ code: "terminal_stop_live", data: { close: { handle: WORKER, ptyKilled: false, ptyStopVerdict: "live" } } });
    expect((await ok(["terminal", "list"])).terminals.map((t: any) => t.handle)).toContain(WORKER);
    const closed = await ok(["terminal", "close", "--terminal", WORKER]);
    expect(closed).toEqual({ close: { handle: WORKER, tabId: "7b1e2d3c-0000-4000-8000-00000000beef", ptyKilled: true } });
    const gone = await fail(["terminal", "close", "--terminal", WORKER]);
    expect([gone.error.code, gone.id === "local", gone._meta.runtimeId]).toEqual(["terminal_not_found", false, "7d3f8a52-1c4e-4b9a-9f0e-2a6b5c8d1e34"]);
  });
});

describe("argv and selectors", () => {
  test("unknown command / flag envelopes with suggestions; terminal close rules", async () => {
    const c = await fail(["orchestration", "dispatch-shw"]);
    expect(c.error).toEqual({ code: "invalid_argument", message: "Unknown command: orchestration dispatch-shw", data: { suggestions: ["orchestration dispatch-show"], nextSteps: ["Did you mean: orca orchestration dispatch-show"] } });
    const f = await fail(["orchestration", "dispatch-show", "--tsk", TASK]);
    expect(f.error.data.suggestions[0]).toBe("task");
    expect((await fail(["terminal", "close", WORKER])).error.message).toBe(`Unknown command: terminal close ${WORKER}`);
    expect((await fail(["terminal", "close", "--worktree", "branch:feature"])).error.code).toBe("invalid_argument");
    const text = await sim(["orchestration", "dispatch-show", "--bogus"]);
    expect(text.stderr).toContain("Next step: Valid flags: --environment, --from");
  });

  test("worktree selectors resolve by id/path/name/branch; a miss is enriched", async () => {
    const wts = (await ok(["worktree", "list"])).worktrees;
    const feature = wts.find((w: any) => w.branch === "refs/heads/feature");
    expect(feature.id).toBe(`${feature.repoId}::${join(dir, "wt-feature")}`);
    for (const sel of [`id:${feature.id}`, `path:${join(dir, "wt-feature")}`, "name:wt-feature", "branch:feature", "feature"]) {
      expect((await ok(["terminal", "create", "--worktree", sel])).terminal.worktreeId).toBe(feature.id);
    }
    const miss = await fail(["terminal", "create", "--worktree", `id:${feature.repoId}`]);
    expect(miss.error.code).toBe("selector_not_found");
    expect(miss.error.data.validSelectorForms).toContain("id:<repo-id>::<absolute-path>");
    expect(miss.error.data.suggestions).toContain(`id:${feature.id}`);
  });

  test("folder workspaces: worktreeId folder:<uuid>, empty worktreePath, only id:folder: selects", async () => {
    const env = { ORCA_SIM_SCENARIO: "folder" };
    mkdirSync(join(dir, "notes"));
    const t = (await ok(["terminal", "create", "--worktree", `id:${FOLDER}`, "--title", "n2"], env)).terminal;
    expect(t.worktreeId).toBe(FOLDER);
    const list = (await ok(["terminal", "list", "--worktree", `id:${FOLDER}`], env)).terminals;
    expect(list.map((x: any) => [x.worktreeId, x.worktreePath])).toEqual([
      [FOLDER, ""],
      [FOLDER, ""],
    ]);
    expect((await fail(["terminal", "list", "--worktree", FOLDER], env)).error.code).toBe("selector_not_found");
  });

  test("repo add registers git worktrees (idempotent) and folders; call log has every call", async () => {
    const f = makeRepo(join(dir, "g"));
    const wt = addWorktree(f, "topic");
    const env = { ORCA_SIM_SCENARIO: "empty", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
    const repo = (await ok(["repo", "add", "--path", f.repo], env)).repo;
    expect([repo.kind, (await ok(["repo", "add", "--path", f.repo], env)).repo.id]).toEqual(["git", repo.id]);
    const wts = (await ok(["worktree", "list"], env)).worktrees;
    expect(wts.map((w: any) => [w.id, w.branch, w.isMainWorktree])).toEqual([
      [`${repo.id}::${f.repo}`, "refs/heads/main", true],
      [`${repo.id}::${wt}`, "refs/heads/topic", false],
    ]);
    expect((await ok(["repo", "add", "--path", f.dir], env)).repo.kind).toBe("folder");
    const log = readFileSync(join(dir, "calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log.map((l) => l.exit)).toEqual([0, 0, 0, 0]);
    expect(log[0].argv).toEqual(["repo", "add", "--path", f.repo, "--json"]);
  });

  test("terminal send/read/wait; --flag=value may start with --", async () => {
    expect((await ok(["terminal", "send", "--terminal", WORKER, "--text=--help", "--enter"])).send).toEqual({ handle: WORKER, accepted: true, bytesWritten: 7 });
    expect((await ok(["terminal", "read", "--terminal", WORKER])).terminal.tail.at(-1)).toBe("--help");
    expect((await ok(["terminal", "wait", "--terminal", WORKER, "--for", "tui-idle"])).wait.satisfied).toBe(true);
    expect((await fail(["terminal", "wait", "--terminal", WORKER, "--for", "exit", "--timeout-ms", "60"])).error.code).toBe("timeout");
    await ok(["terminal", "send", "--terminal", WORKER, "--text", "exit", "--enter"]);
    expect((await ok(["terminal", "wait", "--terminal", WORKER, "--for", "exit"])).wait).toEqual({ handle: WORKER, condition: "exit", satisfied: true, status: "exited", exitCode: 0 });
  });
});
