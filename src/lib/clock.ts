/**
 * Time for the worker commands. Two test hooks, read from the command's env (never process.env):
 *   MOGUI_WORKER_NOW         epoch milliseconds to use as "now" (stuck and hold windows can be tested end to end)
 *   MOGUI_WORKER_TIME_SCALE  multiplies every sleep (0.01 makes a 30 s landing window take 0.3 s of real time)
 * The waits themselves are counted in unscaled time, so a scaled run makes exactly the same attempts.
 */
import type { Ctx } from "./context.ts";

export function workerNow(ctx: Pick<Ctx, "env" | "now">): number {
  const raw = ctx.env.MOGUI_WORKER_NOW;
  if (raw && /^\d+$/.test(raw)) return Number(raw);
  return ctx.now();
}

function timeScale(ctx: Pick<Ctx, "env">): number {
  const n = Number(ctx.env.MOGUI_WORKER_TIME_SCALE);
  return Number.isFinite(n) && n > 0 && n <= 1 ? n : 1;
}

export function pause(ctx: Pick<Ctx, "env">, ms: number): Promise<void> {
  return Bun.sleep(Math.max(0, Math.round(ms * timeScale(ctx))));
}

/** Job ids use UTC minutes: <issue>-<stage>-<YYYYMMDD-HHMM>. */
export function jobStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}
