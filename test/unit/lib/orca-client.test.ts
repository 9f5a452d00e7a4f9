/**
 * The Orca client over a stub runner (DECISIONS D4, D6): the real envelope and the legacy flat shape, every
 * failure kind as a named OrcaError, and the exact argv of each call.
 */
import { describe, expect, test } from "bun:test";
import type { Ctx } from "../../../src/lib/context.ts";
import type { Runner } from "../../../src/lib/runner.ts";
import { type StubReply, stubRunner } from "../../helpers/stub-runner.ts";
import { OrcaClient, OrcaError, normalStatus, normaliseDispatch } from "../../../src/lib/orca/client.ts";

const ENV = { ORCA_CLI_COMMAND: "orca", PATH: "" };
const CWD = "/work/somewhere";

function ctxWith(runner: Runner, env: Record<string, string> = ENV): Ctx {
  return {
    io: { stdout: () => {}, stderr: () => {}, stdoutIsTTY: false, stderrIsTTY: false },
    env,
    cwd: CWD,
    runner,
    now: () => 1_700_000_000_000,
    debug: false,
    self: ["mogui"],
  };
}

function client(table: [readonly string[], StubReply | StubReply[]][], timeoutMs?: number) {
  const runner = stubRunner(table);
  return { runner, orca: new OrcaClient(ctxWith(runner), timeoutMs === undefined ? {} : { timeoutMs }) };
}

const SHOW = ["orca", "orchestration", "dispatch-show", "--task", "task_0123456789ab", "--json"];

function envelope(result: unknown) {
  return { id: "6f1c-req", ok: true, result, _meta: { runtimeId: "a3b9" } };
}

const realDispatch = {
  id: "ctx_aaaaaaaaaaaa",
  run_id: "run_bbbbbbbbbbbb",
  task_id: "task_0123456789ab",
  contract_version: 2,
  assignee_handle: "term_1111",
  assignee_pane_key: "tab:leaf",
  process_incarnation: "3f2c-repo::/home/me/repo-wt/fix-login@@3",
  status: "completed",
  failure_count: 0,
  dispatched_at: "2026-01-01T00:00:00.000Z",
};

async function orcaError(p: Promise<unknown>): Promise<OrcaError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(OrcaError);
    expect((e as OrcaError).name).toBe("OrcaError");
    return e as OrcaError;
  }
  throw new Error("expected an OrcaError");
}

describe("dispatchShow", () => {
  test("the real envelope (pretty-printed, as Orca prints it)", async () => {
    const { orca, runner } = client([[SHOW, { stdout: JSON.stringify(envelope({ dispatch: realDispatch }), null, 2) }]]);
    expect(await orca.dispatchShow("task_0123456789ab")).toEqual({
      id: "ctx_aaaaaaaaaaaa",
      taskId: "task_0123456789ab",
      status: "completed",
      terminal: "term_1111",
      legacyWorktreePath: null,
      incarnationWorktreePath: "/home/me/repo-wt/fix-login",
      shape: "envelope",
    });
    expect(runner.calls).toEqual([{ argv: SHOW, opts: { cwd: CWD, env: ENV, timeoutMs: 30_000 } }]);
  });

  test("the legacy flat shape: uppercase status, dispatch_id / terminal_id / worktree_path", async () => {
    const flat = { dispatch_id: "D-42", task_id: "task_0123456789ab", terminal_id: "term-7", status: "COMPLETED", worktree_path: "/w/wt-7" };
    const { orca } = client([[SHOW, { stdout: flat }]]);
    const d = await orca.dispatchShow("task_0123456789ab");
    expect(d).toEqual({
      id: "D-42",
      taskId: "task_0123456789ab",
      status: "COMPLETED",
      terminal: "term-7",
      legacyWorktreePath: "/w/wt-7",
      incarnationWorktreePath: null,
      shape: "legacy",
    });
    expect(normalStatus(d!.status)).toBe("completed");
  });

  test("the legacy shape wrapped in an envelope's dispatch key", async () => {
    const { orca } = client([[SHOW, { stdout: envelope({ dispatch: { dispatch_id: "D-1", status: "RUNNING" } }) }]]);
    expect(await orca.dispatchShow("task_0123456789ab")).toEqual({
      id: "D-1",
      taskId: null,
      status: "RUNNING",
      terminal: null,
      legacyWorktreePath: null,
      incarnationWorktreePath: null,
      shape: "legacy",
    });
  });

  test('{"dispatch":null} (enveloped or bare) is null', async () => {
    const a = client([[SHOW, { stdout: envelope({ dispatch: null }) }]]);
    expect(await a.orca.dispatchShow("task_0123456789ab")).toBeNull();
    const b = client([[SHOW, { stdout: '{"dispatch":null}' }]]);
    expect(await b.orca.dispatchShow("task_0123456789ab")).toBeNull();
  });

  test("ok:false envelope with exit 1 is failure 'exit' with Orca's code and exit code 1", async () => {
    const err = { id: "local", ok: false, error: { code: "task_not_found", message: "Task task_0123456789ab was not found" }, _meta: { runtimeId: null } };
    const { orca } = client([[SHOW, { code: 1, stdout: JSON.stringify(err, null, 2) }]]);
    const e = await orcaError(orca.dispatchShow("task_0123456789ab"));
    expect(e.failure).toBe("exit");
    expect(e.exitCode).toBe(1);
    expect(e.orcaCode).toBe("task_not_found");
    expect(e.message).toBe("orca orchestration dispatch-show failed: task_not_found: Task task_0123456789ab was not found");
  });

  test("ok:false envelope with exit 0 is still an error (exit code 1)", async () => {
    const { orca } = client([[SHOW, { code: 0, stdout: { ok: false, error: { code: "runtime_unavailable" } } }]]);
    const e = await orcaError(orca.dispatchShow("task_0123456789ab"));
    expect([e.failure, e.exitCode, e.orcaCode]).toEqual(["exit", 1, "runtime_unavailable"]);
    expect(e.message).toBe("orca orchestration dispatch-show failed: runtime_unavailable: ");
  });

  test("a non-zero exit with garbage output is 'exit' carrying that code", async () => {
    const { orca } = client([[SHOW, { code: 75, stdout: "<<garbage>>", stderr: "panic: boom\nstack..." }]]);
    const e = await orcaError(orca.dispatchShow("task_0123456789ab"));
    expect([e.failure, e.exitCode, e.orcaCode]).toEqual(["exit", 75, undefined]);
    expect(e.message).toBe("orca orchestration dispatch-show failed: exit 75: panic: boom");
  });

  test("a non-zero exit with a valid ok:true envelope is still 'exit'", async () => {
    const { orca } = client([[SHOW, { code: 2, stdout: envelope({ dispatch: null }) }]]);
    const e = await orcaError(orca.dispatchShow("task_0123456789ab"));
    expect([e.failure, e.exitCode]).toEqual(["exit", 2]);
  });

  test("exit 0 with output that is not JSON is 'parse'", async () => {
    const { orca } = client([[SHOW, { code: 0, stdout: "ctx_aaaaaaaaaaaa task=task_0123456789ab [completed]\n" }]]);
    const e = await orcaError(orca.dispatchShow("task_0123456789ab"));
    expect([e.failure, e.exitCode]).toEqual(["parse", null]);
    expect(e.message).toBe("orca orchestration dispatch-show: output is not JSON: ctx_aaaaaaaaaaaa task=task_0123456789ab [completed]");
    const empty = client([[SHOW, { code: 0, stdout: "" }]]);
    expect((await orcaError(empty.orca.dispatchShow("task_0123456789ab"))).message).toBe("orca orchestration dispatch-show: output is not JSON: (empty)");
  });

  test("an envelope without the expected keys is 'parse' naming the problem", async () => {
    const a = client([[SHOW, { stdout: envelope({ dispatch: { id: "ctx_x" } }) }]]);
    const ea = await orcaError(a.orca.dispatchShow("task_0123456789ab"));
    expect(ea.failure).toBe("parse");
    // The union's branches name what is missing, with the full path.
    expect(ea.message).toBe('orca orchestration dispatch-show: unexpected JSON: × Invalid key: Expected "status" but received undefined;   → at dispatch.status; ' + '× Invalid key: Expected "dispatch_id" but received undefined;   → at dispatch.dispatch_id');

    const b = client([[SHOW, { stdout: envelope({ something: "else" }) }]]);
    const eb = await orcaError(b.orca.dispatchShow("task_0123456789ab"));
    expect(eb.failure).toBe("parse");
    expect(eb.message).toBe("orca orchestration dispatch-show: unexpected JSON: no dispatch object");

    const c = client([[SHOW, { stdout: { ok: true, result: "done" } }]]);
    const ec = await orcaError(c.orca.dispatchShow("task_0123456789ab"));
    expect(ec.failure).toBe("parse");
    expect(ec.message).toBe('orca orchestration dispatch-show: not an Orca envelope: {"ok":true,"result":"done"}');

    const d = client([[SHOW, { stdout: "[1,2]" }]]);
    expect((await orcaError(d.orca.dispatchShow("task_0123456789ab"))).message).toBe("orca orchestration dispatch-show: not an Orca envelope: [1,2]");
  });

  test("missing executable, timeout and signal are their own failures", async () => {
    const m = client([[SHOW, { missing: true }]]);
    const em = await orcaError(m.orca.dispatchShow("task_0123456789ab"));
    expect([em.failure, em.exitCode]).toEqual(["missing", null]);
    expect(em.message).toBe("orca orchestration dispatch-show: orca executable 'orca' not found (set ORCA_CLI_COMMAND)");

    const t = client([[SHOW, { timedOut: true }]], 1234);
    const et = await orcaError(t.orca.dispatchShow("task_0123456789ab"));
    expect([et.failure, et.exitCode]).toEqual(["timeout", null]);
    expect(et.message).toBe("orca orchestration dispatch-show: timed out after 1234 ms");
    expect(t.runner.calls[0]!.opts).toEqual({ cwd: CWD, env: ENV, timeoutMs: 1234 });

    const s = client([[SHOW, { signal: "SIGTERM" }]]);
    const es = await orcaError(s.orca.dispatchShow("task_0123456789ab"));
    expect([es.failure, es.exitCode]).toEqual(["signal", null]);
    expect(es.message).toBe("orca orchestration dispatch-show: killed by SIGTERM");
  });
});

describe("terminals and tasks", () => {
  test("terminalClose uses --terminal <handle> --json (never positional)", async () => {
    const argv = ["orca", "terminal", "close", "--terminal", "term_1111", "--json"];
    const { orca, runner } = client([[argv, { stdout: envelope({ close: { handle: "term_1111", tabId: "t", ptyKilled: true } }) }]]);
    expect(await orca.terminalClose("term_1111")).toEqual({ ptyKilled: true });
    expect(runner.calls.map((c) => c.argv)).toEqual([argv]);
  });

  test("terminalClose refusal: terminal_stop_live is 'exit' with the orca code", async () => {
    const argv = ["orca", "terminal", "close", "--terminal", "term_1111", "--json"];
    const err = { id: "x", ok: false, error: { code: "terminal_stop_live", message: "PTY still live", data: { close: {} } } };
    const { orca } = client([[argv, { code: 1, stdout: err }]]);
    const e = await orcaError(orca.terminalClose("term_1111"));
    expect([e.failure, e.exitCode, e.orcaCode, e.message]).toEqual(["exit", 1, "terminal_stop_live", "orca terminal close failed: terminal_stop_live: PTY still live"]);
  });

  test("terminalClose with a result that has no close object is 'parse'", async () => {
    const argv = ["orca", "terminal", "close", "--terminal", "term_1111", "--json"];
    const { orca } = client([[argv, { stdout: envelope({ closed: 1 }) }]]);
    const e = await orcaError(orca.terminalClose("term_1111"));
    expect(e.failure).toBe("parse");
    expect(e.message).toBe('orca terminal close: unexpected JSON: × Invalid key: Expected "close" but received undefined;   → at close');
  });

  test("terminalShow, terminalList (with and without --worktree) and taskList", async () => {
    const summary = { handle: "term_1", worktreeId: "r::/w", worktreePath: "/w", title: null, connected: true };
    const { orca, runner } = client([
      [["orca", "terminal", "show", "--terminal", "term_1", "--json"], { stdout: envelope({ terminal: summary }) }],
      [["orca", "terminal", "list", "--json"], { stdout: envelope({ terminals: [summary], totalCount: 1, truncated: false }) }],
      [["orca", "terminal", "list", "--worktree", "path:/w", "--json"], { stdout: envelope({ terminals: [] }) }],
      [["orca", "orchestration", "task-list", "--json"], { stdout: envelope({ tasks: [{ id: "task_1", status: "dispatched", dispatch_id: "ctx_1" }], count: 1 }) }],
    ]);
    expect(await orca.terminalShow("term_1")).toEqual(summary);
    expect(await orca.terminalList()).toEqual([summary]);
    expect(await orca.terminalList("path:/w")).toEqual([]);
    expect(await orca.taskList()).toEqual([{ id: "task_1", status: "dispatched", dispatch_id: "ctx_1" }]);
    expect(runner.calls.length).toBe(4);
  });

  test("taskList: a result without tasks is 'parse' naming the missing key", async () => {
    const { orca } = client([[["orca", "orchestration", "task-list", "--json"], { stdout: envelope({ count: 0 }) }]]);
    const e = await orcaError(orca.taskList());
    expect(e.failure).toBe("parse");
    expect(e.message).toBe('orca orchestration task-list: unexpected JSON: × Invalid key: Expected "tasks" but received undefined;   → at tasks');
  });

  test("the executable comes from ORCA_CLI_COMMAND in ctx.env", async () => {
    const runner = stubRunner([[["/opt/orca-dev", "terminal", "list", "--json"], { stdout: envelope({ terminals: [] }) }]]);
    const orca = new OrcaClient(ctxWith(runner, { ORCA_CLI_COMMAND: "  /opt/orca-dev ", PATH: "" }));
    expect(orca.exe).toBe("/opt/orca-dev");
    expect(await orca.terminalList()).toEqual([]);
  });
});

describe("success envelopes that exit 1 (terminal wait, terminal send)", () => {
  const WAIT = ["orca", "terminal", "wait", "--terminal", "term_1", "--for", "tui-idle", "--timeout-ms", "1000", "--json"];
  const SEND = ["orca", "terminal", "send", "--terminal", "term_1", "--text=hi", "--enter", "--json"];

  test("OrcaError carries the RunResult and the parsed document; okResult is the result of an ok envelope only", async () => {
    const unsatisfied = envelope({ wait: { handle: "term_1", satisfied: false, status: "exited", exitCode: 0 } });
    const { orca } = client([
      [["orca", "terminal", "show", "--terminal", "a", "--json"], { code: 1, stdout: unsatisfied }],
      [["orca", "terminal", "show", "--terminal", "b", "--json"], { code: 1, stdout: { id: "x", ok: false, error: { code: "terminal_not_found", message: "gone" } } }],
      [["orca", "terminal", "show", "--terminal", "c", "--json"], { code: 3, stdout: "", stderr: "boom" }],
    ]);
    const a = await orcaError(orca.result(["terminal", "show", "--terminal", "a"]));
    expect(a).toMatchObject({ failure: "exit", exitCode: 1, orcaCode: undefined });
    expect(a.run).toMatchObject({ code: 1, stderr: "" });
    expect(a.doc).toEqual(unsatisfied);
    expect(a.okResult).toEqual(unsatisfied.result as Record<string, unknown>);
    const b = await orcaError(orca.result(["terminal", "show", "--terminal", "b"]));
    expect(b).toMatchObject({ orcaCode: "terminal_not_found", okResult: undefined });
    expect((b.doc as any).error.message).toBe("gone");
    const c = await orcaError(orca.result(["terminal", "show", "--terminal", "c"]));
    expect(c.run).toMatchObject({ code: 3, stderr: "boom" });
    expect(c.doc).toBeUndefined();
  });

  test("terminalWait returns satisfied and unsatisfied waits; the wait's timeout is orcaCode timeout; deadline +5 s", async () => {
    const { orca, runner } = client([
      [
        WAIT,
        [
          { stdout: envelope({ wait: { handle: "term_1", condition: "tui-idle", satisfied: true, status: "running", exitCode: null } }) },
          { code: 1, stdout: envelope({ wait: { handle: "term_1", satisfied: false, status: "running", exitCode: null, blockedReason: "agent-approval-prompt" } }) },
          { code: 1, stdout: { id: "x", ok: false, error: { code: "timeout", message: "timeout" } } },
        ],
      ],
    ]);
    expect(await orca.terminalWait("term_1", "tui-idle", 1000)).toMatchObject({ satisfied: true, status: "running" });
    expect(await orca.terminalWait("term_1", "tui-idle", 1000)).toMatchObject({ satisfied: false, blockedReason: "agent-approval-prompt" });
    expect(await orcaError(orca.terminalWait("term_1", "tui-idle", 1000))).toMatchObject({ failure: "exit", orcaCode: "timeout" });
    expect(runner.calls.map((c) => c.opts?.timeoutMs)).toEqual([6000, 6000, 6000]);
  });

  test("terminalSend returns a refusal (accepted:false, exit 1) as the send record", async () => {
    const { orca } = client([
      [
        SEND,
        [
          { stdout: envelope({ send: { handle: "term_1", accepted: true, bytesWritten: 3 } }) },
          { code: 1, stdout: envelope({ send: { handle: "term_1", accepted: false, bytesWritten: 0, refusedReason: "no-agent" } }) },
          { code: 1, stdout: { id: "x", ok: false, error: { code: "terminal_not_writable", message: "exited" } } },
        ],
      ],
    ]);
    expect(await orca.terminalSend("term_1", { text: "hi", enter: true })).toMatchObject({ accepted: true, bytesWritten: 3 });
    expect(await orca.terminalSend("term_1", { text: "hi", enter: true })).toMatchObject({ accepted: false, refusedReason: "no-agent" });
    expect(await orcaError(orca.terminalSend("term_1", { text: "hi", enter: true }))).toMatchObject({ orcaCode: "terminal_not_writable" });
  });
});

describe("normaliseDispatch", () => {
  test("process_incarnation <repo>::<path>@@N gives incarnationWorktreePath", () => {
    const base = { id: "ctx_1", status: "dispatched" };
    const inc = (pi: string | null) => normaliseDispatch({ ...base, process_incarnation: pi })!.incarnationWorktreePath;
    expect(inc("3f2c::/home/me/wt@@3")).toBe("/home/me/wt");
    expect(inc("3f2c::/home/me/wt")).toBe("/home/me/wt");
    expect(inc("3f2c::/a/b@@c@@4")).toBe("/a/b");
    expect(inc("folder:abc")).toBeNull();
    expect(inc("3f2c::relative/path@@1")).toBeNull();
    expect(inc(null)).toBeNull();
  });

  test("real rows prefer assignee_handle; a row that is neither shape is null", () => {
    expect(normaliseDispatch({ id: "ctx_1", status: "failed", assignee_handle: "", terminal_id: "term-old" })!.terminal).toBe("term-old");
    expect(normaliseDispatch({ id: "ctx_1", status: "failed", assignee_handle: "term_new", terminal_id: "term-old" })!.terminal).toBe("term_new");
    expect(normaliseDispatch({ id: "ctx_1" })).toBeNull();
    expect(normaliseDispatch({ status: "completed" })).toBeNull();
    expect(normaliseDispatch(null)).toBeNull();
    expect(normaliseDispatch("ctx_1")).toBeNull();
  });
});
