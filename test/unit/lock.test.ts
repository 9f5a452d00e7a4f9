/**
 * The cross-process lock file: O_EXCL create with the holder's pid, stale-lock recovery (dead pid, empty file past
 * its grace), a hard timeout, and mutual exclusion between processes even when they all start by breaking a
 * stale lock.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { DEFAULT_LOCK_TIMEOUT_MS, LockTimeoutError, acquireLock, withLock } from "../../src/lib/lock.ts";
import { BUN, ROOT, tempDir } from "../helpers/paths.ts";

const COUNTER = join(ROOT, "test", "fixtures-scripts", "lock-counter.ts");
const HOLDER = join(ROOT, "test", "fixtures-scripts", "lock-holder.ts");

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

describe("acquireLock / withLock", () => {
  test("the lock file holds '<pid> <host> <ms>' while held and is gone after release", () => {
    const path = lockFile();
    const before = Date.now();
    const release = acquireLock(path, 1000);
    const [pid, host, ms, ...rest] = readFileSync(path, "utf8").trimEnd().split(" ");
    expect([pid, host, rest]).toEqual([String(process.pid), hostname(), []]);
    expect(Number(ms)).toBeGreaterThanOrEqual(before);
    expect(Number(ms)).toBeLessThanOrEqual(Date.now());
    expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
    release();
    expect(existsSync(path)).toBe(false);
    // Releasing twice is harmless.
    release();
  });

  test("withLock returns the function's value and releases even when it throws", () => {
    const path = lockFile();
    expect(withLock(path, () => 42, 500)).toBe(42);
    expect(existsSync(path)).toBe(false);
    expect(() =>
      withLock(
        path,
        () => {
          expect(existsSync(path)).toBe(true);
          throw new Error("inside");
        },
        500,
      ),
    ).toThrow("inside");
    expect(existsSync(path)).toBe(false);
  });

  test("a held lock times out with LockTimeoutError naming the path and the timeout", () => {
    const path = lockFile();
    const release = acquireLock(path, 500);
    try {
      const t0 = performance.now();
      const e = timeoutOf(() => acquireLock(path, 120));
      const elapsed = performance.now() - t0;
      expect(e.lockPath).toBe(path);
      expect(e.name).toBe("LockTimeoutError");
      expect(e.message).toBe(`could not take lock ${path} within 120 ms`);
      expect(elapsed).toBeGreaterThanOrEqual(115);
      expect(elapsed).toBeLessThan(1000);
      // The holder's file was not touched.
      expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(process.pid));
    } finally {
      release();
    }
    expect(DEFAULT_LOCK_TIMEOUT_MS).toBe(10_000);
  });

  test("a lock held by another live process is respected; once it is killed the lock is recovered", async () => {
    const dir = tempDir("mogui-lock-");
    const ledger = join(dir, "l.jsonl");
    const path = `${ledger}.lock`;
    const holder = Bun.spawn([BUN, HOLDER, ledger], { stdout: "pipe", stderr: "pipe" });
    try {
      const reader = (holder.stdout as ReadableStream<Uint8Array>).getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toBe("ready\n");
      expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(holder.pid));
      timeoutOf(() => acquireLock(path, 100));
    } finally {
      holder.kill("SIGKILL");
      await holder.exited;
    }
    const release = acquireLock(path, 2000);
    expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(process.pid));
    release();
  });

  test("a dead pid's lock is broken at once", async () => {
    const path = lockFile();
    writeFileSync(path, `${await deadPid()} ${hostname()} ${Date.now()}\n`);
    const t0 = performance.now();
    const release = acquireLock(path, 2000);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(process.pid));
    release();
  });

  test("a dead pid without a host field is stale too", async () => {
    const path = lockFile();
    writeFileSync(path, `${await deadPid()}\n`);
    acquireLock(path, 1000)();
    expect(existsSync(path)).toBe(false);
  });

  test("an empty lock file: respected within the grace, stale after it", () => {
    const path = lockFile();
    writeFileSync(path, "");
    timeoutOf(() => acquireLock(path, 150));
    expect(readFileSync(path, "utf8")).toBe("");
    const old = new Date(Date.now() - 5_000);
    utimesSync(path, old, old);
    const release = acquireLock(path, 1000);
    expect(readFileSync(path, "utf8").split(" ")[0]).toBe(String(process.pid));
    release();
  });

  test("a live pid on this host is never broken, however old the file", () => {
    const path = lockFile();
    writeFileSync(path, `${process.pid} ${hostname()} 0\n`);
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(path, old, old);
    timeoutOf(() => acquireLock(path, 100));
    expect(existsSync(path)).toBe(true);
  });

  test("errors other than 'exists' (a missing directory) are thrown, not retried until the timeout", () => {
    const path = join(tempDir("mogui-lock-"), "no", "such", "dir", "x.lock");
    const t0 = performance.now();
    expect(() => acquireLock(path, 5000)).toThrow(/ENOENT/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  test("mutual exclusion across 8 processes that all start by breaking a stale lock", async () => {
    const dir = tempDir("mogui-lock-");
    const path = join(dir, "c.lock");
    const counter = join(dir, "counter");
    writeFileSync(path, `${await deadPid()} ${hostname()} ${Date.now()}\n`);
    const procs = Array.from({ length: 8 }, () => Bun.spawn([BUN, COUNTER, path, counter, "25"], { stdout: "ignore", stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual(Array(8).fill(0));
    expect(readFileSync(counter, "utf8")).toBe("200");
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.break`)).toBe(false);
  }, 30_000);
});
