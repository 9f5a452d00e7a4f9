/**
 * Cross-process locks (DECISIONS D33).
 *
 * On Linux and macOS a lock is a kernel advisory lock: `flock(2)` through `bun:ffi` on a lock file opened
 * O_RDWR|O_CREAT and kept open while held. The kernel drops the lock when its holder dies, however it dies, so a
 * killed holder releases at once and a pid that the file names can never wedge anyone. The file's content (the
 * holder's `<pid> <host> <ms>`) is information for the timeout message only, never the lock itself; the file is
 * never deleted (deleting it would race with waiters that already opened it), and it is emptied on release. The
 * gate's lock file is the one the Python original locks with `fcntl.flock`, so the two exclude each other.
 *
 * Where flock is unavailable (Windows, a libc that cannot be opened) the lock is the older pid lock file: O_EXCL
 * create with the holder's pid, broken when that pid is dead, when the file stayed empty past a grace, or when it is
 * older than any real holder could be (a live pid that is not the holder: pid reuse). Breaking goes through a
 * second, short-lived "break" lock so two waiters can never both break and then delete each other's fresh lock.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { FFIType, read } from "bun:ffi";
import { openLibc } from "./libc.ts";
import { errnoCode } from "./errors.ts";

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** A pid lock file still empty after this long belongs to a process that died between create and write. */
const EMPTY_LOCK_GRACE_MS = 2_000;
/** A pid lock file older than this names a live process that cannot be its holder (pid reuse): no lock is held that long. */
export const PID_LOCK_MAX_AGE_MS = 60_000;

export class LockTimeoutError extends Error {
  constructor(
    readonly lockPath: string,
    timeoutMs: number,
    readonly holder?: string,
  ) {
    super(`could not take lock ${lockPath} within ${timeoutMs} ms${holder ? ` (held by ${holder})` : ""}`);
    this.name = "LockTimeoutError";
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === "EPERM";
  }
}

let cachedHost: string | undefined;
/** os.hostname(), asked once per process (every lock take and stale check needs it). */
function thisHost(): string {
  return (cachedHost ??= hostname());
}

function holderLine(): string {
  return `${process.pid} ${thisHost()} ${Date.now()}\n`;
}

/** `<pid> <host> <ms>` as written by a holder, or undefined for an empty or foreign file. */
function parseHolder(text: string): { pid: number; host?: string; ms?: number } | undefined {
  const [pidText, host, msText] = text.trim().split(" ");
  const pid = Number(pidText);
  if (!pidText || !Number.isInteger(pid) || pid <= 0) return undefined;
  const ms = Number(msText);
  return { pid, host: host || undefined, ms: msText && Number.isFinite(ms) ? ms : undefined };
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function describeInfo(info: { pid: number; host?: string; ms?: number }): string {
  const since = info.ms !== undefined && info.ms > 0 ? ` since ${new Date(info.ms).toISOString()}` : "";
  return `pid ${info.pid}${info.host ? ` on ${info.host}` : ""}${since}`;
}

// ---------------------------------------------------------------------------------------------------- flock

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

interface Flock {
  flock(fd: number, op: number): number;
  errno(): number;
  /** EWOULDBLOCK / EAGAIN and EINTR on this platform: the attempt may be retried. */
  retryable: ReadonlySet<number>;
}

let flockApi: Flock | null | undefined;

/** flock(2) from the C library, or null where there is none to open (Windows) or it cannot be opened. */
function loadFlock(): Flock | null {
  if (flockApi !== undefined) return flockApi;
  flockApi = null;
  const mac = process.platform === "darwin";
  if (process.platform !== "linux" && !mac) return flockApi;
  try {
    // Opened lazily: a command that never locks never pays for dlopen.
    const errnoSym = mac ? "__error" : "__errno_location";
    const symbols = { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 }, [errnoSym]: { args: [], returns: FFIType.ptr } } as const;
    const lib = openLibc(symbols);
    if (!lib) return flockApi;
    const flock = lib.symbols.flock as (fd: number, op: number) => number;
    const errnoPtr = lib.symbols[errnoSym] as () => number | null;
    flockApi = {
      flock,
      errno: () => {
        const p = errnoPtr();
        return p ? read.i32(p as never, 0) : 0;
      },
      // EAGAIN (== EWOULDBLOCK) is 11 on Linux, 35 on macOS; EINTR is 4 on both.
      retryable: new Set(mac ? [35, 4] : [11, 4]),
    };
  } catch {
    flockApi = null;
  }
  return flockApi;
}

/** "flock" where kernel locks are used, "pid" where the pid lock file stands in for them. */
export function lockBackend(): "flock" | "pid" {
  return loadFlock() ? "flock" : "pid";
}

/** Pids holding a flock on this inode, from /proc/locks (Linux only; [] elsewhere or when unreadable). */
function kernelHolders(ino: number): number[] {
  if (process.platform !== "linux") return [];
  const pids: number[] = [];
  for (const line of readText("/proc/locks").split("\n")) {
    // "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; waiters carry "->" and are skipped.
    const f = line.trim().split(/\s+/);
    if (f[1] !== "FLOCK" || !f[5]) continue;
    if (Number(f[5].split(":")[2]) === ino && Number(f[4]) > 0) pids.push(Number(f[4]));
  }
  return pids;
}

/** Who holds the flock on `path`, for the timeout message: the kernel's word first, the file's note second. */
function describeFlockHolder(path: string, fd: number): string {
  const info = parseHolder(readText(path));
  let ino = -1;
  try {
    ino = fstatSync(fd).ino;
  } catch {
    /* describe from the file alone */
  }
  const pid = kernelHolders(ino)[0];
  if (pid !== undefined) {
    if (info?.pid === pid) return describeInfo(info);
    const comm = readText(`/proc/${pid}/comm`).trim();
    return `pid ${pid}${comm ? ` (${comm})` : ""}`;
  }
  if (info) return describeInfo(info);
  return "a process that left no pid in the lock file";
}

function sameFile(fd: number, path: string): boolean {
  try {
    const a = fstatSync(fd);
    const b = statSync(path);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

function acquireFlock(api: Flock, path: string, timeoutMs: number): () => void {
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  for (;;) {
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
    let held = false;
    try {
      while (!held) {
        if (api.flock(fd, LOCK_EX | LOCK_NB) === 0) {
          held = true;
          break;
        }
        const err = api.errno();
        if (!api.retryable.has(err)) throw new Error(`cannot lock ${path}: flock failed (errno ${err})`);
        if (Date.now() >= deadline) throw new LockTimeoutError(path, timeoutMs, describeFlockHolder(path, fd));
        Bun.sleepSync(delay + Math.floor(Math.random() * delay));
        delay = Math.min(delay * 2, 25);
      }
      // Someone removed or replaced the file while we waited on the old one: lock the file that is there now.
      if (!sameFile(fd, path)) {
        api.flock(fd, LOCK_UN);
        held = false;
        if (Date.now() >= deadline) throw new LockTimeoutError(path, timeoutMs);
        continue;
      }
      try {
        ftruncateSync(fd, 0);
        writeSync(fd, holderLine(), 0);
      } catch {
        /* the note is information only; a full disk must not fail the lock */
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          ftruncateSync(fd, 0);
        } catch {
          /* information only */
        }
        api.flock(fd, LOCK_UN);
        closeSync(fd);
      };
    } finally {
      if (!held) closeSync(fd);
    }
  }
}

// ---------------------------------------------------------------------------------------------------- pid lock

function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (e) {
    if (errnoCode(e) === "EEXIST") return false;
    throw e;
  }
  try {
    writeSync(fd, holderLine());
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

/**
 * True when the lock's holder is provably gone: a dead pid on this host, an empty file past its grace, or a file
 * older than any real holder (its live pid was reused by an unrelated process).
 */
function isStale(holder: { text: string; ageMs: number }): boolean {
  const info = parseHolder(holder.text);
  if (!info) return holder.ageMs > EMPTY_LOCK_GRACE_MS;
  if (info.host && info.host !== thisHost()) return false;
  return !pidAlive(info.pid) || holder.ageMs > PID_LOCK_MAX_AGE_MS;
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

/** The pid lock file (the fallback where flock is unavailable); exported for its own tests. */
export function acquirePidLock(path: string, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS): () => void {
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
    if (Date.now() >= deadline) {
      const info = parseHolder(readText(path));
      throw new LockTimeoutError(path, timeoutMs, info ? describeInfo(info) : undefined);
    }
    Bun.sleepSync(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 25);
  }
}

// ---------------------------------------------------------------------------------------------------- API

/** Take the lock (synchronously: ledger appends are short and must not interleave with other awaits). */
export function acquireLock(path: string, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS): () => void {
  const api = loadFlock();
  return api ? acquireFlock(api, path, timeoutMs) : acquirePidLock(path, timeoutMs);
}

export function withLock<T>(path: string, fn: () => T, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS): T {
  const release = acquireLock(path, timeoutMs);
  try {
    return fn();
  } finally {
    release();
  }
}
