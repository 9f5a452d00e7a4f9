/**
 * D37 through main(argv): `spend_caps` in the tier policy, SPEND_CAP_EXCEEDED right after TIER_FANOUT_CAP, the
 * override that bypasses it and is recorded, the window (old spend does not count), `dispatch-gate report`'s
 * spend per tier, and the policy loader's validity rules.
 */
import { describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { parseTierPolicy, TierPolicyError } from "../../../src/lib/config/tier-policy.ts";
import { checkArgv, gateHome, T0, V2 } from "../../helpers/gate.ts";

const json = (s: string) => JSON.parse(s) as Record<string, unknown>;

function spend(home: string, rows: Array<{ ts: number; model: string; tier?: string; tokens: number }>): void {
  const text = rows.map((r) => JSON.stringify({ event: "spend", ts: r.ts, job_id: "j", model: r.model, ...(r.tier ? { tier: r.tier } : {}), input_tokens: r.tokens, output_tokens: 0, cache_read_tokens: 0, cache_creation_tokens: 0, responses: 1 })).join("\n");
  appendFileSync(join(home, "spend-ledger.jsonl"), `${text}\n`);
}

describe("SPEND_CAP_EXCEEDED (D37)", () => {
  test("the window's measured spend reaching the cap denies; old spend does not count; the override bypasses and is recorded", async () => {
    const h = gateHome();
    const c = h.contract();
    const p = h.policy({ ...V2, fanout_caps: {}, spend_caps: { top: 1000 } });
    spend(h.home, [
      { ts: T0 - 7200, model: "m-top", tokens: 5000 }, // outside the 3600 s window
      { ts: T0 - 100, model: "m-top", tokens: 600 }, // tier resolved by model
      { ts: T0 - 50, model: "m-eff", tier: "efficient", tokens: 9000 }, // another tier
    ]);
    expect((await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }))).code).toBe(0);
    spend(h.home, [{ ts: T0 - 10, model: "m-top", tier: "top", tokens: 400 }]);
    const denied = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }), T0 + 1);
    expect(denied.code).toBe(2);
    expect(json(denied.stdout)).toMatchObject({ allow: false, reason: "SPEND_CAP_EXCEEDED", message: "tier=top spent_tokens=1000 cap=1000 window_seconds=3600" });
    expect(denied.stderr).toBe("dispatch-gate: SPEND_CAP_EXCEEDED: tier=top spent_tokens=1000 cap=1000 window_seconds=3600\n");
    expect(h.rows().at(-1)).toMatchObject({ decision: "DENY", reason: "SPEND_CAP_EXCEEDED", tier: "top" });
    const eff = await h.run(checkArgv(c, { model: "m-eff", "tier-policy": p }), T0 + 2);
    expect(eff.code).toBe(0);
    const over = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p, "tier-override": "owner ok" }), T0 + 3);
    expect(over.code).toBe(0);
    expect(json(over.stdout).tier_override).toBe("owner ok");
    expect(h.rows().at(-1)).toMatchObject({ decision: "ALLOW", tier_override: "owner ok" });
    // Once the spend leaves the window, the tier is open again.
    expect((await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }), T0 + 3700)).code).toBe(0);
  });

  test("TIER_FANOUT_CAP comes first in the reason order", async () => {
    const h = gateHome();
    const c = h.contract();
    const p = h.policy({ ...V2, fanout_caps: { top: 0 }, spend_caps: { top: 0 } });
    const r = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }));
    expect(json(r.stdout).reason).toBe("TIER_FANOUT_CAP");
    const p2 = h.policy({ ...V2, fanout_caps: {}, spend_caps: { top: 0 } }, "p2.json");
    expect(json((await h.run(checkArgv(c, { model: "m-top", "tier-policy": p2 }))).stdout).reason).toBe("SPEND_CAP_EXCEEDED");
  });

  test("a corrupt spend ledger is LEDGER_UNAVAILABLE (exit 2), never a silent allow", async () => {
    const h = gateHome();
    const c = h.contract();
    const p = h.policy({ ...V2, fanout_caps: {}, spend_caps: { top: 10 } });
    appendFileSync(join(h.home, "spend-ledger.jsonl"), `{not json\n${JSON.stringify({ event: "spend", ts: T0, model: "m-top", input_tokens: 1 })}\n`);
    const r = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("LEDGER_UNAVAILABLE");
  });

  test("the loader: spend_caps names tiers (or unknown) with non-negative integers", () => {
    const ok = parseTierPolicy("p", JSON.stringify({ ...V2, spend_caps: { top: 5, unknown: 0 } }));
    expect([...ok.spendCaps]).toEqual([
      ["top", 5],
      ["unknown", 0],
    ]);
    expect(() => parseTierPolicy("p", JSON.stringify({ ...V2, spend_caps: { nope: 5 } }))).toThrow(TierPolicyError);
    expect(() => parseTierPolicy("p", JSON.stringify({ ...V2, spend_caps: { top: -1 } }))).toThrow("non-negative integer");
    expect(() => parseTierPolicy("p", JSON.stringify({ ...V2, spend_caps: [] }))).toThrow("spend_caps must be an object");
    expect(parseTierPolicy("p", JSON.stringify(V2)).spendCaps.size).toBe(0);
  });
});

describe("dispatch-gate report: spend per tier", () => {
  test("shown only when the spend ledger has spend rows; text and JSON", async () => {
    const h = gateHome();
    const plain = await h.run(["report"]);
    expect(plain.stdout).not.toContain("Spend per tier");
    spend(h.home, [
      { ts: T0, model: "m-top", tier: "top", tokens: 7 },
      { ts: T0, model: "m-eff", tier: "efficient", tokens: 5 },
      { ts: T0, model: "m-top", tier: "top", tokens: 3 },
    ]);
    const r = await h.run(["report"]);
    expect(r.stdout).toEndWith("Spend per tier (tokens, measured):\n  efficient: tokens=5\n  top: tokens=10\n");
    expect(json((await h.run(["report", "--json"])).stdout).spend_per_tier).toEqual({ efficient: 5, top: 10 });
  });
});
