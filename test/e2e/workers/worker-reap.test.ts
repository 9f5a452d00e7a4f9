/**
 * worker-reap end to end: the compiled binary, the Orca simulator through fixtures/bin first on PATH, real temp
 * git repos with a bare origin. One test per exit code and per fault the simulator can inject.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { addWorktree, makeRepo, sh, squashMerge, type Fixture } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";

const WORKER = "term_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const TASK = "task_1a2b3c4d5e6f";
const DISPATCH = "ctx_9f8e7d6c5b4a";

interface World {
  f: Fixture;
  wt: string;
  env: Record<string, string>;
  ledger: string;
  calls: () => string[][];
}

/** The `settled` (or `basic`) scenario over a real repo: ${ROOT}/repo + ${ROOT}/wt-feature on branch feature. */
function world(opts: { scenario?: string; merged?: boolean; env?: Record<string, string> } = {}): World {
  const root = tempDir("reap-e2e-");
  const f = makeRepo(root);
  const wt = addWorktree(f, "feature");
  if (opts.merged !== false) squashMerge(f, "feature");
  const callLog = join(root, "orca-calls.jsonl");
  const env = e2eEnv({
    ORCA_SIM_STATE: join(root, "orca-state.json"),
    ORCA_SIM_SCENARIO: opts.scenario ?? "settled",
    ORCA_SIM_ROOT: root,
    ORCA_SIM_CALL_LOG: callLog,
    MOGUI_HOME: join(root, "home"),
    ...opts.env,
  });
  const calls = () =>
    existsSync(callLog)
      ? readFileSync(callLog, "utf8")
          .trim()
          .split("\n")
          .map((l) => (JSON.parse(l) as { argv: string[] }).argv)
      : [];
  return { f, wt, env, ledger: join(root, "home", "dispatch-ledger.jsonl"), calls };
}

const reap = (w: World, ...args: string[]) => runBinary(["worker-reap", ...args], { env: w.env });
const isClose = (argv: string[]) => argv[0] === "terminal" && argv[1] === "close";

describe("worker-reap e2e: exit 0", () => {
  test("squash-merged worktree: terminal closed, worktree removed, one exact ledger row", async () => {
    const w = world();
    const r = await reap(w, "--task-id", TASK, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(["record", "dry_run"]);
    expect(Object.keys(out.record)).toEqual(["task_id", "dispatch_id", "terminal_id", "worktree_path", "actions_taken", "timestamp"]);
    expect(out.record.actions_taken).toBe(`terminal_closed:${WORKER};worktree_removed:${w.wt}`);
    expect(out.dry_run).toBe(false);
    expect(existsSync(w.wt)).toBe(false);
    expect(sh(w.f.repo, "worktree", "list")).not.toContain("wt-feature");
    // The terminal record was read BEFORE the close, and the close used --terminal (never positional).
    const calls = w.calls();
    const show = calls.findIndex((a) => a[0] === "terminal" && a[1] === "show");
    const close = calls.findIndex(isClose);
    expect(show).toBeGreaterThanOrEqual(0);
    expect(close).toBeGreaterThan(show);
    expect(calls[close]).toEqual(["terminal", "close", "--terminal", WORKER, "--json"]);
    const gone = await runBinary(["sim", "orca", "terminal", "show", "--terminal", WORKER, "--json"], { env: w.env });
    expect(JSON.parse(gone.stdout).error.code).toBe("terminal_not_found");
    const ts = out.record.timestamp;
    expect(readFileSync(w.ledger, "utf8")).toBe(
      `{"actions_taken":"terminal_closed:${WORKER};worktree_removed:${w.wt}","dispatch_id":"${DISPATCH}","event":"reap","task_id":"${TASK}","terminal_id":"${WORKER}","timestamp":${ts},"ts":${ts},"worktree_path":"${w.wt}"}\n`,
    );
  });

  test("dry run: indented JSON, nothing closed, removed or written", async () => {
    const w = world();
    await runBinary(["sim", "orca", "status", "--json"], { env: w.env }); // seed the state file
    const before = readFileSync(w.env.ORCA_SIM_STATE!, "utf8");
    const r = await reap(w, "--task-id", TASK, "--dry-run");
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith('{\n  "record": {\n    "task_id": "task_1a2b3c4d5e6f",');
    expect(JSON.parse(r.stdout).dry_run).toBe(true);
    expect(JSON.parse(r.stdout).record.actions_taken).toBe(`terminal_closed:${WORKER};worktree_removed:${w.wt}`);
    expect(existsSync(w.wt)).toBe(true);
    expect(existsSync(w.ledger)).toBe(false);
    expect(w.calls().some(isClose)).toBe(false);
    expect(readFileSync(w.env.ORCA_SIM_STATE!, "utf8")).toBe(before);
  });

  test("unmerged work: terminal closed, worktree left with the reason", async () => {
    const w = world({ merged: false });
    const r = await reap(w, "--task-id", TASK, "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toBe(`terminal_closed:${WORKER};worktree_left:${w.wt}:Current branch feature is not merged to origin/main (branch changes are not included in origin/main)`);
    expect(existsSync(w.wt)).toBe(true);
  });

  test("dirty worktree is left even though its branch is merged", async () => {
    const w = world();
    writeFileSync(join(w.wt, "scratch.txt"), "not committed\n");
    const r = await reap(w, "--task-id", TASK, "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toEndWith(`worktree_left:${w.wt}:Worktree has uncommitted changes`);
    expect(readFileSync(join(w.wt, "scratch.txt"), "utf8")).toBe("not committed\n");
  });

  test("--dispatch-id is resolved through task-list (dispatch-show only takes --task)", async () => {
    const w = world();
    const r = await reap(w, "--dispatch-id", DISPATCH, "--dry-run", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.task_id).toBe(TASK);
    const calls = w.calls();
    expect(calls.some((a) => a.join(" ") === "orchestration task-list --json")).toBe(true);
    expect(calls.some((a) => a.join(" ") === `orchestration dispatch-show --task ${TASK} --json`)).toBe(true);
    expect(calls.some((a) => a.includes("--dispatch"))).toBe(false);
  });

  test("fault legacy: the flat dispatch-show shape with an uppercase status is reaped", async () => {
    const w = world({ env: { ORCA_SIM_FAULT: "orchestration dispatch-show=legacy" } });
    const r = await reap(w, "--task-id", TASK, "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record).toMatchObject({ dispatch_id: DISPATCH, terminal_id: WORKER, worktree_path: w.wt });
    expect(existsSync(w.wt)).toBe(false);
  });

  test("a second reap finds the terminal gone: terminal_already_closed, exit 0", async () => {
    const w = world({ merged: false });
    expect((await reap(w, "--task-id", TASK)).code).toBe(0);
    const again = await reap(w, "--task-id", TASK, "--json", "--worktree", w.wt);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).record.actions_taken).toStartWith(`terminal_already_closed:${WORKER};worktree_left:`);
  });

  test("--unreaped lists settled-but-unreaped dispatches, and not after the reap", async () => {
    const w = world();
    const rows = [
      { event: "dispatch_submitted", dispatch_id: DISPATCH, task_id: TASK, status: "dispatched", ts: 1 },
      { event: "dispatch_completed", dispatch_id: DISPATCH, task_id: TASK, status: "completed", ts: 2 },
    ];
    await Bun.write(w.ledger, rows.map((x) => `${JSON.stringify(x)}\n`).join(""));
    const before = await reap(w, "--unreaped", "--json");
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({
      ledger: w.ledger,
      count: 1,
      unreaped: [{ dispatch_id: DISPATCH, task_id: TASK, status: "completed", submitted_at: 1, settled_at: 2 }],
    });
    expect((await reap(w, "--task-id", TASK)).code).toBe(0);
    const after = await reap(w, "--unreaped");
    expect(after).toEqual({ code: 0, stdout: `No settled dispatches awaiting reap in ${w.ledger}.\n`, stderr: "" });
  });
});

describe("worker-reap e2e: refusals and failures", () => {
  test("exit 3: an open dispatch is refused with the exact message, nothing touched", async () => {
    const w = world({ scenario: "basic" });
    const r = await reap(w, "--task-id", TASK);
    expect(r).toEqual({ code: 3, stdout: "", stderr: `worker-reap: Dispatch ${DISPATCH} is not settled (status: dispatched); refusing to reap open dispatch\n` });
    expect(w.calls().some(isClose)).toBe(false);
    expect(existsSync(w.wt)).toBe(true);
  });

  test("exit 4: malformed dispatch-show output", async () => {
    const w = world({ env: { ORCA_SIM_FAULT: "orchestration dispatch-show=malformed" } });
    const r = await reap(w, "--task-id", TASK);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("worker-reap: Could not parse dispatch JSON:");
  });

  test("passthrough: dispatch-show's own exit code", async () => {
    const w = world({ env: { ORCA_SIM_FAULT: "orchestration dispatch-show=exit:7" } });
    const r = await reap(w, "--task-id", TASK);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("worker-reap: Failed to fetch dispatch:");
  });

  test("error_envelope from dispatch-show: orca's exit 1 with its error code named", async () => {
    const w = world({ env: { ORCA_SIM_FAULT: "orchestration dispatch-show=error_envelope" } });
    const r = await reap(w, "--task-id", TASK);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("runtime_error: injected failure");
  });

  test("hang: a dispatch-show that never answers is killed at --timeout-ms, exit 1", async () => {
    const w = world({ env: { ORCA_SIM_FAULT: "orchestration dispatch-show=hang" } });
    const t0 = performance.now();
    const r = await reap(w, "--task-id", TASK, "--timeout-ms", "500");
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("timed out after 500 ms");
  });

  test("survive_close: the terminal survives, exit 1, worktree untouched, no ledger row", async () => {
    const w = world({ env: { ORCA_SIM_FAULT: "terminal close=survive_close" } });
    const r = await reap(w, "--task-id", TASK);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(`worker-reap: Failed to close terminal ${WORKER}:`);
    expect(r.stderr).toContain("terminal_stop_live");
    expect(existsSync(w.wt)).toBe(true);
    expect(existsSync(w.ledger) ? readFileSync(w.ledger, "utf8") : "").toBe("");
  });

  test("terminal close failing with its own code passes that code through", async () => {
    const w = world({ env: { ORCA_SIM_FAULT: "terminal close=exit:5" } });
    const r = await reap(w, "--task-id", TASK);
    expect(r.code).toBe(5);
    expect(existsSync(w.wt)).toBe(true);
  });

  test("git failing mid-check leaves the worktree with the reason", async () => {
    const w = world({ env: { FAKE_GIT_FAIL: "merge-tree" } });
    const r = await reap(w, "--task-id", TASK, "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toContain(`worktree_left:${w.wt}:Could not merge-tree: git: exit 128: fatal: injected failure (merge-tree)`);
    expect(existsSync(w.wt)).toBe(true);
  });

  test("orca missing: exit 1 naming the executable", async () => {
    const w = world({ env: { ORCA_CLI_COMMAND: "/nonexistent/orca" } });
    const r = await reap(w, "--task-id", TASK);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("orca executable '/nonexistent/orca' not found");
  });

  test("exit 2: usage errors print one line and a hint, nothing on stdout", async () => {
    const w = world();
    for (const args of [[], ["--task-id", TASK, "--dispatch-id", DISPATCH], ["--task-id"], ["--task-id", TASK, "--bogus"], ["--task-id", TASK, "--timeout-ms", "soon"]]) {
      const r = await reap(w, ...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(2);
      expect(r.stderr).toContain("Run 'mogui worker-reap --help' for usage.");
    }
    expect(w.calls()).toEqual([]);
  });

  test("exit 2: an unwritable ledger stops the reap before anything is closed", async () => {
    const w = world();
    const blocker = join(w.f.dir, "not-a-dir");
    writeFileSync(blocker, "");
    const r = await reap(w, "--task-id", TASK, "--ledger", join(blocker, "ledger.jsonl"));
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("worker-reap: LEDGER_UNAVAILABLE:");
    expect(w.calls()).toEqual([]);
    expect(existsSync(w.wt)).toBe(true);
  });

  test("exit 2: --unreaped on a ledger with a corrupt line names the line", async () => {
    const w = world();
    await Bun.write(w.ledger, '{"event":"reap","dispatch_id":"a"}\nnot json\n{"event":"reap","dispatch_id":"b"}\n');
    const r = await reap(w, "--unreaped");
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith(`worker-reap: LEDGER_UNAVAILABLE: ${w.ledger}:2: corrupt line`);
  });
});

describe("worker-reap e2e: work git status cannot see (D31)", () => {
  test("an ignored .env: the dry run names it, the reap leaves it, --allow-ignored removes the worktree", async () => {
    const w = world();
    // The worktree's own exclude file (shared info/exclude) ignores .env for every worktree of the repository.
    writeFileSync(join(w.f.repo, ".git", "info", "exclude"), ".env\n");
    writeFileSync(join(w.wt, ".env"), "API_TOKEN=the-only-copy\n");
    const dry = await reap(w, "--task-id", TASK, "--dry-run", "--json");
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).record.actions_taken).toBe(`terminal_closed:${WORKER};worktree_left:${w.wt}:precious_ignored:.env`);
    const r = await reap(w, "--task-id", TASK, "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toEndWith(`worktree_left:${w.wt}:precious_ignored:.env`);
    expect(readFileSync(join(w.wt, ".env"), "utf8")).toBe("API_TOKEN=the-only-copy\n");
    const lifted = await reap(w, "--task-id", TASK, "--worktree", w.wt, "--allow-ignored", "--json");
    expect(lifted.code).toBe(0);
    expect(JSON.parse(lifted.stdout).record.actions_taken).toEndWith(`worktree_removed:${w.wt}`);
    expect(existsSync(w.wt)).toBe(false);
  });

  test("an edit hidden by --skip-worktree is left as hidden_index_flags, even with --allow-ignored", async () => {
    const w = world();
    sh(w.wt, "update-index", "--skip-worktree", "feature.txt");
    writeFileSync(join(w.wt, "feature.txt"), "hidden edit\n");
    const r = await reap(w, "--task-id", TASK, "--allow-ignored", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record.actions_taken).toEndWith(`worktree_left:${w.wt}:hidden_index_flags`);
    expect(readFileSync(join(w.wt, "feature.txt"), "utf8")).toBe("hidden edit\n");
  });

  test("the policy's reap.precious_ignored replaces the set; a malformed one is exit 2 before anything is closed", async () => {
    const w = world();
    writeFileSync(join(w.f.repo, ".git", "info", "exclude"), "*.sqlite\n");
    writeFileSync(join(w.wt, "state.sqlite"), "local db\n");
    const policy = join(w.f.dir, "policy.json");
    writeFileSync(policy, JSON.stringify({ reap: { precious_ignored: ["*.sqlite"] } }));
    const r = await reap(w, "--task-id", TASK, "--dry-run", "--policy", policy, "--json");
    expect(JSON.parse(r.stdout).record.actions_taken).toEndWith(`worktree_left:${w.wt}:precious_ignored:state.sqlite`);
    writeFileSync(policy, JSON.stringify({ reap: { precious_ignored: "*.sqlite" } }));
    const callsBefore = w.calls().length;
    const bad = await reap(w, "--task-id", TASK, "--policy", policy);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toStartWith(`worker-reap: surface policy ${policy}: `);
    expect(w.calls()).toHaveLength(callsBefore);
    expect(existsSync(w.wt)).toBe(true);
  });
});
