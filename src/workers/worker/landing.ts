/**
 * Landing proof (spawn-worker §4-2). "The command returned OK" and status `working` are not proof: only the brief's
 * marker in the pane's recent unwrapped output is (or, when a working alternate-screen agent refuses a history
 * read, its visible screen; the evidence names the source actually read). Observe with backoff 0.5 s -> 1 s -> 2 s (then every 2 s) for
 * the window (30 s, 60 s for codex); with no positive evidence, re-inject ONCE and observe one more window.
 */
import type { Ctx } from "../../lib/context.ts";
import { errorMessage } from "../../lib/errors.ts";
import type { Host, HostRead } from "../../lib/host/types.ts";
import { pause } from "../../lib/clock.ts";

export interface LandingResult {
  landed: boolean;
  attempts: number;
  reinjected: boolean;
  reads: number;
  /** What the proof was (`marker M in the pane's recent output (herdr agent read ...)`), or why there is none. */
  evidence: string;
  errors: string[];
}

export const LANDING_READ_LINES = 200;

export function backoff(step: number): number {
  return Math.min(2_000, 500 * 2 ** step);
}

async function readOnce(host: Host, pane: string): Promise<HostRead> {
  if (host.readEvidence) return host.readEvidence(pane, LANDING_READ_LINES);
  return { text: await host.readRecent(pane, LANDING_READ_LINES), source: "recent output" };
}

/** The source of the read that found the marker, or undefined when the window ended without it. */
async function observe(ctx: Ctx, host: Host, pane: string, marker: string, windowMs: number, res: LandingResult): Promise<string | undefined> {
  let waited = 0;
  for (let step = 0; waited < windowMs; step++) {
    const d = Math.min(backoff(step), windowMs - waited);
    await pause(ctx, d);
    waited += d;
    res.reads++;
    try {
      const r = await readOnce(host, pane);
      if (r.text.includes(marker)) return r.source;
    } catch (e) {
      // A failed read is not evidence either way; keep observing until the window ends.
      if (res.errors.length < 5) res.errors.push(errorMessage(e));
    }
  }
  return undefined;
}

export async function proveLanding(ctx: Ctx, host: Host, pane: string, text: string, marker: string, windowMs: number): Promise<LandingResult> {
  const res: LandingResult = { landed: false, attempts: 0, reinjected: false, reads: 0, evidence: "", errors: [] };
  for (let attempt = 0; attempt < 2; attempt++) {
    res.attempts++;
    res.reinjected = attempt > 0;
    try {
      await host.sendText(pane, text);
    } catch (e) {
      res.errors.push(errorMessage(e));
    }
    const source = await observe(ctx, host, pane, marker, windowMs, res);
    if (source !== undefined) {
      res.landed = true;
      res.evidence = `marker ${marker} in the pane's ${source}`;
      return res;
    }
  }
  res.evidence = `marker ${marker} never appeared in ${res.reads} reads over ${res.attempts} injections`;
  return res;
}
