/**
 * The subprocess seam (DECISIONS D6): exit codes, captured streams, and the three named failures (missing
 * executable, timeout with the whole process group killed, death by a signal), plus the stub runner.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, describeFailure, isRealRunner, ok, realRunner, withDefaults } from "../../../src/lib/runner.ts";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { tempDir } from "../../helpers/paths.ts";

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/** Alive and not a zombie: an orphaned grandchild may never be reaped in a container without an init. */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

function result(over: Partial<RunResult>): RunResult {
  return { argv: ["/usr/local/bin/orca", "x"], code: 0, signal: null, stdout: "", stderr: "", timedOut: false, missing: false, ...over };
}

describe("realRunner", () => {
  test("passes the exit code through and captures stdout and stderr separately", async () => {
    const r = await realRunner(["sh", "-c", "printf 'out 1\\nout 2\\n'; printf 'err 1\\n' >&2; exit 7"], { env: ENV });
    expect(r).toEqual({
      argv: ["sh", "-c", "printf 'out 1\\nout 2\\n'; printf 'err 1\\n' >&2; exit 7"],
      code: 7,
      signal: null,
      stdout: "out 1\nout 2\n",
      stderr: "err 1\n",
      timedOut: false,
      missing: false,
    });
    expect(ok(r)).toBe(false);
    const zero = await realRunner(["true"], { env: ENV });
    expect([zero.code, ok(zero)]).toEqual([0, true]);
  });

  test("uses cwd and exactly the env it is given", async () => {
    const dir = tempDir("mogui-runner-");
    const r = await realRunner(["sh", "-c", 'pwd; echo "[$MOGUI_X][$UNSET_ONE]"'], { cwd: dir, env: { ...ENV, MOGUI_X: "x y", UNSET_ONE: undefined } });
    expect(r.stdout).toBe(`${dir}\n[x y][]\n`);
  });

  test("passes stdin (multi-byte text intact)", async () => {
    const r = await realRunner(["cat"], { env: ENV, stdin: "héllo\n한국어\n" });
    expect([r.code, r.stdout]).toEqual([0, "héllo\n한국어\n"]);
    const none = await realRunner(["cat"], { env: ENV });
    expect([none.code, none.stdout]).toEqual([0, ""]);
  });

  test("a promised stdin: the process starts at once and reads the text once it is known, then the end", async () => {
    let give!: (text: string) => void;
    const input = new Promise<string>((resolve) => (give = resolve));
    const dir = tempDir();
    const run = realRunner(["sh", "-c", "touch started; cat"], { env: ENV, cwd: dir, stdin: input });
    for (let i = 0; i < 100 && !existsSync(join(dir, "started")); i++) await Bun.sleep(20);
    // Running, and still waiting for its input.
    expect(existsSync(join(dir, "started"))).toBe(true);
    give("later\n");
    const r = await run;
    expect([r.code, r.stdout]).toEqual([0, "later\n"]);
  });

  test("a promised stdin that fails closes the input (the process sees its end)", async () => {
    const r = await realRunner(["cat"], { env: ENV, stdin: Promise.reject(new Error("no list")) });
    expect([r.code, r.stdout]).toEqual([0, ""]);
  });

  test("a missing executable is missing:true, never a throw", async () => {
    for (const argv of [["mogui-no-such-exe-xyz", "--json"], ["/nonexistent/dir/orca"], []]) {
      const r = await realRunner(argv, { env: ENV });
      expect(r).toEqual({ argv, code: null, signal: null, stdout: "", stderr: "", timedOut: false, missing: true });
    }
    // Only the PATH it is given counts.
    expect((await realRunner(["sh", "-c", "true"], { env: { PATH: "" } })).missing).toBe(true);
  });

  test("a file that exists but cannot be executed is missing:true", async () => {
    const f = join(tempDir("mogui-runner-"), "not-exec");
    writeFileSync(f, "#!/bin/sh\necho hi\n");
    chmodSync(f, 0o644);
    expect((await realRunner([f], { env: ENV })).missing).toBe(true);
  });

  test("a timeout kills the whole process group and returns promptly", async () => {
    const dir = tempDir("mogui-runner-");
    const pidFile = join(dir, "bg.pid");
    const t0 = performance.now();
    const r = await realRunner(["sh", "-c", `sleep 100 & echo $! > ${pidFile}; echo started; sleep 100`], { env: ENV, timeoutMs: 500 });
    const elapsed = performance.now() - t0;
    expect(r).toEqual({
      argv: r.argv,
      code: null,
      signal: null,
      stdout: "started\n",
      stderr: "",
      timedOut: true,
      missing: false,
    });
    expect(ok(r)).toBe(false);
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2500);
    // The background grandchild was in the group and is dead too (give the kernel a moment to reap).
    const bg = Number((await Bun.file(pidFile).text()).trim());
    expect(bg).toBeGreaterThan(0);
    const deadline = Date.now() + 2000;
    while (pidAlive(bg) && Date.now() < deadline) await Bun.sleep(20);
    expect(pidAlive(bg)).toBe(false);
  });

  test("a command that exits while a background child holds its pipes returns its own exit code, not a timeout", async () => {
    const t0 = performance.now();
    const r = await realRunner(["sh", "-c", "echo hi; sleep 100 & exit 3"], { env: ENV, timeoutMs: 5000 });
    const elapsed = performance.now() - t0;
    expect([r.code, r.signal, r.timedOut, r.stdout]).toEqual([3, null, false, "hi\n"]);
    expect(elapsed).toBeLessThan(2000);
  });

  test("death by a signal is signal:'SIGTERM', code:null", async () => {
    const r = await realRunner(["sh", "-c", "echo before; kill -TERM $$"], { env: ENV, timeoutMs: 5000 });
    expect(r).toEqual({ argv: r.argv, code: null, signal: "SIGTERM", stdout: "before\n", stderr: "", timedOut: false, missing: false });
    expect(ok(r)).toBe(false);
    const k = await realRunner(["sh", "-c", "kill -KILL $$"], { env: ENV });
    expect([k.code, k.signal, k.timedOut]).toEqual([null, "SIGKILL", false]);
  });
});

describe("describeFailure", () => {
  test("one line per failure kind, named after the executable's basename", () => {
    expect(describeFailure(result({ missing: true, code: null }))).toBe("orca: executable not found");
    expect(describeFailure(result({ timedOut: true, code: null }), 1500)).toBe("orca: timed out after 1500 ms");
    expect(describeFailure(result({ timedOut: true, code: null }))).toBe("orca: timed out");
    expect(describeFailure(result({ signal: "SIGTERM", code: null }))).toBe("orca: killed by SIGTERM");
    expect(describeFailure(result({ code: 3, stderr: "\n  boom: first\nsecond\n", stdout: "ignored" }))).toBe("orca: exit 3: boom: first");
    expect(describeFailure(result({ code: 4, stdout: "only stdout\nmore" }))).toBe("orca: exit 4: only stdout");
    expect(describeFailure(result({ code: 5 }))).toBe("orca: exit 5");
    expect(describeFailure(result({ argv: [], code: 1 }))).toBe("?: exit 1");
  });
});

describe("stubRunner", () => {
  test("an unexpected call throws, naming the argv, and is still recorded", async () => {
    const run = stubRunner([[["git", "status"], { stdout: "clean" }]]);
    await expect(run(["git", "log"])).rejects.toThrow('stub runner: unexpected call ["git","log"]');
    expect(run.calls.map((c) => c.argv)).toEqual([["git", "log"]]);
  });

  test("queued replies are consumed in order and the last one repeats", async () => {
    const run = stubRunner([
      [
        ["orca", "status"],
        [{ stdout: "one" }, { stdout: "two", code: 3 }, { stdout: "three" }],
      ],
      [["git", "rev-parse", "HEAD"], { stdout: "abc\n" }],
    ]);
    expect(run.pending()).toEqual(['["orca","status"]']);
    const outs: [number | null, string][] = [];
    for (let i = 0; i < 5; i++) {
      const r = await run(["orca", "status"], { timeoutMs: 5 });
      outs.push([r.code, r.stdout]);
    }
    expect(outs).toEqual([
      [0, "one"],
      [3, "two"],
      [0, "three"],
      [0, "three"],
      [0, "three"],
    ]);
    expect(run.pending()).toEqual([]);
    expect((await run(["git", "rev-parse", "HEAD"])).stdout).toBe("abc\n");
    expect((await run(["git", "rev-parse", "HEAD"])).stdout).toBe("abc\n");
    expect(run.calls.length).toBe(7);
    expect(run.calls[0]).toEqual({ argv: ["orca", "status"], opts: { timeoutMs: 5 } });
  });

  test("entries for the same argv queue up; objects become JSON; failure kinds null the code", async () => {
    const run = stubRunner([
      [["a"], { stdout: { ok: true } }],
      [["a"], { missing: true }],
      [["a"], { timedOut: true, code: 0 }],
      [["a"], { signal: "SIGTERM" }],
      [["a"], (argv) => ({ stdout: argv.join(" "), stderr: "e", code: 9 })],
    ]);
    const rs: RunResult[] = [];
    for (let i = 0; i < 5; i++) rs.push(await run(["a"]));
    expect(rs[0]).toEqual({ argv: ["a"], code: 0, signal: null, stdout: '{"ok":true}', stderr: "", timedOut: false, missing: false });
    expect([rs[1]!.code, rs[1]!.missing]).toEqual([null, true]);
    expect([rs[2]!.code, rs[2]!.timedOut]).toEqual([null, true]);
    expect([rs[3]!.code, rs[3]!.signal]).toEqual([null, "SIGTERM"]);
    expect(rs[4]).toEqual({ argv: ["a"], code: 9, signal: null, stdout: "a", stderr: "e", timedOut: false, missing: false });
  });
});

describe("withDefaults", () => {
  test("fills env and cwd from the command's context, keeps explicit ones, and keeps the real-runner mark", async () => {
    const seen: unknown[] = [];
    const stub = async (argv: readonly string[], opts: object = {}) => {
      seen.push(opts);
      return { argv, code: 0, signal: null, stdout: "", stderr: "", timedOut: false, missing: false } as never;
    };
    const w = withDefaults(stub, () => ({ env: { A: "1" }, cwd: "/x" }));
    await w(["a"]);
    await w(["b"], { env: { B: "2" }, cwd: "/y", timeoutMs: 5 });
    expect(seen).toEqual([
      { env: { A: "1" }, cwd: "/x" },
      { env: { B: "2" }, cwd: "/y", timeoutMs: 5 },
    ]);
    expect(isRealRunner(w)).toBe(false);
    expect(isRealRunner(realRunner)).toBe(true);
    expect(isRealRunner(withDefaults(realRunner, () => ({})))).toBe(true);
  });
});
