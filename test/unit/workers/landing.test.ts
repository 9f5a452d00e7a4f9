import { describe, expect, test } from "bun:test";
import type { Host } from "../../../src/lib/host/types.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { backoff, proveLanding } from "../../../src/workers/worker/landing.ts";
import { stableStatus } from "../../../src/workers/worker/stability.ts";

// Sleeps shrink to almost nothing; the windows are still counted in unscaled time.
const ctx = { env: { MOGUI_WORKER_TIME_SCALE: "0.00001" }, now: () => 0 } as unknown as Ctx;

function fakeHost(o: { landOnRead?: number; sendFails?: number; statuses?: string[] } = {}) {
  let reads = 0;
  let sends = 0;
  let st = 0;
  const h = {
    kind: "herdr" as const,
    sends: () => sends,
    async sendText() {
      sends++;
      if (o.sendFails && sends <= o.sendFails) throw new Error("send refused");
    },
    async readRecent() {
      reads++;
      return o.landOnRead && reads >= o.landOnRead ? "Brief marker: M-1\n" : "$ claude\n";
    },
    async status(_p: string) {
      const s = (o.statuses ?? ["idle"])[st++ % (o.statuses ?? ["idle"]).length]!;
      return { status: (s === "done" ? "idle" : s) as never, raw: s };
    },
  };
  return h as unknown as Host & { sends(): number };
}

describe("landing proof", () => {
  test("backoff 0.5 s -> 1 s -> 2 s, then every 2 s", () => {
    expect([0, 1, 2, 3, 9].map(backoff)).toEqual([500, 1000, 2000, 2000, 2000]);
  });

  test("the marker in recent output is the proof; it lands on the 3rd read", async () => {
    const h = fakeHost({ landOnRead: 3 });
    const r = await proveLanding(ctx, h, "w1:p2", "brief", "M-1", 30_000);
    expect(r).toMatchObject({ landed: true, attempts: 1, reinjected: false, reads: 3 });
    expect(r.evidence).toBe("marker M-1 in the pane's recent output");
    expect(h.sends()).toBe(1);
  });

  test("the evidence names the source the host actually read (recent output, or the visible screen)", async () => {
    const sources = ["recent output (herdr agent read --source recent-unwrapped)", "visible screen (herdr agent read --source visible: the working agent refused a history read)"];
    let reads = 0;
    const h = {
      ...fakeHost(),
      async readEvidence() {
        reads++;
        return { text: reads >= 2 ? "Brief marker: M-1\n" : "", source: sources[reads - 1]! };
      },
    } as unknown as Host;
    const r = await proveLanding(ctx, h, "p", "brief", "M-1", 30_000);
    expect(r).toMatchObject({ landed: true, reads: 2, evidence: `marker M-1 in the pane's ${sources[1]}` });
  });

  test("no evidence: exactly one re-injection; 30 s = 17 reads per window, 60 s (codex) = 32", async () => {
    const h = fakeHost();
    const r = await proveLanding(ctx, h, "p", "brief", "M-1", 30_000);
    expect(r).toMatchObject({ landed: false, attempts: 2, reinjected: true, reads: 34 });
    expect(h.sends()).toBe(2);
    expect((await proveLanding(ctx, fakeHost(), "p", "b", "M-1", 60_000)).reads).toBe(64);
  });

  test("a failed send is not proof and not a crash; the re-injection can still land", async () => {
    const h = fakeHost({ sendFails: 1, landOnRead: 20 });
    const r = await proveLanding(ctx, h, "p", "brief", "M-1", 30_000);
    expect(r).toMatchObject({ landed: true, attempts: 2, reinjected: true });
    expect(r.errors).toEqual(["send refused"]);
  });
});

describe("stable status", () => {
  test("one working reading among idle ones means working", async () => {
    expect(await stableStatus(ctx, fakeHost({ statuses: ["done", "idle", "working"] }), "p")).toMatchObject({ notWorking: false, status: "working", readings: ["done", "idle", "working"] });
    expect(await stableStatus(ctx, fakeHost({ statuses: ["done"] }), "p")).toMatchObject({ notWorking: true, readings: ["done", "done", "done"] });
    expect(await stableStatus(ctx, fakeHost({ statuses: ["gone"] }), "p")).toMatchObject({ notWorking: true, gone: true });
  });
});
