/**
 * `mogui worker-reap`, in process through main(argv): the exit-code table, the exact stdout documents, the exact
 * orca argv, the ledger row bytes and the order of calls. `orca` is a stub runner that fails on any call nobody
 * expected; `git` is real (temp repos with a bare origin) unless a test injects a git failure.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realRunner, type RunResult, type Runner } from "../../../src/lib/runner.ts";
import { stubRunner, type StubReply } from "../../helpers/stub-runner.ts";
import { runMain, type Captured } from "../../helpers/ctx.ts";
import { addWorktree, makeRepo, mergeBranch, type Fixture } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";

const NOW = 1_722_787_200_123; // epoch ms -> timestamp 1722787200.123
const TS = 1722787200.123;
const TASK = "task_0123456789ab";
const CTX = "ctx_a1b2c3d4e5f6";
const TERM = "term_5f0c1d2e-0000-4000-8000-00000000beef";

const O = (...a: string[]) => ["orca", ...a, "--json"];
const SHOW = O("orchestration", "dispatch-show", "--task", TASK);
const TSHOW = O("terminal", "show", "--terminal", TERM);
const TLIST = O("terminal", "list");
const CLOSE = O("terminal", "close", "--terminal", TERM);
const TASKS = O("orchestration", "task-list");

function ok(result: object): StubReply {
  return { stdout: { id: "8d4c0f3e-req", ok: true, result, _meta: { runtimeId: "rt-1" } } };
}
function orcaError(code: string, message: string, data?: object): StubReply {
  return { code: 1, stdout: { id: "8d4c0f3e-req", ok: false, error: { code, message, ...(data ? { data } : {}) }, _meta: { runtimeId: "rt-1" } } };
}
/** A DispatchContextRow as real Orca prints it (no dispatch_id, terminal_id or worktree_path). */
function row(over: Record<string, unknown> = {}) {
  return {
    id: CTX,
    run_id: "run_000000000001",
    task_id: TASK,
    contract_version: 3,
    assignee_handle: TERM,
    assignee_pane_key: "tab1:leaf1",
    process_incarnation: null,
    status: "completed",
    failure_count: 0,
    dispatched_at: "2026-01-01T00:00:00.000Z",
    completed_at: "2026-01-01T00:10:00.000Z",
    ...over,
  };
}
const dispatch = (over: Record<string, unknown> = {}) => ok({ dispatch: row(over) });
function terminal(worktreePath: string, worktreeId = `2b7c9d1e-repo::${worktreePath}`) {
  return ok({ terminal: { handle: TERM, ptyId: "pty-1", worktreeId, worktreePath, branch: "w", tabId: "tab1", leafId: "leaf1", title: null, connected: true, writable: true, lastOutputAt: null, preview: "", paneRuntimeId: 1, rendererGraphEpoch: 1 } });
}
const closed = ok({ close: { handle: TERM, tabId: "tab1", ptyKilled: true } });

// ------------------------------------------------------------------------------------------------ harness

let home: string;
let f: Fixture;
const cleanup: string[] = [];

beforeAll(() => {
  f = makeRepo();
  cleanup.push(f.dir);
});
afterAll(() => {
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

function freshHome(): string {
  home = tempDir("mogui-home-");
  cleanup.push(home);
  return home;
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ORCA_CLI_COMMAND: "orca", PATH: process.env.PATH ?? "/usr/bin:/bin", MOGUI_HOME: home, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", ...extra };
}

type Table = Parameters<typeof stubRunner>[0];

/** orca -> the stub; git -> real git, unless `git` returns an injected result for that argv. */
function harness(table: Table, git?: (argv: readonly string[]) => RunResult | undefined) {
  const stub = stubRunner(table);
  const calls: string[][] = [];
  const runner: Runner = async (argv, opts) => {
    calls.push([...argv]);
    if (argv[0] === "git") return git?.(argv) ?? realRunner(argv, opts);
    return stub(argv, opts);
  };
  return { runner, stub, calls, orcaCalls: () => calls.filter((c) => c[0] === "orca") };
}

async function run(argv: string[], runner: Runner, extraEnv: Record<string, string> = {}): Promise<Captured> {
  return runMain(["worker-reap", ...argv], { env: env(extraEnv), runner, now: () => NOW, cwd: home });
}

function expectError(r: Captured, code: number, stderr: string | RegExp): void {
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code, stdout: "" });
  if (typeof stderr === "string") expect(r.stderr).toBe(stderr);
  else expect(r.stderr).toMatch(stderr);
}

const ledgerPath = () => join(home, "dispatch-ledger.jsonl");
const noLedgerRow = () => !existsSync(ledgerPath()) || readFileSync(ledgerPath(), "utf8") === "";

/** A clean, merged linked worktree: safe to remove. */
let wtCount = 0;
function mergedWorktree(): string {
  const name = `reap${++wtCount}`;
  const wt = addWorktree(f, name);
  mergeBranch(f, name);
  return wt;
}

// ------------------------------------------------------------------------------------------------ exit 0

describe("exit 0: dry run", () => {
  test("prints the exact record (indent 2), closes nothing, removes nothing, writes no ledger", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal(wt)],
    ]);
    const r = await run(["--task-id", TASK, "--dry-run"], h.runner);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "{",
        '  "record": {',
        `    "task_id": "${TASK}",`,
        `    "dispatch_id": "${CTX}",`,
        `    "terminal_id": "${TERM}",`,
        `    "worktree_path": "${wt}",`,
        `    "actions_taken": "terminal_closed:${TERM};worktree_removed:${wt}",`,
        `    "timestamp": ${TS}`,
        "  },",
        '  "dry_run": true',
        "}",
        "",
      ].join("\n"),
    );
    expect(h.orcaCalls()).toEqual([SHOW, TSHOW]);
    expect(h.calls.some((c) => c.includes("close") || c.includes("remove"))).toBe(false);
    expect(existsSync(wt)).toBe(true);
    expect(existsSync(ledgerPath())).toBe(false);
  });

  test("--json prints the same document compact, keys in record order", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal(wt)],
    ]);
    const r = await run(["--task-id", TASK, "--dry-run", "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`{"record":{"task_id":"${TASK}","dispatch_id":"${CTX}","terminal_id":"${TERM}","worktree_path":"${wt}","actions_taken":"terminal_closed:${TERM};worktree_removed:${wt}","timestamp":${TS}},"dry_run":true}\n`);
    expect(existsSync(wt)).toBe(true);
    expect(existsSync(ledgerPath())).toBe(false);
  });

  test("a dry run with an explicit --ledger writes nothing there either", async () => {
    freshHome();
    const ledger = join(home, "elsewhere", "l.jsonl");
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
    ]);
    const r = await run(["--task-id", TASK, "--dry-run", "--ledger", ledger], h.runner);
    expect(r.code).toBe(0);
    expect(existsSync(ledger)).toBe(false);
    expect(existsSync(join(home, "elsewhere"))).toBe(false);
  });
});

describe("exit 0: execute", () => {
  test("closes with --terminal, removes the worktree, appends the exact ledger row", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal(wt)],
      [CLOSE, closed],
    ]);
    const r = await run(["--task-id", TASK, "--json"], h.runner);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const record = { task_id: TASK, dispatch_id: CTX, terminal_id: TERM, worktree_path: wt, actions_taken: `terminal_closed:${TERM};worktree_removed:${wt}`, timestamp: TS };
    expect(r.stdout).toBe(`${JSON.stringify({ record, dry_run: false })}\n`);
    // The close argv exactly (DECISIONS D4: never positional), and the worktree read BEFORE the close.
    expect(h.orcaCalls()).toEqual([SHOW, TSHOW, CLOSE]);
    expect(CLOSE).toEqual(["orca", "terminal", "close", "--terminal", TERM, "--json"]);
    const removeAt = h.calls.findIndex((c) => c.includes("remove"));
    expect(h.calls[removeAt]).toEqual(["git", "-C", f.repo, "worktree", "remove", wt]);
    expect(removeAt).toBeGreaterThan(h.calls.findIndex((c) => c.join(" ") === CLOSE.join(" ")));
    expect(existsSync(wt)).toBe(false);
    // Sorted keys, compact, event "reap", ts == timestamp.
    expect(readFileSync(ledgerPath(), "utf8")).toBe(`{"actions_taken":"terminal_closed:${TERM};worktree_removed:${wt}","dispatch_id":"${CTX}","event":"reap","task_id":"${TASK}","terminal_id":"${TERM}","timestamp":${TS},"ts":${TS},"worktree_path":"${wt}"}\n`);
  });

  test("pretty output without --json; the row is appended after existing rows", async () => {
    freshHome();
    writeFileSync(ledgerPath(), '{"event":"dispatch_submitted","dispatch_id":"ctx_a1b2c3d4e5f6","ts":1}\n');
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
      [CLOSE, closed],
    ]);
    const r = await run(["--task-id", TASK], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ record: { task_id: TASK, dispatch_id: CTX, terminal_id: TERM, worktree_path: null, actions_taken: `terminal_closed:${TERM}`, timestamp: TS }, dry_run: false });
    expect(r.stdout).toStartWith('{\n  "record": {\n');
    const lines = readFileSync(ledgerPath(), "utf8").split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(`{"actions_taken":"terminal_closed:${TERM}","dispatch_id":"${CTX}","event":"reap","task_id":"${TASK}","terminal_id":"${TERM}","timestamp":${TS},"ts":${TS},"worktree_path":null}`);
  });

  test("ledger resolution: --ledger beats $DISPATCH_GATE_LEDGER beats $MOGUI_HOME", async () => {
    freshHome();
    const table = (): Table => [
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
      [CLOSE, closed],
    ];
    const viaEnv = join(home, "env.jsonl");
    const viaFlag = join(home, "flag", "deep", "flag.jsonl"); // parent directories are created
    expect((await run(["--task-id", TASK], harness(table()).runner, { DISPATCH_GATE_LEDGER: viaEnv })).code).toBe(0);
    expect((await run(["--task-id", TASK, "--ledger", viaFlag], harness(table()).runner, { DISPATCH_GATE_LEDGER: viaEnv })).code).toBe(0);
    expect(readFileSync(viaEnv, "utf8").split("\n")).toHaveLength(2);
    expect(readFileSync(viaFlag, "utf8").split("\n")).toHaveLength(2);
    expect(existsSync(ledgerPath())).toBe(false);
  });

  test("terminal_not_found on close: terminal_already_closed:<h>, still exit 0 and a ledger row", async () => {
    freshHome();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, orcaError("terminal_not_found", "Terminal not found")],
      [TLIST, ok({ terminals: [], totalCount: 0, truncated: false })],
      [CLOSE, orcaError("terminal_not_found", "Terminal not found")],
    ]);
    const r = await run(["--task-id", TASK, "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toBe(`terminal_already_closed:${TERM}`);
    expect(readFileSync(ledgerPath(), "utf8")).toContain(`"actions_taken":"terminal_already_closed:${TERM}"`);
  });

  test.each(["terminal_gone", "terminal_handle_stale"])("%s on close is also 'already closed'", async (code) => {
    freshHome();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
      [CLOSE, orcaError(code, code)],
    ]);
    const r = await run(["--task-id", TASK, "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toBe(`terminal_already_closed:${TERM}`);
  });

  test("a dirty worktree is left with its reason: the reap still succeeds", async () => {
    freshHome();
    const wt = mergedWorktree();
    writeFileSync(join(wt, "wip.txt"), "unsaved\n");
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal(wt)],
      [CLOSE, closed],
    ]);
    const r = await run(["--task-id", TASK, "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toBe(`terminal_closed:${TERM};worktree_left:${wt}:Worktree has uncommitted changes`);
    expect(existsSync(join(wt, "wip.txt"))).toBe(true);
    expect(h.calls.some((c) => c.includes("remove"))).toBe(false);
  });

  test("--worktree overrides Orca's path (relative to the cwd) and skips the terminal lookup", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness([
      [SHOW, dispatch()],
      [CLOSE, closed],
    ]);
    const r = await runMain(["worker-reap", "--task-id", TASK, "--json", "--worktree", wt.split("/").pop()!], { env: env(), runner: h.runner, now: () => NOW, cwd: f.dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.worktree_path).toBe(wt);
    expect(h.orcaCalls()).toEqual([SHOW, CLOSE]);
    expect(existsSync(wt)).toBe(false);
  });
});

describe("where the worktree path comes from", () => {
  test("terminal show fails: falls back to terminal list", async () => {
    freshHome();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, orcaError("runtime_error", "boom")],
      [
        TLIST,
        ok({
          terminals: [
            { handle: "term_other", worktreePath: "/nope/other" },
            { handle: TERM, worktreeId: "r::/tmp/gone-wt", worktreePath: "/tmp/mogui-gone-wt" },
          ],
          totalCount: 2,
          truncated: false,
        }),
      ],
    ]);
    const r = await run(["--task-id", TASK, "--dry-run", "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record).toMatchObject({ worktree_path: "/tmp/mogui-gone-wt", actions_taken: `terminal_closed:${TERM};worktree_left:/tmp/mogui-gone-wt:Worktree path does not exist` });
    expect(h.orcaCalls()).toEqual([SHOW, TSHOW, TLIST]);
  });

  test("then to the legacy worktree_path of the flat shape", async () => {
    freshHome();
    const wt = mergedWorktree();
    const flat = { stdout: { dispatch_id: "dispatch_xyz", task_id: TASK, terminal_id: TERM, status: "COMPLETED", worktree_path: wt } };
    const h = harness([
      [SHOW, flat],
      [TSHOW, { code: 1, stderr: "Terminal not found" }],
      [TLIST, { code: 1, stderr: "Orca is not running" }],
      [CLOSE, closed],
    ]);
    const r = await run(["--task-id", TASK, "--json"], h.runner);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record).toEqual({ task_id: TASK, dispatch_id: "dispatch_xyz", terminal_id: TERM, worktree_path: wt, actions_taken: `terminal_closed:${TERM};worktree_removed:${wt}`, timestamp: TS });
    expect(h.orcaCalls()).toEqual([SHOW, TSHOW, TLIST, CLOSE]);
    expect(existsSync(wt)).toBe(false);
  });

  test("the real row's process_incarnation <repoId>::<path>@@... when no terminal knows a path", async () => {
    freshHome();
    const h = harness([[SHOW, dispatch({ assignee_handle: null, process_incarnation: "2b7c9d1e::/tmp/mogui-incarnation-wt@@pid:42" })]]);
    const r = await run(["--task-id", TASK, "--dry-run", "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record).toMatchObject({ terminal_id: null, worktree_path: "/tmp/mogui-incarnation-wt", actions_taken: "worktree_left:/tmp/mogui-incarnation-wt:Worktree path does not exist" });
  });

  test("folder workspace (folder:<uuid>, empty worktreePath): no worktree action at all", async () => {
    freshHome();
    const h = harness([
      [SHOW, dispatch({ process_incarnation: "2b7c9d1e::/should/not/be/used@@x" })],
      [TSHOW, terminal("", "folder:1f6e2d3c-aaaa-4bbb-8ccc-000000000001")],
      [CLOSE, closed],
    ]);
    const r = await run(["--task-id", TASK, "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record).toMatchObject({ worktree_path: null, actions_taken: `terminal_closed:${TERM}` });
    expect(h.calls.some((c) => c[0] === "git")).toBe(false);
  });

  test("no terminal and no path: an empty actions_taken", async () => {
    freshHome();
    const flat = { stdout: { dispatch_id: "dispatch_xyz", task_id: TASK, status: "FAILED" } };
    const h = harness([[SHOW, flat]]);
    const r = await run(["--task-id", TASK, "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record).toEqual({ task_id: TASK, dispatch_id: "dispatch_xyz", terminal_id: null, worktree_path: null, actions_taken: "", timestamp: TS });
  });
});

describe("--dispatch-id", () => {
  test("is resolved to its task through orchestration task-list", async () => {
    freshHome();
    const h = harness([
      [
        TASKS,
        ok({
          tasks: [
            { id: "task_ffffffffffff", status: "completed", dispatch_id: "ctx_ffffffffffff" },
            { id: TASK, status: "completed", dispatch_id: CTX, assignee_handle: TERM },
          ],
          count: 2,
        }),
      ],
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
    ]);
    const r = await run(["--dispatch-id", CTX, "--dry-run", "--json"], h.runner);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record).toMatchObject({ task_id: TASK, dispatch_id: CTX });
    expect(h.orcaCalls()).toEqual([TASKS, SHOW, TSHOW]);
  });

  test("not found in task-list: exit 1", async () => {
    freshHome();
    const h = harness([[TASKS, ok({ tasks: [{ id: "task_ffffffffffff", dispatch_id: "ctx_ffffffffffff" }], count: 1 })]]);
    const r = await run(["--dispatch-id", CTX], h.runner);
    expectError(r, 1, `worker-reap: Dispatch ${CTX} not found: no task in 'orca orchestration task-list' carries it\n`);
    expect(noLedgerRow()).toBe(true);
  });

  test("re-dispatched since: the latest dispatch is not the one asked for, exit 1", async () => {
    freshHome();
    const h = harness([
      [TASKS, ok({ tasks: [{ id: TASK, dispatch_id: CTX }], count: 1 })],
      [SHOW, dispatch({ id: "ctx_999999999999" })],
    ]);
    const r = await run(["--dispatch-id", CTX], h.runner);
    expectError(r, 1, /^worker-reap: Dispatch ctx_a1b2c3d4e5f6 is no longer the latest dispatch of task task_0123456789ab \(latest: ctx_999999999999\)/);
  });

  test("task-list itself failing passes orca's code through", async () => {
    freshHome();
    const h = harness([[TASKS, { code: 5, stderr: "weird failure" }]]);
    expectError(await run(["--dispatch-id", CTX], h.runner), 5, /^worker-reap: Failed to fetch dispatch: orca orchestration task-list failed: .*weird failure\n$/);
  });
});

describe("settled statuses (D7)", () => {
  const settled = ["completed", "accepted", "failed", "abandoned", "circuit_broken", "cancelled", "expired", "revoked"];
  const spellings = settled.flatMap((s) => [s, s.toUpperCase(), s[0]!.toUpperCase() + s.slice(1)]);
  test.each(spellings)("%s is settled: exit 0", async (status) => {
    freshHome();
    const h = harness([
      [SHOW, dispatch({ status })],
      [TSHOW, terminal("", "folder:6a0d")],
    ]);
    const r = await run(["--task-id", TASK, "--dry-run", "--json"], h.runner);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  test.each(["COMPLETED", "ACCEPTED", "FAILED", "ABANDONED"])("legacy flat %s is settled", async (status) => {
    freshHome();
    const h = harness([[SHOW, { stdout: { dispatch_id: "dispatch_xyz", task_id: TASK, terminal_id: null, status, worktree_path: null } }]]);
    const r = await run(["--task-id", TASK, "--dry-run", "--json"], h.runner);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ record: { task_id: TASK, dispatch_id: "dispatch_xyz", terminal_id: null, worktree_path: null, actions_taken: "", timestamp: TS }, dry_run: true });
  });
});

// ------------------------------------------------------------------------------------------------ exit 3

describe("exit 3: not settled", () => {
  test.each([
    ["dispatched", dispatch({ status: "dispatched" }), CTX],
    ["pending", dispatch({ status: "pending" }), CTX],
    ["ready", dispatch({ status: "ready" }), CTX],
    ["RUNNING", { stdout: { dispatch_id: "dispatch_xyz", task_id: TASK, terminal_id: TERM, status: "RUNNING", worktree_path: "/x" } }, "dispatch_xyz"],
    ["REGISTERED", { stdout: { dispatch_id: "dispatch_xyz", task_id: TASK, terminal_id: TERM, status: "REGISTERED" } }, "dispatch_xyz"],
    ["ISSUED", { stdout: { dispatch_id: "dispatch_xyz", task_id: TASK, status: "ISSUED" } }, "dispatch_xyz"],
  ] as const)("status %s: refused, nothing closed, no ledger row", async (status, reply, id) => {
    freshHome();
    const h = harness([[SHOW, reply as StubReply]]);
    const r = await run(["--task-id", TASK], h.runner);
    expectError(r, 3, `worker-reap: Dispatch ${id} is not settled (status: ${status}); refusing to reap open dispatch\n`);
    expect(h.orcaCalls()).toEqual([SHOW]);
    expect(noLedgerRow()).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------ exit 4 / passthrough

describe("exit 4: dispatch-show output is not a dispatch", () => {
  test.each([
    ["non-JSON", "Dispatched task_x -> ctx_y [completed]\n"],
    ["empty stdout", ""],
    ["a JSON array", "[1,2]"],
    ["JSON without a dispatch", JSON.stringify({ hello: "world" })],
    ["an envelope without a dispatch", JSON.stringify({ id: "r", ok: true, result: { tasks: [] }, _meta: {} })],
    ["a dispatch without a status", JSON.stringify({ id: "r", ok: true, result: { dispatch: { id: CTX } }, _meta: {} })],
  ])("%s", async (_name, stdout) => {
    freshHome();
    const h = harness([[SHOW, { stdout }]]);
    expectError(await run(["--task-id", TASK], h.runner), 4, /^worker-reap: Could not parse dispatch JSON: .+\n$/);
    expect(noLedgerRow()).toBe(true);
  });
});

describe("orca's own failures", () => {
  test("dispatch-show exits 7: exit 7 (passthrough)", async () => {
    freshHome();
    const h = harness([[SHOW, { code: 7, stderr: "something odd\n" }]]);
    expectError(await run(["--task-id", TASK], h.runner), 7, "worker-reap: Failed to fetch dispatch: orca orchestration dispatch-show failed: exit 7: something odd\n");
  });

  test("an error envelope (exit 1): exit 1 with Orca's code and message", async () => {
    freshHome();
    const h = harness([[SHOW, orcaError("runtime_unavailable", "Orca is not running")]]);
    expectError(await run(["--task-id", TASK], h.runner), 1, "worker-reap: Failed to fetch dispatch: orca orchestration dispatch-show failed: runtime_unavailable: Orca is not running\n");
  });

  test("{dispatch: null} (unknown task): exit 1", async () => {
    freshHome();
    const h = harness([[SHOW, ok({ dispatch: null })]]);
    expectError(await run(["--task-id", TASK], h.runner), 1, `worker-reap: No dispatch found for task ${TASK}\n`);
  });

  test("orca missing: exit 1, says so", async () => {
    freshHome();
    const h = harness([[SHOW, { missing: true }]]);
    expectError(await run(["--task-id", TASK], h.runner), 1, "worker-reap: Failed to fetch dispatch: orca orchestration dispatch-show: orca executable 'orca' not found (set ORCA_CLI_COMMAND)\n");
  });

  test("orca timeout: exit 1, with --timeout-ms passed to the runner", async () => {
    freshHome();
    const h = harness([[SHOW, { timedOut: true }]]);
    const r = await run(["--task-id", TASK, "--timeout-ms", "1500"], h.runner);
    expectError(r, 1, "worker-reap: Failed to fetch dispatch: orca orchestration dispatch-show: timed out after 1500 ms\n");
    expect(h.stub.calls[0]!.opts?.timeoutMs).toBe(1500);
  });

  test("orca killed by a signal: exit 1", async () => {
    freshHome();
    const h = harness([[SHOW, { signal: "SIGTERM" }]]);
    expectError(await run(["--task-id", TASK], h.runner), 1, "worker-reap: Failed to fetch dispatch: orca orchestration dispatch-show: killed by SIGTERM\n");
  });

  test("ORCA_CLI_COMMAND picks the executable", async () => {
    freshHome();
    const h = harness([[["orca-ide", "orchestration", "dispatch-show", "--task", TASK, "--json"], { missing: true }]]);
    expectError(await run(["--task-id", TASK], h.runner, { ORCA_CLI_COMMAND: "orca-ide" }), 1, /orca executable 'orca-ide' not found/);
  });
});

// ------------------------------------------------------------------------------------------------ exit 1 after settle

describe("exit 1: acting failed", () => {
  test("close fails: exit 1, worktree untouched, no ledger row", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal(wt)],
      [CLOSE, orcaError("runtime_unavailable", "Orca is not running")],
    ]);
    const r = await run(["--task-id", TASK], h.runner);
    expectError(r, 1, `worker-reap: Failed to close terminal ${TERM}: orca terminal close failed: runtime_unavailable: Orca is not running\n`);
    expect(existsSync(wt)).toBe(true);
    expect(h.calls.some((c) => c[0] === "git")).toBe(false);
    expect(noLedgerRow()).toBe(true);
  });

  test("terminal_stop_live envelope (the PTY survived the close): exit 1", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal(wt)],
      [CLOSE, orcaError("terminal_stop_live", "Terminal closed but its process is still running", { close: { handle: TERM, tabId: "tab1", ptyKilled: false, ptyStopVerdict: "live" } })],
    ]);
    const r = await run(["--task-id", TASK], h.runner);
    expectError(r, 1, `worker-reap: Failed to close terminal ${TERM}: orca terminal close failed: terminal_stop_live: Terminal closed but its process is still running\n`);
    expect(existsSync(wt)).toBe(true);
    expect(noLedgerRow()).toBe(true);
  });

  test("an ok close reply that still says ptyKilled:false is no close: exit 1", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal(wt)],
      [CLOSE, ok({ close: { handle: TERM, tabId: "tab1", ptyKilled: false } })],
    ]);
    const r = await run(["--task-id", TASK], h.runner);
    expectError(r, 1, `worker-reap: Failed to close terminal ${TERM}: orca reports the PTY still alive (ptyKilled:false)\n`);
    expect(existsSync(wt)).toBe(true);
    expect(noLedgerRow()).toBe(true);
  });

  test("close times out: exit 1", async () => {
    freshHome();
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
      [CLOSE, { timedOut: true }],
    ]);
    expectError(await run(["--task-id", TASK], h.runner), 1, `worker-reap: Failed to close terminal ${TERM}: orca terminal close: timed out after 30000 ms\n`);
    expect(noLedgerRow()).toBe(true);
  });

  test("worktree remove fails: exit 1, the directory stays, no ledger row", async () => {
    freshHome();
    const wt = mergedWorktree();
    const h = harness(
      [
        [SHOW, dispatch()],
        [TSHOW, terminal(wt)],
        [CLOSE, closed],
      ],
      (argv) => (argv.includes("remove") ? { argv: [...argv], code: 128, signal: null, stdout: "", stderr: "fatal: cannot remove: Device or resource busy\n", timedOut: false, missing: false } : undefined),
    );
    const r = await run(["--task-id", TASK], h.runner);
    expectError(r, 1, `worker-reap: Failed to remove worktree ${wt}: git: exit 128: fatal: cannot remove: Device or resource busy\n`);
    expect(existsSync(wt)).toBe(true);
    expect(noLedgerRow()).toBe(true);
  });

  test("the ledger becomes unwritable after acting: record printed, warning, exit 1", async () => {
    freshHome();
    const ledger = join(home, "l.jsonl");
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
      [
        CLOSE,
        () => {
          // Someone replaces the ledger with a directory while we act.
          rmSync(ledger, { force: true });
          mkdirSync(ledger);
          return { stdout: JSON.stringify({ id: "r", ok: true, result: { close: { handle: TERM, ptyKilled: true } }, _meta: {} }) };
        },
      ],
    ]);
    const r = await run(["--task-id", TASK, "--json", "--ledger", ledger], h.runner);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).record.actions_taken).toBe(`terminal_closed:${TERM}`);
    expect(r.stderr).toStartWith(`worker-reap: reaped, but the ledger row was not written: ${ledger}: `);
  });
});

// ------------------------------------------------------------------------------------------------ exit 2

describe("exit 2: usage and ledger", () => {
  const hint = "Run 'mogui worker-reap --help' for usage.\n";
  test.each([
    ["no id", [], "mogui: one of --task-id, --dispatch-id is required\n"],
    ["both ids", ["--task-id", TASK, "--dispatch-id", CTX], "mogui: flags --task-id, --dispatch-id cannot be used together\n"],
    ["unknown flag", ["--task-id", TASK, "--force"], "mogui: unknown flag --force for 'mogui worker-reap'\n"],
    ["the original's positional close style", ["--task-id", TASK, "extra"], "mogui: unexpected argument 'extra'\n"],
    ["--timeout-ms abc", ["--task-id", TASK, "--timeout-ms", "abc"], "mogui: --timeout-ms must be a whole number from 1 to 3600000 (got 'abc')\n"],
    ["--timeout-ms 0", ["--task-id", TASK, "--timeout-ms", "0"], "mogui: --timeout-ms must be a whole number from 1 to 3600000 (got '0')\n"],
    ["--timeout-ms -5", ["--task-id", TASK, "--timeout-ms", "-5"], "mogui: --timeout-ms must be a whole number from 1 to 3600000 (got '-5')\n"],
    ["--timeout-ms 1.5", ["--task-id", TASK, "--timeout-ms", "1.5"], "mogui: --timeout-ms must be a whole number from 1 to 3600000 (got '1.5')\n"],
    ["--timeout-ms too big", ["--task-id", TASK, "--timeout-ms", "3600001"], "mogui: --timeout-ms must be a whole number from 1 to 3600000 (got '3600001')\n"],
    ["--timeout-ms without a value", ["--task-id", TASK, "--timeout-ms"], "mogui: flag --timeout-ms needs a value\n"],
    ["empty --task-id", ["--task-id", ""], "mogui: --task-id must not be empty\n"],
    ["--unreaped with --task-id", ["--unreaped", "--task-id", TASK], "mogui: flags --task-id, --unreaped cannot be used together\n"],
    ["--unreaped with --dry-run", ["--unreaped", "--dry-run"], "mogui: flags --unreaped, --dry-run cannot be used together\n"],
  ])("%s", async (_name, argv, msg) => {
    freshHome();
    const h = harness([]);
    const r = await run(argv as string[], h.runner);
    expectError(r, 2, msg + hint);
    expect(h.calls).toEqual([]);
  });

  test("ledger path is a directory: LEDGER_UNAVAILABLE, nothing asked of orca, nothing closed", async () => {
    freshHome();
    const dir = join(home, "a-dir");
    mkdirSync(dir);
    const h = harness([]);
    const r = await run(["--task-id", TASK, "--ledger", dir], h.runner);
    expectError(r, 2, new RegExp(`^worker-reap: LEDGER_UNAVAILABLE: ${dir}: not writable: EISDIR: .*\\n$`));
    expect(h.calls).toEqual([]);
  });

  test("ledger parent is a file: LEDGER_UNAVAILABLE", async () => {
    freshHome();
    const file = join(home, "plain");
    writeFileSync(file, "x");
    const h = harness([]);
    const r = await run(["--task-id", TASK, "--ledger", join(file, "l.jsonl")], h.runner);
    expectError(r, 2, /^worker-reap: LEDGER_UNAVAILABLE: .*plain\/l\.jsonl: not writable: (ENOTDIR|EEXIST): .*\n$/);
    expect(h.calls).toEqual([]);
  });

  test("an unwritable ledger does not matter to a dry run", async () => {
    freshHome();
    const dir = join(home, "a-dir");
    mkdirSync(dir);
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
    ]);
    expect((await run(["--task-id", TASK, "--dry-run", "--ledger", dir], h.runner)).code).toBe(0);
  });
});

// ------------------------------------------------------------------------------------------------ --unreaped

describe("--unreaped", () => {
  const rows = [
    { ts: 90, decision: "ALLOW", tier: "t1" }, // a gate row: not a lifecycle row
    { event: "dispatch_submitted", dispatch_id: "ctx_000000000001", task_id: "task_000000000001", status: "dispatched", ts: 100 },
    { event: "dispatch_submitted", dispatch_id: "ctx_000000000002", task_id: "task_000000000002", ts: 101 },
    { event: "dispatch_submitted", dispatch_id: "ctx_000000000003", task_id: "task_000000000003", ts: 102 },
    { event: "dispatch_submitted", dispatch_id: "ctx_000000000004", task_id: "task_000000000004", ts: 103 },
    { event: "dispatch_completed", dispatch_id: "ctx_000000000001", status: "completed", ts: 200 },
    { event: "dispatch_completed", dispatch_id: "ctx_000000000002", status: "FAILED", ts: 150 },
    { event: "dispatch_completed", dispatch_id: "ctx_000000000003", status: "completed", ts: 160 },
    { event: "reap", dispatch_id: "ctx_000000000003", task_id: "task_000000000003", actions_taken: "terminal_closed:t", ts: 170, timestamp: 170 },
  ];
  const write = (extra = "") => {
    const p = join(home, "dispatch-ledger.jsonl");
    writeFileSync(p, rows.map((r) => `${JSON.stringify(r)}\n`).join("") + extra);
    return p;
  };

  test("text: settled and not reaped, oldest settle first; open and reaped dispatches are not listed", async () => {
    freshHome();
    write();
    const r = await run(["--unreaped"], harness([]).runner);
    expect(r).toEqual({
      code: 0,
      stderr: "",
      stdout: "ctx_000000000002\ttask=task_000000000002\tstatus=FAILED\t(settled, not yet reaped)\nctx_000000000001\ttask=task_000000000001\tstatus=completed\t(settled, not yet reaped)\n",
    });
  });

  test("--json: exact keys", async () => {
    freshHome();
    const p = write();
    const r = await run(["--unreaped", "--json"], harness([]).runner);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `{"ledger":"${p}","count":2,"unreaped":[` +
        `{"dispatch_id":"ctx_000000000002","task_id":"task_000000000002","status":"FAILED","submitted_at":101,"settled_at":150},` +
        `{"dispatch_id":"ctx_000000000001","task_id":"task_000000000001","status":"completed","submitted_at":100,"settled_at":200}]}\n`,
    );
  });

  test("an empty or missing ledger lists nothing", async () => {
    freshHome();
    const r = await run(["--unreaped"], harness([]).runner);
    expect(r).toEqual({ code: 0, stderr: "", stdout: `No settled dispatches awaiting reap in ${ledgerPath()}.\n` });
    const j = await run(["--unreaped", "--json"], harness([]).runner);
    expect(j.stdout).toBe(`{"ledger":"${ledgerPath()}","count":0,"unreaped":[]}\n`);
  });

  test("a corrupt line in the middle: exit 2 naming the line", async () => {
    freshHome();
    const p = join(home, "dispatch-ledger.jsonl");
    writeFileSync(p, `${JSON.stringify(rows[1])}\n{"event":"dispatch_completed",\n${JSON.stringify(rows[5])}\n`);
    const r = await run(["--unreaped"], harness([]).runner);
    expectError(r, 2, new RegExp(`^worker-reap: LEDGER_UNAVAILABLE: ${p}:2: corrupt line \\(invalid JSON: .*\\)\\n$`));
  });

  test("a lifecycle row without dispatch_id: exit 2 naming the line", async () => {
    freshHome();
    const p = join(home, "dispatch-ledger.jsonl");
    writeFileSync(p, `${JSON.stringify(rows[1])}\n${JSON.stringify(rows[2])}\n{"event":"dispatch_completed","status":"failed"}\n`);
    const r = await run(["--unreaped"], harness([]).runner);
    expectError(r, 2, new RegExp(`^worker-reap: LEDGER_UNAVAILABLE: ${p}:3: dispatch_completed row: .*dispatch_id.*\\n$`));
  });

  test("a torn last line: warning on stderr, rows before it still listed, exit 0", async () => {
    freshHome();
    const p = write('{"event":"reap","dispatch_id":"ctx_0000');
    const r = await run(["--unreaped", "--json"], harness([]).runner);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`worker-reap: warning: ${p}:10: torn last line (a writer died mid-append); skipped\n`);
    expect(JSON.parse(r.stdout).count).toBe(2);
  });

  test("round trip: a reap by this command removes the dispatch from --unreaped", async () => {
    freshHome();
    writeFileSync(ledgerPath(), `${JSON.stringify({ event: "dispatch_submitted", dispatch_id: CTX, task_id: TASK, ts: 1 })}\n${JSON.stringify({ event: "dispatch_completed", dispatch_id: CTX, status: "completed", ts: 2 })}\n`);
    expect(JSON.parse((await run(["--unreaped", "--json"], harness([]).runner)).stdout).count).toBe(1);
    const h = harness([
      [SHOW, dispatch()],
      [TSHOW, terminal("", "folder:6a0d")],
      [CLOSE, closed],
    ]);
    expect((await run(["--task-id", TASK], h.runner)).code).toBe(0);
    expect((await run(["--unreaped"], harness([]).runner)).stdout).toBe(`No settled dispatches awaiting reap in ${ledgerPath()}.\n`);
  });
});
