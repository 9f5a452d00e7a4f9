/** The tier policy module other families import: loading, resolution, lookups, D12 ranking and D13 vendors. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { capFor, costRank, deriveModelForRuntime, EMBEDDED_TIER_POLICY_PATH, loadTierPolicy, modelRuntimeMismatch, modelVendor, parseTierPolicy, runtimeVendor, TierPolicyError, tierOf, tierRank } from "../../../src/lib/config/tier-policy.ts";
import { tempDir, ROOT } from "../../helpers/paths.ts";

describe("tier policy", () => {
  test("the embedded template (§30.1): tiers, caps, window, digest of the file's bytes", () => {
    const p = loadTierPolicy({ env: { MOGUI_HOME: tempDir() }, cwd: "/" });
    expect(p.path).toBe(EMBEDDED_TIER_POLICY_PATH);
    expect(p.version).toBe(2);
    expect(p.digest).toBe(
      createHash("sha256")
        .update(readFileSync(join(ROOT, "master-ops/model-tier-policy.json")))
        .digest("hex"),
    );
    for (const m of ["claude-sonnet-5", "claude-haiku-4-5", "grok-4.5-fast"]) expect(tierOf(p, m)).toBe("efficient");
    expect(tierOf(p, "claude-opus-5")).toBe("top");
    expect(tierOf(p, " CLAUDE-OPUS-5 ")).toBe("top");
    expect(tierOf(p, "nope")).toBe("unknown");
    expect([capFor(p, "top"), capFor(p, "unknown"), capFor(p, "efficient")]).toEqual([null, 8, null]);
    expect(p.windowSeconds).toBe(86_400);
    expect(tierRank(p)).toEqual(["unknown", "top", "efficient"]);
  });

  test("resolution: explicit > DISPATCH_TIER_POLICY > MOGUI_HOME/config > embedded", () => {
    const home = tempDir();
    const mk = (name: string, tier: string) => {
      const p = join(home, name);
      writeFileSync(p, JSON.stringify({ version: 2, tiers: { [tier]: ["m"] }, fanout_caps: {} }));
      return p;
    };
    mkdirSync(join(home, "config"));
    mk("config/model-tier-policy.json", "inst");
    const envp = mk("env.json", "env");
    const flag = mk("flag.json", "flag");
    const ctx = { env: { MOGUI_HOME: home, DISPATCH_TIER_POLICY: envp }, cwd: home };
    expect(tierOf(loadTierPolicy(ctx, "flag.json"), "m")).toBe("flag");
    expect(loadTierPolicy(ctx, flag).path).toBe(flag);
    expect(tierOf(loadTierPolicy(ctx), "m")).toBe("env");
    expect(tierOf(loadTierPolicy({ env: { MOGUI_HOME: home }, cwd: home }), "m")).toBe("inst");
    expect(() => loadTierPolicy(ctx, "missing.json")).toThrow(TierPolicyError);
  });

  test("D12: tier_rank overrides key order; unknown always ranks first", () => {
    const p = parseTierPolicy("p", JSON.stringify({ version: 2, tiers: { cheap: ["a"], pricey: ["b"] }, tier_rank: ["pricey", "cheap"], fanout_caps: {} }));
    expect(tierRank(p)).toEqual(["unknown", "pricey", "cheap"]);
    expect(costRank(p, "pricey")).toBeLessThan(costRank(p, "cheap"));
    expect(costRank(p, "unknown")).toBe(0);
  });

  test("example instance policy (§30.2) loads: extra keys ignored, empty tiers allowed", () => {
    const p = parseTierPolicy("x", JSON.stringify({ _docs: {}, version: 2, consent: "no", agents: [], tiers: { top: [], efficient: [] }, fanout_caps: { unknown: 8 }, window_seconds: 86400 }));
    expect([capFor(p, "unknown"), capFor(p, "top")]).toEqual([8, null]);
  });

  test("errors name the path and never fall back", () => {
    expect(() => parseTierPolicy("/p.json", '{"version":2,"tiers":{"a":["x"],"b":["X"]},"fanout_caps":{}}')).toThrow("/p.json: model X appears in tiers a and b");
    expect(() => parseTierPolicy("/p.json", Buffer.from([0xff, 0xfe]))).toThrow(TierPolicyError);
  });

  test("D13 vendors and runtime pairs", () => {
    expect(["claude-opus-5", "gpt-5.5", "o3-mini", "o4", "codex-mini", "grok-4.5", "gemini-3.6-flash", "llama-4"].map(modelVendor)).toEqual(["claude", "codex", "codex", "codex", "codex", "grok", "gemini", null]);
    expect(runtimeVendor("agy")).toBe("gemini");
    expect(runtimeVendor("cursor")).toBeNull();
    expect(modelRuntimeMismatch("grok-4.5", "codex")).toBe(true);
    expect(modelRuntimeMismatch("gpt-5.5", "codex")).toBe(false);
    expect(modelRuntimeMismatch("gemini-3.6-flash", "agy")).toBe(false);
    expect(modelRuntimeMismatch("llama-4", "codex")).toBe(false);
    expect(modelRuntimeMismatch("claude-sonnet-5", "cursor")).toBe(true);
    const p = loadTierPolicy({ env: { MOGUI_HOME: tempDir() }, cwd: "/" });
    expect(deriveModelForRuntime(p, "codex")).toBe("gpt-5.6-luna");
    expect(deriveModelForRuntime(p, "claude")).toBe("claude-haiku-4-5");
    expect(deriveModelForRuntime(p, "agy")).toBe("gemini-3.6-flash");
    expect(deriveModelForRuntime(p, "opencode")).toBeNull();
  });
});
