/**
 * Which processes live inside a directory, and stopping them safely. Linux reads /proc (each process's cwd link
 * and open-file links); macOS asks `lsof` through the runner; anywhere else, or when neither answers, the answer
 * is "unmeasured" (never "none"). Signals are sent only after re-reading the process's start time and location
 * right before each signal, so a pid the kernel reused for an unrelated process is never hit.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import type { Ctx } from "../../lib/context.ts";
import { ok } from "../../lib/runner.ts";

export interface ProcInfo {
  pid: number;
  command: string;
  /** An opaque start-time token (Linux: clock ticks since boot; macOS: `ps -o lstart`). */
  start: string;
  /** Its working directory, when known (absolute, as the kernel reports it). */
  cwd: string | null;
  /** Paths the process is "in": its cwd and its open files (absolute, as the kernel reports them). */
  paths: string[];
}

export interface ProcTable {
  /** null when processes cannot be measured here (with the reason in `why`). */
  list(): Promise<ProcInfo[] | null>;
  why: string;
  /** The process now, or null when it is gone (exited, zombie, or its pid reused: start differs). */
  current(pid: number, start: string): Promise<ProcInfo | null>;
  signal(pid: number, sig: "SIGTERM" | "SIGKILL"): boolean;
  /** Our own pid and its ancestors: never signalled, whatever their cwd. */
  protectedPids(): Set<number>;
}

function readText(p: string): string | null {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return null;
  }
}

function link(p: string): string | null {
  try {
    return readlinkSync(p);
  } catch {
    return null;
  }
}

/** /proc/<pid>/stat: state and start time sit after the command's closing parenthesis. */
function statFields(pid: number): { state: string; ppid: number; start: string } | null {
  const s = readText(`/proc/${pid}/stat`);
  if (!s) return null;
  const rest = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return { state: rest[0] ?? "?", ppid: Number(rest[1]), start: rest[19] ?? "?" };
}

function linuxProc(pid: number): ProcInfo | null {
  const st = statFields(pid);
  if (!st || st.state === "Z" || st.state === "X") return null;
  const cwd = link(`/proc/${pid}/cwd`);
  if (cwd === null) return null; // another user's process, or gone
  const paths = [cwd];
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    // fds unreadable: the cwd still counts
  }
  for (const fd of fds) {
    const t = link(`/proc/${pid}/fd/${fd}`);
    if (t?.startsWith("/")) paths.push(t.replace(/ \(deleted\)$/, ""));
  }
  const cmdline = readText(`/proc/${pid}/cmdline`);
  const command = cmdline ? cmdline.replace(/\0+$/, "").split("\0").join(" ") : (readText(`/proc/${pid}/comm`)?.trim() ?? "?");
  return { pid, command, start: st.start, cwd, paths };
}

function linuxTable(): ProcTable {
  return {
    why: "",
    async list() {
      const out: ProcInfo[] = [];
      for (const name of readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        const p = linuxProc(Number(name));
        if (p) out.push(p);
      }
      return out;
    },
    async current(pid, start) {
      const p = linuxProc(pid);
      return p && p.start === start ? p : null;
    },
    signal: sendSignal,
    protectedPids() {
      const out = new Set<number>([process.pid]);
      let pid = process.pid;
      for (let i = 0; i < 64 && pid > 1; i++) {
        const st = statFields(pid);
        if (!st || !Number.isFinite(st.ppid)) break;
        pid = st.ppid;
        out.add(pid);
      }
      return out;
    },
  };
}

function sendSignal(pid: number, sig: "SIGTERM" | "SIGKILL"): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** `lsof -F pcfn` output: p<pid>, c<command>, then per open file f<fd> (`cwd` for the working directory), n<name>. */
function parseLsof(text: string): Map<number, { command: string; cwd: string | null; paths: string[] }> {
  const m = new Map<number, { command: string; cwd: string | null; paths: string[] }>();
  let cur: { command: string; cwd: string | null; paths: string[] } | null = null;
  let fd = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("p")) {
      const pid = Number(line.slice(1));
      cur = m.get(pid) ?? { command: "?", cwd: null, paths: [] };
      m.set(pid, cur);
    } else if (cur && line.startsWith("c")) cur.command = line.slice(1);
    else if (cur && line.startsWith("f")) fd = line.slice(1);
    else if (cur && line.startsWith("n/")) {
      cur.paths.push(line.slice(1));
      if (fd === "cwd") cur.cwd = line.slice(1);
    }
  }
  return m;
}

function lsofTable(ctx: Pick<Ctx, "runner" | "env">): ProcTable {
  const start = async (pid: number): Promise<string | null> => {
    const r = await ctx.runner(["ps", "-o", "lstart=", "-p", String(pid)], { env: ctx.env, timeoutMs: 10_000 });
    return ok(r) && r.stdout.trim() ? r.stdout.trim() : null;
  };
  const table: ProcTable = {
    why: "",
    async list() {
      const r = await ctx.runner(["lsof", "-n", "-P", "-w", "-F", "pcfn"], { env: ctx.env, timeoutMs: 60_000 });
      // lsof exits 1 when some files could not be listed; its output is still usable when there is any.
      if (r.missing || r.timedOut || r.stdout.trim() === "") {
        table.why = r.missing ? "lsof not found" : r.timedOut ? "lsof timed out" : "lsof printed nothing";
        return null;
      }
      const out: ProcInfo[] = [];
      for (const [pid, p] of parseLsof(r.stdout)) out.push({ pid, command: p.command, start: "", cwd: p.cwd, paths: p.paths });
      return out;
    },
    async current(pid, st) {
      const s = await start(pid);
      return s !== null && (st === "" || s === st) ? { pid, command: "?", start: s, cwd: null, paths: [] } : null;
    },
    signal: sendSignal,
    protectedPids: () => new Set([process.pid, process.ppid]),
  };
  return table;
}

function unmeasured(why: string): ProcTable {
  return { why, list: async () => null, current: async () => null, signal: () => false, protectedPids: () => new Set() };
}

export function systemProcTable(ctx: Pick<Ctx, "runner" | "env">): ProcTable {
  if (process.platform === "linux" && existsSync("/proc/self/stat")) return linuxTable();
  if (process.platform === "darwin") return lsofTable(ctx);
  return unmeasured(`no /proc and no lsof support on ${process.platform}`);
}

export function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Is `p` the directory `dir` or inside it? Both should be real paths. */
export function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}
