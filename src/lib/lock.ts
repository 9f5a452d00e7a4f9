/**
 * A cross-process lock file (O_EXCL create). The holder's pid is written into it, so a lock left behind by a
 * killed process is recognised (the pid is gone) and broken; breaking goes through a second, short-lived
 * "break" lock so two waiters can never both break and then delete each other's fresh lock.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** A lock file still empty after this long belongs to a process that died between create and write. */
const EMPTY_LOCK_GRACE_MS = 2_000;

export class LockTimeoutError extends Error {
  constructor(readonly lockPath: string, timeoutMs: number) {
    super(`could not take lock ${lockPath} within ${timeoutMs} ms`);
    this.name = "LockTimeoutError";
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

let cachedHost: string | undefined;
/** os.hostname(), asked once per process (every lock take and stale check needs it). */
function thisHost(): string {
  return (cachedHost ??= hostname());
}

function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeSync(fd, `${process.pid} ${thisHost()} ${Date.now()}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function readHolder(path: string): { text: string; ageMs: number } | undefined {
  try {
    const text = readFileSync(path, "utf8");
    const ageMs = Date.now() - statSync(path).mtimeMs;
    return { text, ageMs };
  } catch {
    return undefined;
  }
}

/** True when the lock's holder is provably gone (dead pid on this host, or an empty file past its grace). */
function isStale(holder: { text: string; ageMs: number }): boolean {
  const [pidText, host] = holder.text.trim().split(" ");
  if (!pidText) return holder.ageMs > EMPTY_LOCK_GRACE_MS;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return holder.ageMs > EMPTY_LOCK_GRACE_MS;
  if (host && host !== thisHost()) return false;
  return !pidAlive(pid);
}

function tryBreakStale(path: string): void {
  const breaker = `${path}.break`;
  const b = readHolder(breaker);
  if (b && isStale(b)) {
    try {
      unlinkSync(breaker);
    } catch {
      /* someone else did */
    }
  }
  if (!tryCreate(breaker)) return;
  try {
    const h = readHolder(path);
    if (h && isStale(h)) {
      try {
        unlinkSync(path);
      } catch {
        /* already gone */
      }
    }
  } finally {
    try {
      unlinkSync(breaker);
    } catch {
      /* ignore */
    }
  }
}

function sleepMs(ms: number): void {
  Bun.sleepSync(ms);
}

/** Take the lock (synchronously: ledger appends are short and must not interleave with other awaits). */
export function acquireLock(path: string, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS): () => void {
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  for (;;) {
    if (tryCreate(path)) {
      return () => {
        try {
          unlinkSync(path);
        } catch {
          /* a breaker may have judged us dead; nothing to undo */
        }
      };
    }
    const h = readHolder(path);
    if (h && isStale(h)) tryBreakStale(path);
    if (Date.now() >= deadline) throw new LockTimeoutError(path, timeoutMs);
    sleepMs(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 25);
  }
}

export function withLock<T>(path: string, fn: () => T, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS): T {
  const release = acquireLock(path, timeoutMs);
  try {
    return fn();
  } finally {
    release();
  }
}
