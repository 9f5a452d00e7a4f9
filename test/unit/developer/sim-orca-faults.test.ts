/**
 * `mogui sim orca` in-process: the bare `folder:` selector on create, faults targeted at the Nth call, the
 * create / send / close faults (stale or foreign handle, swallowed or refused input, a close that does nothing),
 * pty pids killed on close, and the simulated agent status `terminal wait --for tui-idle` reads (with flapping).
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

const COORD = "term_11111111-2222-4333-8444-555555555555";
const WORKER = "term_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const FOLDER = "folder:9b1e4c7d-2a5f-4e8b-b3c6-0d9e8f7a6b5c";
const NOTES = "term_f0f0f0f0-1111-4222-8333-444444444444";
const SCENARIOS = join(import.meta.dir, "../../../fixtures/scenarios");

let dir: string;
let baseEnv: Record<string, string>;
beforeEach(() => {
  dir = tempDir("sim-orca-f-");
  mkdirSync(join(dir, "notes"));
  baseEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: "basic" };
});

const started: ReturnType<typeof Bun.spawn>[] = [];
afterAll(() => {
  for (const p of started) p.kill("SIGKILL");
});

const sim = (args: string[], env: Record<string, string | undefined> = {}) => runMain(["sim", "orca", ...args], { env: { ...baseEnv, ...env }, cwd: dir });
async function doc(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; doc: any }> {
  const r = await sim([...args, "--json"], env);
  return { code: r.code, doc: r.stdout ? JSON.parse(r.stdout) : undefined };
}
async function ok(args: string[], env: Record<string, string | undefined> = {}): Promise<any> {
  const r = await doc(args, env);
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${JSON.stringify(r.doc)}`);
  return r.doc.result;
}
/** A scenario file: a built-in one with its terminals changed. */
function scenario(name: string, edit: (s: any) => void): string {
  const s = JSON.parse(readFileSync(join(SCENARIOS, `${name}.json`), "utf8"));
  edit(s);
  const p = join(dir, `${name}-edited.json`);
  writeFileSync(p, JSON.stringify(s));
  return p;
}
const handles = async (env: Record<string, string> = {}) => (await ok(["terminal", "list"], env)).terminals.map((t: any) => t.handle) as string[];

describe("selectors", () => {
  test("a bare folder:<uuid> is accepted by terminal create only; list refuses it (measured asymmetry)", async () => {
    const env = { ORCA_SIM_SCENARIO: "folder" };
    const t = (await ok(["terminal", "create", "--worktree", FOLDER, "--title", "bare"], env)).terminal;
    expect(t.worktreeId).toBe(FOLDER);
    const miss = await doc(["terminal", "list", "--worktree", FOLDER], env);
    expect(miss.code).toBe(1);
    expect(miss.doc.error).toMatchObject({ code: "selector_not_found", data: { suggestions: [`id:${FOLDER}`] } });
    const listed = (await ok(["terminal", "list", "--worktree", `id:${FOLDER}`], env)).terminals;
    expect(listed.map((x: any) => [x.handle, x.worktreePath])).toEqual([
      [NOTES, ""],
      [t.handle, ""],
    ]);
    // Terminal summaries carry exactly the documented keys: no pid or session id (the real list reports none).
    expect(Object.keys(listed[0]).sort()).toEqual(["branch", "connected", "handle", "lastOutputAt", "leafId", "preview", "ptyId", "surface", "tabId", "title", "worktreeId", "worktreePath", "writable"]);
  });
});

describe("faults aimed at the Nth call", () => {
  test("@N fires on that call only, @N+ from it on; other commands are not counted", async () => {
    const codes = async (fault: string) => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) out.push((await sim(["terminal", "list", "--json"], { ORCA_SIM_FAULT: fault })).code);
      return out;
    };
    expect(await codes("terminal list=exit:4@2")).toEqual([0, 4, 0, 0]);
    baseEnv.ORCA_SIM_STATE = join(dir, "s2.json");
    await sim(["status", "--json"], { ORCA_SIM_FAULT: "terminal list=exit:4@2+" });
    expect(await codes("terminal list=exit:4@2+")).toEqual([0, 4, 4, 4]);
    expect(JSON.parse(readFileSync(join(dir, "s2.json"), "utf8")).calls).toEqual({ "terminal list": 4 });
  });

  test("state faults take `at` / `from` and still count `times` down", async () => {
    const file = scenario("basic", (s) => (s.faults = [{ command: "terminal show", mode: "error_envelope", from: 2, times: 2 }]));
    const env = { ORCA_SIM_SCENARIO: file };
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await sim(["terminal", "show", "--terminal", WORKER, "--json"], env)).code);
    expect(codes).toEqual([0, 1, 1, 0, 0]);
  });

  test("malformed targets and modes on the wrong command are spec errors (exit 1), never no-ops", async () => {
    for (const fault of ["terminal list=exit@0", "terminal list=exit@x", "terminal list=exit@2@3", "terminal list=swallow", "terminal send=stale_handle", "terminal create=stale_handle:0"]) {
      const r = await sim(["terminal", "list", "--json"], { ORCA_SIM_FAULT: fault });
      expect({ fault, code: r.code, out: r.stdout }).toEqual({ fault, code: 1, out: "" });
      expect(r.stderr).toStartWith("orca simulator: ORCA_SIM_FAULT: ");
    }
    const file = scenario("basic", (s) => (s.faults = [{ command: "terminal list", mode: "close_noop" }]));
    const bad = await doc(["terminal", "list"], { ORCA_SIM_SCENARIO: file });
    expect(bad.doc.error.message).toContain("mode 'close_noop' applies only to 'terminal close'");
  });
});

describe("terminal create faults", () => {
  test("stale_handle: the terminal exists under a reminted handle; the reported one is terminal_handle_stale", async () => {
    const made = (await ok(["terminal", "create", "--worktree", "branch:feature", "--title", "Gen 2"], { ORCA_SIM_FAULT: "terminal create=stale_handle" })).terminal;
    const now = await handles();
    expect(now).not.toContain(made.handle);
    expect(now).toHaveLength(3);
    const fresh = (await ok(["terminal", "list"])).terminals.at(-1);
    expect(fresh).toMatchObject({ title: "Gen 2", ptyId: made.ptyId, tabId: made.tabId, connected: true });
    const stale = await doc(["terminal", "show", "--terminal", made.handle]);
    expect(stale.code).toBe(1);
    expect(stale.doc.error).toMatchObject({ code: "terminal_handle_stale", data: { handle: made.handle } });
    expect((await doc(["terminal", "show", "--terminal", "term_nope"])).doc.error.code).toBe("terminal_not_found");
  });

  test("stale_handle:2 lands the create twice (both titled), the reply names neither live handle", async () => {
    const made = (await ok(["terminal", "create", "--worktree", "branch:feature", "--title", "Gen 2"], { ORCA_SIM_FAULT: "terminal create=stale_handle:2" })).terminal;
    const rows = (await ok(["terminal", "list", "--worktree", "branch:feature"])).terminals;
    expect(rows.map((t: any) => t.title)).toEqual(["worker", "Gen 2", "Gen 2"]);
    expect(rows.map((t: any) => t.handle)).not.toContain(made.handle);
  });

  test("foreign_handle: the reply names a live terminal of another workspace; the new one exists unreported", async () => {
    const made = (await ok(["terminal", "create", "--worktree", "branch:feature", "--title", "Gen 2"], { ORCA_SIM_FAULT: "terminal create=foreign_handle" })).terminal;
    expect(made.handle).toBe(COORD);
    expect(made.worktreeId).toEndWith("/repo");
    const feature = (await ok(["terminal", "list", "--worktree", "branch:feature"])).terminals;
    expect(feature.map((t: any) => t.title)).toEqual(["worker", "Gen 2"]);
  });
});

describe("terminal send faults", () => {
  test("swallow: accepted with the byte count, but the text never reaches the pane", async () => {
    const before = (await ok(["terminal", "read", "--terminal", WORKER])).terminal.tail;
    const sent = (await ok(["terminal", "send", "--terminal", WORKER, "--text", "brief", "--enter"], { ORCA_SIM_FAULT: "terminal send=swallow" })).send;
    expect(sent).toEqual({ handle: WORKER, accepted: true, bytesWritten: 6 });
    expect((await ok(["terminal", "read", "--terminal", WORKER])).terminal.tail).toEqual(before);
  });

  test("not_accepted: a SUCCESS envelope with accepted:false and exit 1; text form on stdout", async () => {
    const r = await doc(["terminal", "send", "--terminal", WORKER, "--text", "x"], { ORCA_SIM_FAULT: "terminal send=not_accepted" });
    expect(r.code).toBe(1);
    expect(r.doc).toMatchObject({ ok: true, result: { send: { handle: WORKER, accepted: false, bytesWritten: 0, refusedReason: "no-agent" } } });
    const t = await sim(["terminal", "send", "--terminal", WORKER, "--text", "x"], { ORCA_SIM_FAULT: "terminal send=not_accepted" });
    expect(t).toMatchObject({ code: 1, stdout: `Terminal ${WORKER} did not accept the input (no-agent).\n` });
  });
});

describe("close and the pane's processes", () => {
  const sleeper = () => {
    const p = Bun.spawn(["sleep", "30"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    started.push(p);
    return p;
  };

  test("close SIGKILLs the terminal's pids (never printed); close_noop keeps pane and process", async () => {
    const a = sleeper();
    const b = sleeper();
    const env = { ORCA_SIM_SCENARIO: scenario("folder", (s) => (s.terminals[0].pids = [a.pid, b.pid])) };
    expect(JSON.stringify(await ok(["terminal", "show", "--terminal", NOTES], env))).not.toContain(String(a.pid));
    const noop = await ok(["terminal", "close", "--terminal", NOTES], { ...env, ORCA_SIM_FAULT: "terminal close=close_noop" });
    expect(noop.close).toMatchObject({ handle: NOTES, ptyKilled: true });
    expect(await handles(env)).toContain(NOTES);
    expect(a.killed || a.exitCode !== null).toBe(false);
    await ok(["terminal", "close", "--terminal", NOTES], env);
    expect(await handles(env)).not.toContain(NOTES);
    expect([await a.exited, await b.exited]).toEqual([137, 137]);
  });

  test("close --worktree --all kills the pids of every terminal it closes", async () => {
    const a = sleeper();
    const env = { ORCA_SIM_SCENARIO: scenario("folder", (s) => (s.terminals[0].pids = [a.pid])) };
    expect(await ok(["terminal", "close", "--worktree", `id:${FOLDER}`, "--all"], env)).toEqual({ closed: 1, stopped: 1 });
    expect(await a.exited).toBe(137);
  });
});

describe("agent status for terminal wait --for tui-idle", () => {
  const wait = (h: string, env: Record<string, string> = {}) => doc(["terminal", "wait", "--terminal", h, "--for", "tui-idle", "--timeout-ms", "150"], env);

  test("idle (default) is satisfied; working times out (RPC error timeout); a blockedReason is unsatisfied, exit 1", async () => {
    const env = {
      ORCA_SIM_SCENARIO: scenario("basic", (s) => {
        s.terminals[0].agentStatus = "working";
        s.terminals[1].agentStatus = "codex-trust-workspace";
      }),
    };
    const busy = await wait(COORD, env);
    expect(busy).toMatchObject({ code: 1, doc: { ok: false, error: { code: "timeout", message: "timeout" } } });
    const blocked = await wait(WORKER, env);
    expect(blocked.code).toBe(1);
    expect(blocked.doc).toMatchObject({ ok: true, result: { wait: { handle: WORKER, condition: "tui-idle", satisfied: false, status: "running", exitCode: null, blockedReason: "codex-trust-workspace" } } });
    const idle = await wait(COORD, { ORCA_SIM_STATE: join(dir, "fresh.json") });
    expect(idle.doc.result.wait).toEqual({ handle: COORD, condition: "tui-idle", satisfied: true, status: "running", exitCode: null });
  });

  test("a working agent that goes idle during the wait satisfies it", async () => {
    const env = { ORCA_SIM_SCENARIO: scenario("basic", (s) => (s.terminals[0].agentStatus = "working")) };
    await ok(["status"], env);
    const pending = doc(["terminal", "wait", "--terminal", COORD, "--for", "tui-idle", "--timeout-ms", "5000"], env);
    await Bun.sleep(100);
    const file = join(dir, "state.json");
    const st = JSON.parse(readFileSync(file, "utf8"));
    delete st.terminals[0].agentStatus;
    writeFileSync(file, JSON.stringify(st));
    expect((await pending).doc.result.wait.satisfied).toBe(true);
  });

  test("agentStatusCycle flaps: each wait takes the next reading, wrapping; the state keeps the step", async () => {
    const env = { ORCA_SIM_SCENARIO: scenario("basic", (s) => (s.terminals[1].agentStatusCycle = ["idle", "idle", "working"])) };
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await wait(WORKER, env);
      seen.push(r.code === 0 ? "idle" : r.doc.error.code);
    }
    expect(seen).toEqual(["idle", "idle", "timeout", "idle"]);
    expect(JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).terminals[1]).toMatchObject({ agentStatusCycle: ["idle", "idle", "working"], agentStatusStep: 1 });
  });

  test("an unknown agent status is a bad scenario", async () => {
    const env = { ORCA_SIM_SCENARIO: scenario("basic", (s) => (s.terminals[0].agentStatus = "busy")) };
    const r = await doc(["terminal", "list"], env);
    expect(r.doc.error.message).toStartWith("orca simulator: bad state/scenario:");
  });
});
