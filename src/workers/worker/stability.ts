/**
 * A single `idle` reading is never trusted (herdr flaps: idle/done blips while an agent works). A pane counts as
 * not working only when every one of several readings, spaced apart, says so.
 */
import type { Ctx } from "../../lib/context.ts";
import type { Host, HostStatus } from "../../lib/host/types.ts";
import { pause } from "../../lib/clock.ts";

export interface Stability {
  notWorking: boolean;
  gone: boolean;
  status: HostStatus;
  readings: string[];
}

export const DEFAULT_READINGS = 3;
export const DEFAULT_INTERVAL_MS = 2_000;

export async function stableStatus(ctx: Ctx, host: Host, pane: string, readings = DEFAULT_READINGS, intervalMs = DEFAULT_INTERVAL_MS): Promise<Stability> {
  const seen: string[] = [];
  let last: HostStatus = "unknown";
  for (let i = 0; i < readings; i++) {
    if (i > 0) await pause(ctx, intervalMs);
    const r = await host.status(pane);
    seen.push(r.raw);
    last = r.status;
    if (r.status === "gone") return { notWorking: true, gone: true, status: "gone", readings: seen };
    if (r.status === "working") return { notWorking: false, gone: false, status: "working", readings: seen };
  }
  return { notWorking: true, gone: false, status: last, readings: seen };
}
