// master-succeed retire through the compiled binary against the Orca simulator, with real short-lived processes
// standing in for the predecessor: a plain `sleep` for the pid, and a `sleep` on a real pty (util-linux `script`)
// for the tty. The simulator's scenario gives the predecessor's terminal those `pids`, and `terminal close` kills
// them, as Orca kills a pane's pty.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const PRE = "term_f0f0f0f0-1111-4222-8333-444444444444";
const FOLDER = "id:folder:9b1e4c7d-2a5f-4e8b-b3c6-0d9e8f7a6b5c";
const HAVE_SCRIPT = Bun.which("script") !== null && process.platform === "linux";
const started: ReturnType<typeof Bun.spawn>[] = [];

afterAll(() => {
  for (const p of started) p.kill("SIGKILL");
});

function sleeper(): number {
  const p = Bun.spawn(["sleep", "30"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  started.push(p);
  return p.pid;
}

/** A `sleep` on its own pty: returns the pids of `script` and the sleep, and the sleep's tty (pts/N). */
async function onPty(): Promise<{ script: number; sleep: number; tty: string }> {
  const p = Bun.spawn(["script", "-qfec", "sleep 30", "/dev/null"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  started.push(p);
  for (let i = 0; i < 250; i++) {
    const out = Bun.spawnSync(["ps", "-o", "pid=,tty=", "--ppid", String(p.pid)])
      .stdout.toString()
      .trim();
    const m = /^(\d+)\s+(\S+)/.exec(out);
    if (m && m[2] !== "?") return { script: p.pid, sleep: Number(m[1]), tty: m[2]! };
    await Bun.sleep(20);
  }
  throw new Error("no pty child appeared");
}

/** The folder scenario; `pids` live on the predecessor's pane (killed when it is closed). */
function world(extra: Record<string, string> = {}, pids: number[] = []) {
  const dir = tempDir("mogui-lc-retire-");
  const scenario = JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "folder.json"), "utf8"));
  scenario.terminals[0].pids = pids;
  writeFileSync(join(dir, "scenario.json"), JSON.stringify(scenario));
  const env = e2eEnv({ ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: join(dir, "scenario.json"), ORCA_SIM_ROOT: dir, ORCA_CLI_COMMAND: "orca", ...extra });
  const retire = async (env2: Record<string, string>, ...args: string[]) => {
    const r = await runBinary(["master-succeed", "retire", "--self-handle", "term_me", "--target-handle", PRE, ...args, "--json"], { env: { ...env, ...env2 } });
    return { code: r.code, stderr: r.stderr, report: r.stdout ? JSON.parse(r.stdout) : undefined };
  };
  const run = (...args: string[]) => runBinary(["master-succeed", "retire", ...args, "--json"], { env });
  return { retire, run, env };
}

const alive = (pid: number) =>
  Bun.spawnSync(["ps", "-p", String(pid), "-o", "stat="])
    .stdout.toString()
    .trim()
    .replace(/^Z.*/, "") !== "";

describe("master-succeed retire end to end (simulator + real processes)", () => {
  test("dry run by default: DRY_RUN, exit 0, nothing closed", async () => {
    const r = await world().retire({}, "--target-pid", String(sleeper()));
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ status: "DRY_RUN", closed: false, target_handle: PRE, disappearances: {} });
  });
  test.if(HAVE_SCRIPT)("CLOSED: pane, process and tty all measured gone", async () => {
    const pty = await onPty();
    const r = await world({}, [pty.sleep, pty.script]).retire({}, "--target-pid", String(pty.sleep), "--target-tty", `/dev/${pty.tty}`, "--execute");
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ status: "CLOSED", closed: true, disappearances: { pane: "measured", process: "measured", tty: "measured" } });
    expect(alive(pty.sleep)).toBe(false);
  });
  test("CLOSED_PARTIAL: no tty to measure", async () => {
    const pid = sleeper();
    const r = await world({}, [pid]).retire({}, "--target-pid", String(pid), "--execute");
    expect(r.code).toBe(0);
    expect(r.report.status).toBe("CLOSED_PARTIAL");
    expect(r.report.disappearances).toEqual({ pane: "measured", process: "measured", tty: "skipped:no target-tty supplied" });
  });
  test("REFUSED (exit 3): the pane survives the close", async () => {
    const pid = sleeper();
    const r = await world({ ORCA_SIM_FAULT: "terminal close=close_noop" }, [pid]).retire({}, "--target-pid", String(pid), "--execute", "--settle-ms", "0");
    expect(r.code).toBe(3);
    expect(r.report.reason).toStartWith("target still present after close; disappearances=pane=still_present,");
  });
  test("REFUSED (exit 3): the process survives the close", async () => {
    const pid = sleeper();
    const r = await world().retire({}, "--target-pid", String(pid), "--execute", "--settle-ms", "300");
    expect(r.code).toBe(3);
    expect(r.report).toMatchObject({ status: "REFUSED", closed: false });
    expect(r.report.reason).toBe(`target process still present after close: pid=${pid}; disappearances=pane=measured,process=still_present,tty=skipped:no target-tty supplied`);
    expect(alive(pid)).toBe(true);
  });
  test.if(HAVE_SCRIPT)("REFUSED (exit 3): the tty still has a live process", async () => {
    const pid = sleeper();
    const pty = await onPty();
    const r = await world({}, [pid]).retire({}, "--target-pid", String(pid), "--target-tty", pty.tty, "--execute", "--settle-ms", "300");
    expect(r.code).toBe(3);
    expect(r.report.reason).toBe(`target tty still present after close: ${pty.tty}; disappearances=pane=measured,process=measured,tty=still_present`);
  });
  test("D21: without `ps` the process and tty axes are skipped:<why>, so at best CLOSED_PARTIAL", async () => {
    const bin = tempDir("mogui-lc-nops-");
    symlinkSync(Bun.which("sh")!, join(bin, "sh"));
    const pid = sleeper();
    const r = await world({}, [pid]).retire({ PATH: `${join(ROOT, "fixtures", "bin")}:${bin}` }, "--target-pid", String(pid), "--target-tty", "pts/0", "--execute");
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ status: "CLOSED_PARTIAL", disappearances: { pane: "measured", process: "skipped:ps not found", tty: "skipped:ps not found" } });
  });
  test("REFUSED (exit 3): no candidate, several candidates; exit 2 when self matches", async () => {
    const w = world();
    const none = await w.run("--self-handle", "term_me", "--expected", "no such pane");
    expect(none.code).toBe(3);
    expect(JSON.parse(none.stdout).reason).toBe(`no predecessor candidates; candidates=none; match_attempts=${PRE}: selector=no such pane -> no-match`);
    await w.run("--self-handle", "x", "--expected", "y"); // seeds the state file
    const extra = await runBinary(["sim", "orca", "terminal", "create", "--worktree", FOLDER, "--title", "notes shell 2", "--json"], { env: w.env });
    expect(extra.code).toBe(0);
    const many = await w.run("--self-handle", "term_me", "--expected", "notes shell");
    expect(many.code).toBe(3);
    expect(JSON.parse(many.stdout).reason).toStartWith(`ambiguous predecessor candidates; candidates=${PRE},term_`);
    const self = await w.run("--self-handle", PRE, "--expected", "notes shell");
    expect(self).toEqual({ code: 2, stdout: "", stderr: "self_handle matched retirement candidate; refusing to close self\n" });
  });
});
