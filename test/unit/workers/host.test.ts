// The host adapter against stub runners: the exact argv each host gets, and how replies map to statuses.
import { describe, expect, test } from "bun:test";
import { AGENT_START_BUSY_RETRY_MS, HerdrHost } from "../../../src/lib/host/herdr.ts";
import { OrcaHost, shellWord } from "../../../src/lib/host/orca.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { stubRunner, type StubReply } from "../../helpers/stub-runner.ts";

function ctxWith(table: Parameters<typeof stubRunner>[0]) {
  const runner = stubRunner(table);
  // The time scale makes the agent_pane_busy backoff sleep microseconds (the same attempts, scaled waits).
  const ctx: Ctx = { io: { stdout() {}, stderr() {}, stdoutIsTTY: false, stderrIsTTY: false }, env: { ORCA_CLI_COMMAND: "orca", MOGUI_WORKER_TIME_SCALE: "0.001" }, cwd: "/tmp", runner, now: () => 0, debug: false, self: [] };
  return { ctx, runner };
}

const ok = (result: object, id = "cli:x"): StubReply => ({ stdout: JSON.stringify({ id, result }) });
const err = (code: string, message = "m"): StubReply => ({ code: 1, stderr: JSON.stringify({ error: { code, message }, id: "cli:x" }) });
const pane = (id: string, extra: object = {}) => ({ agent_status: "unknown", pane_id: id, revision: 0, tab_id: "w1:t1", workspace_id: "w1", ...extra });

describe("herdr host", () => {
  test("spawn = tab create in the workspace + 0.8 `agent start <name> --kind K --pane ID -- args`", async () => {
    const { ctx, runner } = ctxWith([
      [["herdr", "tab", "create", "--workspace", "w1", "--cwd", "/wt", "--label", "fix-1", "--no-focus"], ok({ root_pane: pane("w1:p3"), tab: {}, type: "tab_created" })],
      [["herdr", "agent", "start", "fix-1", "--kind", "claude", "--pane", "w1:p3", "--", "--model", "opus"], ok({ agent: pane("w1:p3", { agent: "claude", name: "fix-1" }), argv: ["claude"], type: "agent_started" })],
    ]);
    expect(await new HerdrHost(ctx).spawnAgent({ repo: "/r", cwd: "/wt", workspace: "w1", name: "fix-1", kind: "claude", args: ["--model", "opus"] })).toBe("w1:p3");
    expect(runner.calls).toHaveLength(2);
  });

  test("a failed agent start closes the pane it made (no dead tab left behind)", async () => {
    const { ctx, runner } = ctxWith([
      [["herdr", "tab", "create", "--workspace", "w1", "--cwd", "/wt", "--label", "x", "--no-focus"], ok({ root_pane: pane("w1:p4"), type: "tab_created" })],
      [["herdr", "agent", "start", "x", "--kind", "claude", "--pane", "w1:p4"], err("agent_start_failed", "agent process exited before becoming interactive")],
      [["herdr", "pane", "close", "w1:p4"], ok({ type: "ok" })],
    ]);
    await expect(new HerdrHost(ctx).spawnAgent({ repo: "/r", cwd: "/wt", workspace: "w1", name: "x", kind: "claude", args: [] })).rejects.toThrow(/agent_start_failed/);
    expect(runner.calls.at(-1)!.argv).toEqual(["herdr", "pane", "close", "w1:p4"]);
  });

  test("wait-output: output_matched is true, herdr's timeout error is false", async () => {
    const wait = (m: string) => ["herdr", "pane", "wait-output", "p", "--match", m, "--source", "recent-unwrapped", "--timeout", "500"];
    const { ctx } = ctxWith([
      [wait("yes"), ok({ matched_line: "yes!", pane_id: "p", type: "output_matched" })],
      [wait("no"), err("timeout", "timed out waiting for output match")],
    ]);
    const h = new HerdrHost(ctx);
    expect(await h.waitOutput("p", "yes", 500)).toBe(true);
    expect(await h.waitOutput("p", "no", 500)).toBe(false);
  });

  test("herdr needs a workspace for a new pane", async () => {
    const { ctx } = ctxWith([]);
    await expect(new HerdrHost(ctx).createPane({ cwd: "/wt", workspace: null, name: "x" })).rejects.toMatchObject({ failure: "usage" });
  });

  test("a named agent gets the whole text as ONE `agent prompt`; close is `pane close`, never `tab close`", async () => {
    const brief = "Brief marker: M\n\n- step one\n- step two\n\nBrief marker: M";
    const { ctx, runner } = ctxWith([
      [["herdr", "agent", "get", "w1:p2"], ok({ agent: pane("w1:p2", { agent: "claude", name: "fix-1" }), type: "agent_info" })],
      [["herdr", "agent", "prompt", "w1:p2", brief], ok({ agent: pane("w1:p2", { agent: "claude", name: "fix-1", agent_status: "working" }), type: "agent_prompted" })],
      [["herdr", "pane", "close", "w1:p2"], ok({ type: "ok" })],
    ]);
    const h = new HerdrHost(ctx);
    await h.sendText("w1:p2", brief);
    await h.closePane("w1:p2");
    expect(runner.calls.map((c) => c.argv.slice(1, 3).join(" "))).toEqual(["agent get", "agent prompt", "pane close"]);
    // agent prompt may wait ~5 s for the agent to react: its timeout leaves room for that.
    expect(runner.calls[1]!.opts?.timeoutMs).toBeGreaterThanOrEqual(15_000);
  });

  test("raw send-text + send-keys enter only for a plain shell or an unnamed (detected) agent, which agent prompt refuses", async () => {
    const { ctx, runner } = ctxWith([
      [["herdr", "agent", "get", "s"], err("agent_not_found", "agent target s not found")],
      [["herdr", "pane", "send-text", "s", "ls"], { stdout: "" }],
      [["herdr", "pane", "send-keys", "s", "enter"], { stdout: "" }],
      [["herdr", "agent", "get", "d"], ok({ agent: pane("d", { agent: "claude" }), type: "agent_info" })],
      [["herdr", "pane", "send-text", "d", "hi"], { stdout: "" }],
      [["herdr", "pane", "send-keys", "d", "enter"], { stdout: "" }],
      [["herdr", "agent", "get", "x"], err("internal_error", "boom")],
    ]);
    const h = new HerdrHost(ctx);
    await h.sendText("s", "ls");
    await h.sendText("d", "hi");
    // Any other failure to tell is a failed send, never a guess.
    await expect(h.sendText("x", "hi")).rejects.toThrow(/internal_error/);
    expect(runner.calls.map((c) => c.argv.slice(1, 3).join(" "))).toEqual(["agent get", "pane send-text", "pane send-keys", "agent get", "pane send-text", "pane send-keys", "agent get"]);
  });

  test("agent_pane_busy right after tab create is retried with a bounded backoff, then the agent starts", async () => {
    const start = ["herdr", "agent", "start", "fix-1", "--kind", "claude", "--pane", "w1:p3"];
    const busy = err("agent_pane_busy", "agent target pane w1:p3 is not an available shell");
    const { ctx, runner } = ctxWith([
      [["herdr", "tab", "create", "--workspace", "w1", "--cwd", "/wt", "--label", "fix-1", "--no-focus"], ok({ root_pane: pane("w1:p3"), type: "tab_created" })],
      [start, busy],
      [start, busy],
      [start, ok({ agent: pane("w1:p3", { agent: "claude", name: "fix-1" }), argv: ["claude"], type: "agent_started" })],
    ]);
    const h = new HerdrHost(ctx);
    expect(await h.spawnAgent({ repo: "/r", cwd: "/wt", workspace: "w1", name: "fix-1", kind: "claude", args: [] })).toBe("w1:p3");
    expect(h.busyRetries).toBe(2);
    expect(runner.calls.map((c) => c.argv[2])).toEqual(["create", "start", "start", "start"]);
  });

  test("agent_pane_busy past the bound: the error stands and the new pane is closed", async () => {
    const start = ["herdr", "agent", "start", "fix-1", "--kind", "claude", "--pane", "w1:p3"];
    const busy = err("agent_pane_busy", "agent target pane w1:p3 is not an available shell");
    const n = AGENT_START_BUSY_RETRY_MS.length + 1;
    const { ctx, runner } = ctxWith([
      [["herdr", "tab", "create", "--workspace", "w1", "--cwd", "/wt", "--label", "fix-1", "--no-focus"], ok({ root_pane: pane("w1:p3"), type: "tab_created" })],
      ...Array.from({ length: n }, (): [string[], StubReply] => [start, busy]),
      [["herdr", "pane", "close", "w1:p3"], ok({ type: "ok" })],
    ]);
    const h = new HerdrHost(ctx);
    await expect(h.spawnAgent({ repo: "/r", cwd: "/wt", workspace: "w1", name: "fix-1", kind: "claude", args: [] })).rejects.toThrow(/agent_pane_busy/);
    expect(AGENT_START_BUSY_RETRY_MS.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5_000);
    expect(runner.calls.map((c) => c.argv[2])).toEqual(["create", ...Array(n).fill("start"), "close"]);
  });

  test("idle and done are both idle; a shell is exited; a vanished pane is gone", async () => {
    const { ctx } = ctxWith([
      [["herdr", "pane", "get", "a"], ok({ pane: pane("a", { agent: "claude", agent_status: "done" }), type: "pane_info" })],
      [["herdr", "pane", "get", "b"], ok({ pane: pane("b", { agent: "claude", agent_status: "idle" }), type: "pane_info" })],
      [["herdr", "pane", "get", "c"], ok({ pane: pane("c"), type: "pane_info" })],
      [["herdr", "pane", "get", "d"], err("pane_not_found", "pane d not found")],
      [["herdr", "pane", "get", "e"], ok({ pane: pane("e", { agent: "codex", agent_status: "working" }), type: "pane_info" })],
    ]);
    const h = new HerdrHost(ctx);
    expect(await h.status("a")).toEqual({ status: "idle", raw: "done" });
    expect(await h.status("b")).toEqual({ status: "idle", raw: "idle" });
    expect(await h.status("c")).toEqual({ status: "exited", raw: "unknown" });
    expect(await h.status("d")).toEqual({ status: "gone", raw: "pane_not_found" });
    expect(await h.status("e")).toEqual({ status: "working", raw: "working" });
  });

  test("recent output is `agent read --source recent-unwrapped`; visible when history is refused; pane read without an agent", async () => {
    const { ctx } = ctxWith([
      [["herdr", "agent", "read", "p", "--source", "recent-unwrapped", "--lines", "200"], err("agent_not_idle")],
      [["herdr", "agent", "read", "p", "--source", "visible", "--lines", "200"], { stdout: "Brief marker: M\n" }],
      [["herdr", "agent", "read", "q", "--source", "recent-unwrapped", "--lines", "200"], err("agent_not_found")],
      [["herdr", "pane", "read", "q", "--source", "recent-unwrapped", "--lines", "200"], { stdout: "$ \n" }],
    ]);
    const h = new HerdrHost(ctx);
    expect(await h.readRecent("p", 200)).toBe("Brief marker: M\n");
    expect(await h.readRecent("q", 200)).toBe("$ \n");
  });

  test("readEvidence names the source actually read", async () => {
    const { ctx } = ctxWith([
      [["herdr", "agent", "read", "a", "--source", "recent-unwrapped", "--lines", "200"], { stdout: "x\n" }],
      [["herdr", "agent", "read", "p", "--source", "recent-unwrapped", "--lines", "200"], err("agent_not_idle")],
      [["herdr", "agent", "read", "p", "--source", "visible", "--lines", "200"], { stdout: "y\n" }],
      [["herdr", "agent", "read", "q", "--source", "recent-unwrapped", "--lines", "200"], err("agent_not_found")],
      [["herdr", "pane", "read", "q", "--source", "recent-unwrapped", "--lines", "200"], { stdout: "$ \n" }],
    ]);
    const h = new HerdrHost(ctx);
    expect(await h.readEvidence("a", 200)).toEqual({ text: "x\n", source: "recent output (herdr agent read --source recent-unwrapped)" });
    expect(await h.readEvidence("p", 200)).toEqual({ text: "y\n", source: "visible screen (herdr agent read --source visible: the working agent refused a history read)" });
    expect((await h.readEvidence("q", 200)).source).toBe("recent output (herdr pane read --source recent-unwrapped: no agent in the pane)");
  });

  test("failures are named: usage (exit 2), missing executable, timeout, unparseable reply", async () => {
    const { ctx } = ctxWith([
      [["herdr", "pane", "list"], { code: 2, stderr: "unknown option: --json\n" }],
      [["herdr", "agent", "list"], { missing: true }],
      [["herdr", "pane", "get", "x"], { timedOut: true }],
      [["herdr", "pane", "get", "y"], { stdout: '{"id":"cli:pane:get","result":{' }],
    ]);
    const h = new HerdrHost(ctx);
    await expect(h.client.paneList()).rejects.toMatchObject({ failure: "usage" });
    await expect(h.client.agentList()).rejects.toMatchObject({ failure: "missing" });
    await expect(h.client.paneGet("x")).rejects.toMatchObject({ failure: "timeout" });
    await expect(h.client.paneGet("y")).rejects.toMatchObject({ failure: "parse" });
  });
});

const env = (result: object) => ({ stdout: JSON.stringify({ id: "u", ok: true, result, _meta: { runtimeId: "r" } }) });
const orcaErr = (code: string) => ({ code: 1, stdout: JSON.stringify({ id: "u", ok: false, error: { code, message: code }, _meta: { runtimeId: "r" } }) });

describe("orca host", () => {
  test("createPane + startAgent: a bare terminal, then the agent's command line typed into it", async () => {
    const { ctx, runner } = ctxWith([
      [["orca", "repo", "add", "--path", "/r", "--json"], env({ repo: { id: "x" } })],
      [["orca", "terminal", "create", "--worktree", "path:/wt", "--title", "w", "--json"], env({ terminal: { handle: "term_2" } })],
      [["orca", "terminal", "send", "--terminal", "term_2", "--text=claude --model opus", "--enter", "--json"], env({ send: { handle: "term_2", accepted: true, bytesWritten: 20 } })],
    ]);
    const h = new OrcaHost(ctx);
    const pane = await h.createPane({ repo: "/r", cwd: "/wt", workspace: null, name: "w" });
    await h.startAgent(pane, { name: "w", kind: "claude", args: ["--model", "opus"] });
    expect(runner.calls.map((c) => c.argv[2])).toEqual(["add", "create", "send"]);
  });

  test("terminal create without a handle is a parse failure", async () => {
    const { ctx } = ctxWith([
      [["orca", "repo", "add", "--path", "/r", "--json"], env({ repo: {} })],
      [["orca", "terminal", "create", "--worktree", "path:/wt", "--title", "w", "--json"], env({ terminal: {} })],
    ]);
    await expect(new OrcaHost(ctx).createPane({ repo: "/r", cwd: "/wt", workspace: null, name: "w" })).rejects.toMatchObject({ failure: "parse" });
  });

  test("spawn registers the repo, then `terminal create --worktree path:<wt> --title <name> --command <one shell string>`", async () => {
    const { ctx, runner } = ctxWith([
      [["orca", "repo", "add", "--path", "/r", "--json"], env({ repo: { id: "x" } })],
      [["orca", "terminal", "create", "--worktree", "path:/wt", "--title", "fix-1", "--command", "codex -m gpt-5.4 -c 'model_reasoning_effort=high it'\\''s'", "--json"], env({ terminal: { handle: "term_1" } })],
    ]);
    const h = new OrcaHost(ctx);
    expect(await h.spawnAgent({ repo: "/r", cwd: "/wt", workspace: null, name: "fix-1", kind: "codex", args: ["-m", "gpt-5.4", "-c", "model_reasoning_effort=high it's"] })).toBe("term_1");
    expect(runner.calls).toHaveLength(2);
    expect(shellWord("a b")).toBe("'a b'");
  });

  test("send/read/close use the real flags; close is --terminal, never --tab", async () => {
    const { ctx } = ctxWith([
      [["orca", "terminal", "send", "--terminal", "t", "--text=hi", "--enter", "--json"], env({ send: { handle: "t", accepted: true, bytesWritten: 3 } })],
      [["orca", "terminal", "send", "--terminal", "u", "--text=hi", "--enter", "--json"], env({ send: { handle: "u", accepted: false, refusedReason: "no-agent" } })],
      [["orca", "terminal", "read", "--terminal", "t", "--limit", "200", "--json"], env({ terminal: { handle: "t", tail: ["a", "b"] } })],
      [["orca", "terminal", "close", "--terminal", "t", "--json"], env({ close: { handle: "t", ptyKilled: true } })],
    ]);
    const h = new OrcaHost(ctx);
    await h.sendText("t", "hi");
    await expect(h.sendText("u", "hi")).rejects.toThrow(/not accepted \(no-agent\)/);
    expect(await h.readRecent("t", 200)).toBe("a\nb\n");
    await h.closePane("t");
  });

  test("status: one `terminal wait --for tui-idle`: satisfied idle, timeout working, exited, blocked, gone", async () => {
    const argv = (h: string) => ["orca", "terminal", "wait", "--terminal", h, "--for", "tui-idle", "--timeout-ms", "1000", "--json"];
    const { ctx } = ctxWith([
      [argv("a"), env({ wait: { handle: "a", condition: "tui-idle", satisfied: true, status: "running" } })],
      [argv("b"), orcaErr("timeout")],
      [argv("c"), { code: 1, stdout: JSON.stringify({ id: "u", ok: true, result: { wait: { satisfied: false, status: "exited" } } }) }],
      [argv("d"), { code: 1, stdout: JSON.stringify({ id: "u", ok: true, result: { wait: { satisfied: false, status: "running", blockedReason: "agent-approval-prompt" } } }) }],
      [argv("e"), orcaErr("terminal_not_found")],
    ]);
    const h = new OrcaHost(ctx);
    expect(await h.status("a")).toEqual({ status: "idle", raw: "tui-idle" });
    expect(await h.status("b")).toEqual({ status: "working", raw: "timeout" });
    expect(await h.status("c")).toEqual({ status: "exited", raw: "exited" });
    expect(await h.status("d")).toEqual({ status: "blocked", raw: "agent-approval-prompt" });
    expect(await h.status("e")).toEqual({ status: "gone", raw: "terminal_not_found" });
  });
});
