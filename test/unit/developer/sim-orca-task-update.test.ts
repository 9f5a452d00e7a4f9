/** `mogui sim orca orchestration task-update` (docs/orca-cli.md §6): `{task}`, enum-checked status, a caller terminal. */
import { beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

const COORD = "term_11111111-2222-4333-8444-555555555555";
let env: Record<string, string>;
let dir: string;
beforeEach(() => {
  dir = tempDir("sim-orca-tu-");
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: "basic" };
});
const sim = (args: string[]) => runMain(["sim", "orca", ...args, "--json"], { env, cwd: dir });

test("task-update moves a task and its open dispatch; a bad status is invalid_argument; no caller is refused", async () => {
  const run = JSON.parse((await sim(["orchestration", "run-create", "--objective", "x", "--from", COORD])).stdout).result.run;
  const task = JSON.parse((await sim(["orchestration", "task-create", "--spec", "s", "--from", COORD])).stdout).result.task;
  const term = JSON.parse((await sim(["terminal", "create", "--worktree", "branch:feature", "--title", "w", "--command", "claude"])).stdout).result.terminal;
  expect((await sim(["orchestration", "dispatch", "--task", task.id, "--to", term.handle, "--from", COORD])).code).toBe(0);
  const up = await sim(["orchestration", "task-update", "--id", task.id, "--status", "completed", "--from", COORD]);
  expect(up.code).toBe(0);
  expect(JSON.parse(up.stdout).result.task).toMatchObject({ id: task.id, status: "completed", run_id: run.id });
  const show = JSON.parse((await sim(["orchestration", "dispatch-show", "--task", task.id])).stdout).result.dispatch;
  expect(show.status).toBe("completed");
  const listed = JSON.parse((await sim(["orchestration", "task-list"])).stdout).result.tasks.find((t: { id: string }) => t.id === task.id);
  expect(listed).toMatchObject({ status: "completed", assignee_handle: term.handle });
  const bad = await sim(["orchestration", "task-update", "--id", task.id, "--status", "done", "--from", COORD]);
  expect([bad.code, JSON.parse(bad.stdout).error.code]).toEqual([1, "invalid_argument"]);
  expect(JSON.parse(bad.stdout).error.message).toBe("invalid status 'done', expected one of: pending, ready, dispatched, completed, failed, blocked");
  const nobody = await sim(["orchestration", "task-update", "--id", task.id, "--status", "failed"]);
  expect(nobody.code).toBe(1);
});
