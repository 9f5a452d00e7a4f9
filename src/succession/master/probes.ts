/**
 * Process and tty disappearance probes for retirement (§5.7) through the runner seam. A probe that cannot run
 * (no `ps`, a timeout, a signal) is `skipped:<why>` (D21), never "gone". A zombie is a dead process: its row is
 * ignored (an unreaped child would otherwise look alive forever in a container whose PID 1 does not reap).
 */
import type { Ctx } from "../../lib/context.ts";
import type { RunResult } from "../../lib/runner.ts";

const PROBE_TIMEOUT_MS = 5_000;

/** true = present, false = gone, string = skipped:<why>. */
export type ProbeResult = boolean | `skipped:${string}`;
export type Probe = (target: string) => Promise<ProbeResult>;

function liveRows(stdout: string): string[] {
  return stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .filter((l) => !/^\d+\s+Z/.test(l));
}

function interpret(r: RunResult): ProbeResult {
  if (r.missing) return "skipped:ps not found";
  if (r.timedOut) return `skipped:ps timed out after ${PROBE_TIMEOUT_MS} ms`;
  if (r.signal) return `skipped:ps killed by ${r.signal}`;
  if (r.code === 0) return liveRows(r.stdout).length > 0;
  // ps exits 1 when nothing matched (procps and BSD alike), including "TTY could not be found".
  if (r.code === 1) return false;
  return `skipped:ps exit ${r.code}`;
}

export function processProbe(ctx: Ctx): Probe {
  return async (pid) => interpret(await ctx.runner(["ps", "-p", pid, "-o", "pid=,stat="], { env: ctx.env, timeoutMs: PROBE_TIMEOUT_MS }));
}

export function ttyProbe(ctx: Ctx): Probe {
  return async (tty) => interpret(await ctx.runner(["ps", "-t", tty, "-o", "pid=,stat="], { env: ctx.env, timeoutMs: PROBE_TIMEOUT_MS }));
}

/** Re-probe a present target until it is gone or `settleMs` passes (a killed pty's processes die asynchronously). */
export async function settle(probe: Probe, target: string, settleMs: number, sleep: (ms: number) => Promise<void>): Promise<ProbeResult> {
  let r = await probe(target);
  const deadline = Date.now() + settleMs;
  while (r === true && Date.now() < deadline) {
    await sleep(Math.min(100, Math.max(1, deadline - Date.now())));
    r = await probe(target);
  }
  return r;
}
