/**
 * D41 end to end: dispatches made the way the original's users make them — `dispatch-gate check` + `dispatch-gate
 * register --orchestration-task`, the worker in an Orca terminal, no `mogui dispatch` rows, no worktree in any mogui
 * row — reconciled by `fleet scan` / `fleet reap` against the Orca and herdr simulators (built to the documented
 * shapes: task-list, dispatch-show --task, terminal list, terminal close --terminal, herdr pane list / pane close).
 *
 * Worktrees (all clean and merged, so only the bindings decide):
 *   wt-open    task dispatched (running)                   -> open (register), left; its terminal stays
 *   wt-done    task completed in Orca only                  -> settled by Orca: terminal closed, removed, row appended
 *   wt-failed  task failed in Orca only, a process inside   -> settled, drift orca_settled_process_running; reaped
 *   wt-stray   a live Orca terminal no record knows         -> open (orca), drift unknown_terminal, left
 *   wt-herdr   a live herdr pane no record knows            -> open (herdr), drift unknown_terminal, left
 *   wt-lost    an open job whose recorded pane is gone      -> open (job), drift ledger_open_no_terminal, left
 * plus a register row whose task Orca no longer has       -> unplaced, drift task_gone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { addWorktree, makeRepo, mergeBranch, sh, type Fixture } from "../../helpers/git.ts";

let f: Fixture;
let env: Record<string, string>;
const wt: Record<string, string> = {};
const kids: Bun.Subprocess[] = [];
const T = (k: string) => `term_${k.padEnd(8, "0")}-0000-4000-8000-000000000000`;
const TASK = (k: string) => `task_${k.padStart(12, "0")}`;

function orcaState(): Record<string, any> {
  return JSON.parse(readFileSync(env.ORCA_SIM_STATE!, "utf8"));
}
function setTask(task: string, status: string): void {
  const s = orcaState();
  s.tasks.find((t: { id: string }) => t.id === task).status = status;
  const d = s.dispatches.find((x: { task_id: string }) => x.task_id === task);
  if (d) d.status = status;
  writeFileSync(env.ORCA_SIM_STATE!, JSON.stringify(s));
}

async function run(args: string[]) {
  return runBinary(args, { env, cwd: f.dir });
}

async function gateRegister(job: string, task: string): Promise<void> {
  const contract = join(f.dir, `${job}.md`);
  writeFileSync(contract, `implement ${job}\n`);
  const c = await run(["dispatch-gate", "check", "--runtime", "codex", "--model", "m-eff", "--contract", contract, "--agents", "1", "--completion-channel", "orchestration"]);
  expect({ job, code: c.code, err: c.stderr }).toEqual({ job, code: 0, err: "" });
  const r = await run(["dispatch-gate", "register", "--job-id", job, "--probe-cmd", `echo ${job}`, "--orchestration-task", task]);
  expect({ job, code: r.code, err: r.stderr }).toEqual({ job, code: 0, err: "" });
}

beforeAll(async () => {
  f = makeRepo();
  for (const k of ["open", "done", "failed", "stray", "herdr", "lost"]) {
    wt[k] = addWorktree(f, k);
    mergeBranch(f, k);
  }
  const home = join(f.dir, "home");
  const terminal = (k: string, path: string) => ({ handle: T(k), worktreePath: path, title: k, agent: "claude", alive: true, output: ["$ claude"] });
  const scenario = {
    repos: [{ id: "3f2c9a10-5b7d-4e21-8c3a-9d0e1f2a3b4c", path: f.repo, displayName: "repo", kind: "git" }],
    terminals: [terminal("coord", f.repo), terminal("open", wt.open!), terminal("done", wt.done!), terminal("failed", wt.failed!), terminal("stray", wt.stray!)],
    runs: [{ id: "run_000000000001", objective: "fleet", coordinator_handle: T("coord") }],
    tasks: ["a", "b", "c", "d"].map((k) => ({ id: TASK(k), run_id: "run_000000000001", spec: `task ${k}`, status: "dispatched" })),
    dispatches: [
      { id: "ctx_00000000000a", task_id: TASK("a"), assignee_handle: T("open"), status: "dispatched" },
      { id: "ctx_00000000000b", task_id: TASK("b"), assignee_handle: T("done"), status: "dispatched" },
      { id: "ctx_00000000000c", task_id: TASK("c"), assignee_handle: T("failed"), status: "dispatched" },
      { id: "ctx_00000000000d", task_id: TASK("d"), assignee_handle: T("coord"), status: "dispatched" },
    ],
  };
  writeFileSync(join(f.dir, "orca-scenario.json"), JSON.stringify(scenario));
  writeFileSync(join(f.dir, "herdr-scenario.json"), JSON.stringify({ workspaces: [{ workspace_id: "w1", label: "workers", focused: false }], panes: [{ pane_id: "w1:p1", tab_id: "w1:t1", cwd: wt.herdr }] }));
  writeFileSync(join(`${home}-jobs.jsonl`), `${JSON.stringify({ event: "job_spawned", ts: 1, job_id: "job-lost", worktree: wt.lost, host: "herdr", pane_id: "w1:p9" })}\n`);
  env = e2eEnv({
    MOGUI_HOME: home,
    HOME: home,
    MOGUI_JOBS_LEDGER: `${home}-jobs.jsonl`,
    CLAUDE_CONFIG_DIR: join(f.dir, "claude"),
    CODEX_HOME: join(f.dir, "codex"),
    ORCA_SIM_STATE: join(f.dir, "orca-state.json"),
    ORCA_SIM_SCENARIO: join(f.dir, "orca-scenario.json"),
    HERDR_SIM_STATE: join(f.dir, "herdr-state.json"),
    HERDR_SIM_SCENARIO: join(f.dir, "herdr-scenario.json"),
  });
  // Dispatches through the gate only; then Orca alone moves two of them on, and forgets one task.
  await gateRegister("job-open", TASK("a"));
  await gateRegister("job-done", TASK("b"));
  await gateRegister("job-failed", TASK("c"));
  await gateRegister("job-gone", TASK("d"));
  setTask(TASK("b"), "completed");
  setTask(TASK("c"), "failed");
  const s = orcaState();
  s.tasks = s.tasks.filter((t: { id: string }) => t.id !== TASK("d"));
  s.dispatches = s.dispatches.filter((d: { task_id: string }) => d.task_id !== TASK("d"));
  writeFileSync(env.ORCA_SIM_STATE!, JSON.stringify(s));
  const p = Bun.spawn(["sleep", "600"], { cwd: wt.failed, stdout: "ignore", stderr: "ignore" });
  kids.push(p);
  await Bun.sleep(50);
  // No mogui row names any of these worktrees.
  expect(readFileSync(join(home, "dispatch-ledger.jsonl"), "utf8")).not.toContain(`${f.dir}/wt-`);
}, 120_000);

afterAll(() => {
  for (const k of kids) if (k.exitCode === null) k.kill("SIGKILL");
});

describe("fleet scan reconciles gate-registered dispatches with Orca and herdr (D41)", () => {
  test("source, state and drift per worktree; --json carries them; the vanished task is reported", async () => {
    const r = await run(["fleet", "scan", "--repo", f.repo, "--json"]);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: "" });
    const doc = JSON.parse(r.stdout);
    const by = (p: string) => doc.worktrees.find((w: { path: string }) => w.path === p);
    const view = (p: string) => {
      const w = by(p);
      return { state: w.state, source: w.source, id: w.binding?.id ?? null, drift: w.drift };
    };
    expect(view(wt.open!)).toEqual({ state: "open", source: "register", id: "job-open", drift: [] });
    expect(view(wt.done!)).toEqual({ state: "settled", source: "register", id: "job-done", drift: [] });
    expect(view(wt.failed!)).toEqual({ state: "settled", source: "register", id: "job-failed", drift: ["orca_settled_process_running"] });
    expect(view(wt.stray!)).toEqual({ state: "open", source: "orca", id: T("stray"), drift: ["unknown_terminal"] });
    expect(view(wt.herdr!)).toEqual({ state: "open", source: "herdr", id: "w1:p1", drift: ["unknown_terminal"] });
    expect(view(wt.lost!)).toEqual({ state: "open", source: "job", id: "job-lost", drift: ["ledger_open_no_terminal"] });
    expect(by(wt.done!).binding).toMatchObject({ task: TASK("b"), status: "completed", status_from: "orca", terminal: { host: "orca", id: T("done") } });
    expect(doc.unplaced).toEqual([{ binding: expect.objectContaining({ id: "job-gone", task: TASK("d"), source: "register" }), drift: ["task_gone"] }]);
    const text = await run(["fleet", "scan", "--repo", f.repo]);
    expect(text.stdout).toContain(`${wt.stray}\topen(orca:${T("stray")})`);
    expect(text.stdout).toMatch(/drift=unknown_terminal/);
    expect(text.stdout).toContain(`(no worktree)\topen(register:job-gone)\ttask=${TASK("d")}`);
  });

  test("spend record maps a gate-registered job to its transcript through the worktree Orca recorded for it", async () => {
    const project = join(env.CLAUDE_CONFIG_DIR!, "projects", wt.open!.replace(/[^A-Za-z0-9]/g, "-"));
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "s1.jsonl"), `${JSON.stringify({ type: "assistant", message: { id: "m1", role: "assistant", model: "claude-sonnet-5", usage: { input_tokens: 1200, output_tokens: 300 } } })}\n`);
    const r = await run(["spend", "record", "--job", "job-open", "--json"]);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: "" });
    const rows = readFileSync(join(env.MOGUI_HOME!, "spend-ledger.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => [x.job_id, x.transcript, x.input_tokens, x.output_tokens])).toEqual([["job-open", join(project, "s1.jsonl"), 1200, 300]]);
    // A job neither ledger knows is still the usage error it was.
    expect((await run(["spend", "record", "--job", "job-nobody"])).code).toBe(2);
  });

  test("fleet reap: settled dispatches' terminals closed, then removed, then the row; drift and open bindings left", async () => {
    const dry = JSON.parse((await run(["fleet", "reap", "--repo", f.repo, "--json"])).stdout);
    const outcome = (doc: any) => Object.fromEntries(doc.worktrees.map((w: any) => [Object.keys(wt).find((k) => wt[k] === w.path), w.outcome]));
    expect(outcome(dry)).toEqual({ open: "left", done: "would_remove", failed: "would_remove", stray: "left", herdr: "left", lost: "left" });
    const r = await run(["fleet", "reap", "--repo", f.repo, "--execute", "--grace-ms", "300", "--json"]);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: "" });
    const doc = JSON.parse(r.stdout);
    expect(outcome(doc)).toEqual({ open: "left", done: "removed", failed: "removed", stray: "left", herdr: "left", lost: "left" });
    const done = doc.worktrees.find((w: any) => w.path === wt.done);
    expect(done.terminal_closed).toBe(`orca:${T("done")}`);
    expect([existsSync(wt.done!), existsSync(wt.failed!), existsSync(wt.open!), existsSync(wt.stray!)]).toEqual([false, false, true, true]);
    // Orca: the settled ones' terminals are closed (terminal close --terminal), the others still live.
    const live = (await run(["sim", "orca", "terminal", "list", "--json"])).stdout;
    expect([T("done"), T("failed")].map((h) => live.includes(h))).toEqual([false, false]);
    expect([T("open"), T("stray"), T("coord")].map((h) => live.includes(h))).toEqual([true, true, true]);
    const rows = readFileSync(join(env.MOGUI_HOME!, "dispatch-ledger.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((x) => x.event === "fleet_reap");
    expect(rows.map((x) => [x.binding, x.outcome, x.terminal_closed])).toEqual([
      ["register:job-done", "removed", `orca:${T("done")}`],
      ["register:job-failed", "removed", `orca:${T("failed")}`],
    ]);
    // The herdr pane and the open worker were never closed.
    expect((await run(["sim", "herdr", "pane", "list"])).stdout).toContain('"pane_id":"w1:p1"');
    expect(sh(f.repo, "worktree", "list")).toContain(wt.open!);
  });
});
