import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../helpers/paths.ts";
import { checkGrades, classify } from "../../../src/workers/worker/classify.ts";
import { agentArgs, isDeadTabTitle, parsePolicy, PolicyError, providerFamily } from "../../../src/workers/worker/policy.ts";

const EXAMPLE = join(ROOT, "config", "worker-surface-policy.example.json");
const policy = parsePolicy(readFileSync(EXAMPLE, "utf8"), EXAMPLE);
const none = checkGrades();

describe("classify: the floor comes from the surface", () => {
  test.each([
    [["deploy/prod.yaml"], null, "T3", "worker+cross-family-verifier"],
    [["app/main.ts"], null, "T2", "worker+independent-verifier"],
    [["tools/a.py", "README.md"], null, "T1", "worker+self-check"],
    [[".gitignore"], 30, "T0", "no-spawn"],
    [[".gitignore"], 31, "T1", "worker+self-check"],
    [[".gitignore"], null, "T1", "worker+self-check"],
    [["tools/a.py", "deploy/x"], 5, "T3", "worker+cross-family-verifier"],
  ] as const)("%p with %p lines -> %s", (paths, lines, tier, mode) => {
    const c = classify(policy, paths, lines, null, none);
    expect(c).toMatchObject({ verdict: "CLASSIFIED", floor: tier, tier, spawn_mode: mode });
  });

  test("the strictest class wins for a path two surfaces name", () => {
    // src/guards/** is irreversible; src/** is product.
    expect(classify(policy, ["src/guards/limit.ts"], null, null, none).paths[0]).toEqual({ path: "src/guards/limit.ts", surface: "safety-guards", class: "irreversible" });
  });

  test("an unmatched path is NEEDS_CLASSIFICATION even beside matched ones; spawn_mode stays null, never blank", () => {
    const c = classify(policy, ["tools/a.py", "vendor/lib.c"], 3, null, none);
    expect(c).toMatchObject({ verdict: "NEEDS_CLASSIFICATION", tier: null, spawn_mode: null, unmatched: ["vendor/lib.c"] });
    expect(classify(policy, [], 0, null, none).verdict).toBe("NEEDS_CLASSIFICATION");
  });

  test("a lower proposal is refused (the floor wins); a higher one is accepted", () => {
    const down = classify(policy, ["deploy/x"], null, "T1", none);
    expect(down).toMatchObject({ verdict: "DOWNGRADE_REFUSED", floor: "T3", tier: "T3" });
    expect(down.notes.join()).toContain("downgrade refused");
    expect(classify(policy, ["tools/a"], null, "T3", none)).toMatchObject({ verdict: "CLASSIFIED", floor: "T1", tier: "T3", spawn_mode: "worker+cross-family-verifier" });
    expect(classify(policy, ["tools/a"], null, "T1", none).verdict).toBe("CLASSIFIED");
  });
});

describe("grades", () => {
  test("verifier >= implementer; promotion only to the adjacent grade; never below the task grade", () => {
    expect(checkGrades("A", "A+", "S").refusals).toEqual([]);
    expect(checkGrades("A", "S").refusals[0]).toContain("adjacent grade only");
    expect(checkGrades("A", "B").refusals[0]).toContain("below the task grade");
    expect(checkGrades("S", undefined, "A+").refusals[0]).toContain("verifier grade A+ is below the implementer grade S");
    expect(checkGrades("C", "B", "B").refusals).toEqual([]);
    expect(classify(policy, ["tools/a"], null, null, checkGrades("C", "A")).verdict).toBe("GRADE_REFUSED");
  });
});

describe("policy", () => {
  test("provider families, agent args and dead-tab titles come from configuration", () => {
    expect(providerFamily(policy, "claude-opus-5")).toBe("anthropic");
    expect(providerFamily(policy, "gpt-5.4")).toBe("openai");
    expect(providerFamily(policy, "grok-4")).toBe("xai");
    expect(providerFamily(policy, "mystery-7b")).toBeNull();
    expect(agentArgs(policy, "codex", { model: "gpt-5.4", effort: "high" })).toEqual(["-m", "gpt-5.4", "-c", "model_reasoning_effort=high"]);
    expect(agentArgs(policy, "codex", { model: "gpt-5.4" })).toEqual(["-m", "gpt-5.4"]);
    expect(isDeadTabTitle(policy, "mgh3326@mac: ~/work")).toBe(true);
    expect(isDeadTabTitle(policy, "user@host:~/x$")).toBe(true);
    expect(isDeadTabTitle(policy, "zsh")).toBe(true);
    expect(isDeadTabTitle(policy, "⠋ claude")).toBe(false);
    expect(isDeadTabTitle(policy, "vim notes.md")).toBe(false);
    expect(policy.landing_window_seconds).toEqual({ default: 30, codex: 60 });
  });

  test("a bad policy is a named PolicyError", () => {
    expect(() => parsePolicy("{", "p.json")).toThrow(PolicyError);
    expect(() => parsePolicy(JSON.stringify({ version: 1, surfaces: [{ name: "x", class: "scary", paths: ["a"] }] }), "p.json")).toThrow(/p\.json/);
    expect(() => parsePolicy(JSON.stringify({ version: 1, surfaces: [{ name: "x", class: "local", paths: ["a"] }], dead_tab_title_patterns: ["("] }), "p.json")).toThrow(/dead_tab_title_patterns/);
  });
});
