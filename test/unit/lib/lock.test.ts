/**
 * Cross-process locks (DECISIONS D33). On Linux and macOS a kernel flock: a killed holder releases at once, what the
 * lock file says (a dead pid, a live unrelated pid, nothing at all) never holds anyone up, the Python original's
 * fcntl.flock on the same file excludes both ways, and the wait is bounded with an error naming the holder. Where
 * flock is unavailable, the pid lock file: dead pids and old files are broken, live fresh holders respected.
 * No test measures wall-clock time: "at once" is a lock taken with a timeout of 0 (one attempt).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, readlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { DEFAULT_LOCK_TIMEOUT_MS, LockTimeoutError, PID_LOCK_MAX_AGE_MS, acquireLock, acquirePidLock, lockBackend, withLock } from "../../../src/lib/lock.ts";
import { BUN, ROOT, tempDir } from "../../helpers/paths.ts";

const COUNTER = join(ROOT, "test", "fixtures-scripts", "lock-counter.ts");
const HOLDER = join(ROOT, "test", "fixtures-scripts", "lock-holder.ts");
const PY_FLOCK = join(ROOT, "test", "fixtures-scripts", "py-flock.py");
const PYTHON = "/usr/bin/python3";
const hasPython = existsSync(PYTHON);
const flock = process.platform === "linux" || process.platform === "darwin";

function lockFile(): string {
  return join(tempDir("mogui-lock-"), "thing.lock");
}

async function deadPid(): Promise<number> {
  const p = Bun.spawn(["true"]);
  await p.exited;
  return p.pid;
}

function timeoutOf(fn: () => void): LockTimeoutError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LockTimeoutError);
    return e as LockTimeoutError;
  }
  throw new Error("expected a LockTimeoutError");
}

/** Read a child's stdout until `want` appears (the child has reached that point). */
async function until(proc: Bun.Subprocess, want: string): Promise<string> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes(want)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`child exited before '${want}': ${seen}${await new Response(proc.stderr as ReadableStream).text()}`);
    seen += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return seen;
}

/** A process that holds `path` through the library (the same lock mogui takes), until killed. */
async function mkHolder(path: string): Promise<Bun.Subprocess> {
  // lock-holder.ts locks `<ledger>.lock`.
  const holder = Bun.spawn([BUN, HOLDER, path.replace(/\.lock$/, "")], { stdout: "pipe", stderr: "pipe" });
  await until(holder, "ready\n");
  return holder;
}

async function killed(p: Bun.Subprocess): Promise<void> {
  p.kill("SIGKILL");
  await p.exited;
}

describe.if(flock)("acquireLock / withLock: kernel flock (D33)", () => {
  test("the backend is flock here", () => {
    expect(lockBackend()).toBe("flock");
    expect(DEFAULT_LOCK_TIMEOUT_MS).toBe(10_000);
  });

  test("while held the file notes '<pid> <host> <ms>'; after release it stays, emptied; releasing twice is harmless", () => {
    const path = lockFile();
    const before = Date.now();
    const release = acquireLock(path, 1000);
    const [pid, host, ms, ...rest] = readFileSync(path, "utf8").trimEnd().split(" ");
    expect([pid, host, rest]).toEqual([String(process.pid), hostname(), []]);
    expect(Number(ms)).toBeGreaterThanOrEqual(before);
    expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
    release();
    expect(readFileSync(path, "utf8")).toBe("");
    release();
    acquireLock(path, 0)();
  });

  test("withLock returns the function's value and releases even when it throws", () => {
    const path = lockFile();
    expect(withLock(path, () => 42, 500)).toBe(42);
    expect(() =>
      withLock(
        path,
        () => {
          // Held: another open file description cannot take it.
          timeoutOf(() => acquireLock(path, 0));
          throw new Error("inside");
        },
        500,
      ),
    ).toThrow("inside");
    acquireLock(path, 0)();
  });

  test("a held lock times out with LockTimeoutError naming the path, the timeout and the holder", () => {
    const path = lockFile();
    const release = acquireLock(path, 500);
    try {
      const e = timeoutOf(() => acquireLock(path, 60));
      expect(e.lockPath).toBe(path);
      expect(e.name).toBe("LockTimeoutError");
      expect(e.holder).toStartWith(`pid ${process.pid} on ${hostname()} since `);
      expect(e.message).toBe(`could not take lock ${path} within 60 ms (held by ${e.holder})`);
      // The holder's note was not touched.
      expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(process.pid));
    } finally {
      release();
    }
  });

  test("a holder killed with SIGKILL releases at once", async () => {
    const path = lockFile();
    const holder = await mkHolder(path);
    try {
      expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(holder.pid));
      expect(timeoutOf(() => acquireLock(path, 50)).holder).toStartWith(`pid ${holder.pid} `);
    } finally {
      await killed(holder);
    }
    // One attempt, no wait: the kernel dropped the lock with the process.
    const release = acquireLock(path, 0);
    expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(process.pid));
    release();
  });

  test("a lock file naming a live unrelated process (pid reuse), a dead pid, another host, garbage or nothing costs nothing", async () => {
    const sleeper = Bun.spawn(["sleep", "30"]);
    try {
      const old = new Date(Date.now() - 3_600_000);
      const notes = [`${sleeper.pid} ${hostname()} ${Date.now()}\n`, `${process.pid} ${hostname()} 0\n`, `${await deadPid()} ${hostname()} ${Date.now()}\n`, `${await deadPid()} not-${hostname()} ${Date.now()}\n`, "garbage\n", ""];
      for (const note of notes) {
        for (const mtime of [new Date(), old]) {
          const path = lockFile();
          writeFileSync(path, note);
          utimesSync(path, mtime, mtime);
          acquireLock(path, 0)();
          expect(readFileSync(path, "utf8")).toBe("");
        }
      }
    } finally {
      await killed(sleeper);
    }
  });

  test.if(process.platform === "linux")("a lock file removed while a waiter waits on it: the waiter locks the file that is there now", async () => {
    const path = lockFile();
    const holder = await mkHolder(path);
    const waiter = Bun.spawn([BUN, HOLDER, path.replace(/\.lock$/, "")], { stdout: "pipe", stderr: "pipe" });
    try {
      // The waiter has the (old) file open: it is retrying on it.
      const fds = () => {
        try {
          return readdirSync(`/proc/${waiter.pid}/fd`).map((fd) => readlinkSync(`/proc/${waiter.pid}/fd/${fd}`));
        } catch {
          return [];
        }
      };
      while (!fds().includes(path)) await Bun.sleep(5);
      unlinkSync(path);
      await killed(holder);
      await until(waiter, "ready\n");
      // Its lock and its note are on the file at the path, not on the unlinked one.
      expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(waiter.pid));
      timeoutOf(() => acquireLock(path, 0));
    } finally {
      await killed(waiter);
    }
  });

  test("errors other than 'busy' (a missing directory) are thrown, not waited on", () => {
    const path = join(tempDir("mogui-lock-"), "no", "such", "dir", "x.lock");
    expect(() => acquireLock(path, 5000)).toThrow(/ENOENT/);
  });

  test("mutual exclusion across 8 processes x 25 increments (an old pid note in the file changes nothing)", async () => {
    const dir = tempDir("mogui-lock-");
    const path = join(dir, "c.lock");
    const counter = join(dir, "counter");
    writeFileSync(path, `${await deadPid()} ${hostname()} ${Date.now()}\n`);
    const procs = Array.from({ length: 8 }, () => Bun.spawn([BUN, COUNTER, path, counter, "25"], { stdout: "ignore", stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual(Array(8).fill(0));
    expect(readFileSync(counter, "utf8")).toBe("200");
    expect(readFileSync(path, "utf8")).toBe("");
  }, 30_000);

  describe.if(hasPython)("with the Python original's fcntl.flock on the same file", () => {
    test("python holds: mogui waits, names the python pid, and takes it once python lets go", async () => {
      const path = lockFile();
      const py = Bun.spawn([PYTHON, PY_FLOCK, "hold", path], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
      const pyPid = Number((await until(py, "\n")).trim().split(" ")[1]);
      try {
        const e = timeoutOf(() => acquireLock(path, 50));
        // The kernel's word (/proc/locks) on Linux; elsewhere the file names nobody.
        if (process.platform === "linux") expect(e.holder).toBe(`pid ${pyPid} (python3)`);
        else expect(e.holder).toBe("a process that left no pid in the lock file");
      } finally {
        (py.stdin as import("bun").FileSink).end();
        expect(await py.exited).toBe(0);
      }
      acquireLock(path, 0)();
    });

    test("mogui holds: python's non-blocking attempt is refused and its blocking wait ends when mogui's holder dies", async () => {
      const path = lockFile();
      const holder = await mkHolder(path);
      let waiter: Bun.Subprocess | undefined;
      try {
        const tryPy = Bun.spawnSync([PYTHON, PY_FLOCK, "try", path]);
        expect(tryPy.stdout.toString()).toBe("busy\n");
        waiter = Bun.spawn([PYTHON, PY_FLOCK, "wait", path], { stdout: "pipe", stderr: "pipe" });
        await until(waiter, "waiting\n");
      } finally {
        await killed(holder);
      }
      expect(await until(waiter!, "got\n")).toBe("got\n");
      expect(await waiter.exited).toBe(0);
      expect(Bun.spawnSync([PYTHON, PY_FLOCK, "try", path]).stdout.toString()).toBe("free\n");
    });
  });
});

describe("acquirePidLock: the fallback where flock is unavailable", () => {
  test("the file holds '<pid> <host> <ms>' while held and is gone after release", () => {
    const path = lockFile();
    const release = acquirePidLock(path, 1000);
    expect(readFileSync(path, "utf8").split(" ").slice(0, 2)).toEqual([String(process.pid), hostname()]);
    release();
    expect(existsSync(path)).toBe(false);
    release();
  });

  test("a fresh live holder is respected and named in the timeout", () => {
    const path = lockFile();
    const release = acquirePidLock(path, 500);
    try {
      const e = timeoutOf(() => acquirePidLock(path, 60));
      expect(e.message).toStartWith(`could not take lock ${path} within 60 ms (held by pid ${process.pid} on ${hostname()} since `);
    } finally {
      release();
    }
  });

  test("a dead pid's lock is broken, with or without a host field", async () => {
    for (const note of [`${await deadPid()} ${hostname()} ${Date.now()}\n`, `${await deadPid()}\n`]) {
      const path = lockFile();
      writeFileSync(path, note);
      const release = acquirePidLock(path, 2000);
      expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(process.pid));
      release();
    }
  });

  test("an empty lock file: respected within the grace, stale after it", () => {
    const path = lockFile();
    writeFileSync(path, "");
    timeoutOf(() => acquirePidLock(path, 100));
    expect(readFileSync(path, "utf8")).toBe("");
    const old = new Date(Date.now() - 5_000);
    utimesSync(path, old, old);
    acquirePidLock(path, 1000)();
  });

  test("a live pid is respected while the file is young and broken once it is older than any holder (pid reuse)", () => {
    const path = lockFile();
    writeFileSync(path, `${process.pid} ${hostname()} 0\n`);
    timeoutOf(() => acquirePidLock(path, 60));
    const old = new Date(Date.now() - PID_LOCK_MAX_AGE_MS - 5_000);
    utimesSync(path, old, old);
    acquirePidLock(path, 1000)();
    expect(existsSync(path)).toBe(false);
  });

  test("a lock naming another host is never broken, however old", async () => {
    const path = lockFile();
    writeFileSync(path, `${await deadPid()} not-${hostname()} ${Date.now()}\n`);
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(path, old, old);
    timeoutOf(() => acquirePidLock(path, 60));
    expect(existsSync(path)).toBe(true);
  });

  test("mutual exclusion across 8 processes that all start by breaking a stale lock", async () => {
    const dir = tempDir("mogui-lock-");
    const path = join(dir, "c.lock");
    const counter = join(dir, "counter");
    writeFileSync(path, `${await deadPid()} ${hostname()} ${Date.now()}\n`);
    const procs = Array.from({ length: 8 }, () => Bun.spawn([BUN, COUNTER, path, counter, "25", "pid"], { stdout: "ignore", stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual(Array(8).fill(0));
    expect(readFileSync(counter, "utf8")).toBe("200");
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.break`)).toBe(false);
  }, 30_000);
});
