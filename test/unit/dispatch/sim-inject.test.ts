// The simulator addition `mogui dispatch` needs: a terminal's `onInject` lines appear after an injected preamble
// (what a real agent pane shows when a trust prompt or a provider limit stops it), and nothing else changes.
import { beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const COORD = "term_11111111-2222-4333-8444-555555555555";
const PANE = "term_0d0d0d0d-0000-4000-8000-000000000009";
let dir: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = tempDir("sim-inject-");
  const s = JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "basic.json"), "utf8"));
  s.terminals.push({ handle: PANE, worktreePath: "${ROOT}/wt-feature", agent: "claude", output: ["❯ "], onInject: ["Do you trust the files in this folder?"] });
  writeFileSync(join(dir, "scenario.json"), JSON.stringify(s));
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: join(dir, "scenario.json"), ORCA_SIM_ROOT: dir, ORCA_TERMINAL_HANDLE: COORD };
});

async function sim(args: string[]): Promise<any> {
  const r = await runMain(["sim", "orca", ...args, "--json"], { env, cwd: dir });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).result;
}

test("onInject lines follow the injected preamble and the state keeps them", async () => {
  const task = (await sim(["orchestration", "task-create", "--spec", "Do the thing"])).task.id;
  const read0 = (await sim(["terminal", "read", "--terminal", PANE])).terminal.tail;
  expect(read0).toEqual(["❯ "]);
  await sim(["orchestration", "dispatch", "--task", task, "--to", PANE, "--inject"]);
  const tail = (await sim(["terminal", "read", "--terminal", PANE, "--limit", "3"])).terminal.tail;
  expect(tail).toEqual(["=== TASK ===", "Do the thing", "Do you trust the files in this folder?"]);
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(state.terminals.find((t: { handle: string }) => t.handle === PANE).onInject).toEqual(["Do you trust the files in this folder?"]);
  // Terminals without onInject are unchanged: the scenario's worker never had the key.
  expect("onInject" in state.terminals.find((t: { handle: string }) => t.handle === COORD)).toBe(false);
});
