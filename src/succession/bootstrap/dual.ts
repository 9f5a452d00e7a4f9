/**
 * Dual-instance detection (§6 step 5): another `claude` process whose command line carries this session id.
 * mogui lists `ps -axo pid=,ppid=,command=` and skips itself AND its ancestors: the hook runs under the very
 * `claude` session it is checking, which would otherwise report itself as a duplicate.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { describeFailure, isRealRunner, ok } from "../../lib/runner.ts";

const PS_ARGV = ["ps", "-axo", "pid=,ppid=,command="] as const;
const PS_TIMEOUT_MS = 5_000;

interface Row {
  pid: number;
  ppid: number;
  command: string;
}

function parsePs(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*\S)\s*$/.exec(line);
    if (m) rows.push({ pid: Number(m[1]), ppid: Number(m[2]), command: m[3]! });
  }
  return rows;
}

function ancestors(rows: Row[], self: number): Set<number> {
  const byPid = new Map(rows.map((r) => [r.pid, r]));
  const out = new Set<number>([self]);
  let cur = byPid.get(self)?.ppid;
  while (cur !== undefined && cur > 0 && !out.has(cur)) {
    out.add(cur);
    cur = byPid.get(cur)?.ppid;
  }
  return out;
}

/** `DUAL_INSTANCE:<pid>` for every other `claude` whose command line contains the session id. */
export function dualWarnings(psText: string, sessionId: string, selfPid: number, parentPid?: number): string[] {
  const rows = parsePs(psText);
  const skip = ancestors(rows, selfPid);
  if (parentPid !== undefined) for (const p of ancestors(rows, parentPid)) skip.add(p);
  return rows
    .filter((r) => !skip.has(r.pid))
    .filter((r) => r.command.includes(sessionId) && basename(r.command.split(/\s+/)[0] ?? "") === "claude")
    .map((r) => `DUAL_INSTANCE:${r.pid}`);
}

export type ProcessProbe = () => Promise<string>;

class ProbeFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProcessProbeFailed";
  }
}

function statPpid(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const m = /\)\s+\S+\s+(\d+)/.exec(stat.slice(stat.lastIndexOf(")")));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The same `pid ppid command` table read straight from /proc (Linux): spawning `ps` costs more than the rest of
 * the SessionStart hook together. Only this process's ancestors get a real ppid (nothing else needs one).
 */
function procTable(selfPid: number = process.pid): string {
  const chain = new Map<number, number>();
  for (let pid: number | null = selfPid; pid && pid > 0 && !chain.has(pid); ) {
    const ppid = statPpid(pid);
    if (ppid === null) break;
    chain.set(pid, ppid);
    pid = ppid;
  }
  const lines: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${name}/cmdline`, "utf8")
        .replace(/[\0\n]+/g, " ")
        .trim();
    } catch {
      continue;
    }
    if (cmd) lines.push(`${name} ${chain.get(Number(name)) ?? 0} ${cmd}`);
  }
  return lines.join("\n");
}

function hasProc(): boolean {
  try {
    return readdirSync("/proc/self").length > 0;
  } catch {
    return false;
  }
}

export function psProbe(ctx: Ctx): ProcessProbe {
  // The /proc fast path only with the real runner: tests that stub the runner get the `ps` they stubbed.
  if (isRealRunner(ctx.runner) && process.platform === "linux" && hasProc()) return async () => procTable();
  return async () => {
    const r = await ctx.runner([...PS_ARGV], { env: ctx.env, timeoutMs: PS_TIMEOUT_MS });
    if (!ok(r)) throw new ProbeFailed(describeFailure(r, PS_TIMEOUT_MS));
    return r.stdout;
  };
}
