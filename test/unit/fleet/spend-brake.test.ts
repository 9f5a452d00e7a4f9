// The spend brake's parts (D44, issue 29): the decision, the per-job cap, the wiring merge, the incremental state,
// the tier policy's job_token_caps and spend_window, and the provider of a spend row.
import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { advanceBrake, brakeAction, brakeStatePath, percentOf } from "../../../src/fleet/spend/brake.ts";
import { providerOf } from "../../../src/fleet/spend/report.ts";
import { brakeCommand, isBrakeOnlySettings, jobCap, wireSpendBrake } from "../../../src/workers/worker/brake-wiring.ts";
import { parseTierPolicy, TierPolicyError } from "../../../src/lib/config/tier-policy.ts";
import { tempDir } from "../../helpers/paths.ts";

const policy = (extra: Record<string, unknown>) => parseTierPolicy("p.json", JSON.stringify({ version: 2, tiers: { top: ["claude-opus-5"], efficient: ["claude-sonnet-5"] }, fanout_caps: {}, ...extra }));

describe("the decision", () => {
  test("under 80% nothing, at 80% warn once, past the cap deny", () => {
    expect(brakeAction(0, 1000, false)).toBe("none");
    expect(brakeAction(799, 1000, false)).toBe("none");
    expect(brakeAction(800, 1000, false)).toBe("warn");
    expect(brakeAction(800, 1000, true)).toBe("none");
    expect(brakeAction(1000, 1000, true)).toBe("none");
    expect(brakeAction(1001, 1000, true)).toBe("deny");
    expect(brakeAction(1001, 1000, false)).toBe("deny");
    expect([percentOf(1, 3), percentOf(1500, 1000), percentOf(5, 0)]).toEqual([33, 150, 100]);
  });
});

describe("the tier policy", () => {
  test("job_token_caps and spend_window (5h, 7d, seconds; default window_seconds)", () => {
    expect(policy({ window_seconds: 3600 }).spendWindowSeconds).toBe(3600);
    expect(policy({ spend_window: "5h" }).spendWindowSeconds).toBe(18_000);
    expect(policy({ spend_window: "7d" }).spendWindowSeconds).toBe(604_800);
    expect(policy({ spend_window: 90 }).spendWindowSeconds).toBe(90);
    expect(() => policy({ spend_window: "2h" })).toThrow(TierPolicyError);
    expect(() => policy({ spend_window: 0 })).toThrow(/spend_window must be 5h or 7d/);
    expect([...policy({ job_token_caps: { top: 5, unknown: 7 } }).jobTokenCaps]).toEqual([
      ["top", 5],
      ["unknown", 7],
    ]);
    expect(() => policy({ job_token_caps: { nope: 5 } })).toThrow(/job_token_caps.nope names no tier/);
    expect(() => policy({ job_token_caps: { top: -1 } })).toThrow(/non-negative integer/);
  });
  test("the cap: the flag, else the policy's cap for the model's tier, else none", () => {
    const p = policy({ job_token_caps: { efficient: 300 } });
    expect(jobCap(50, p, "claude-sonnet-5")).toEqual({ max_tokens: 50, source: "flag" });
    expect(jobCap(undefined, p, "claude-sonnet-5")).toEqual({ max_tokens: 300, source: "policy", tier: "efficient" });
    expect(jobCap(undefined, p, "claude-opus-5")).toBeNull();
    expect(jobCap(undefined, null, "claude-sonnet-5")).toBeNull();
  });
});

describe("wiring", () => {
  const self = ["/opt/mogui bin/mogui"];
  test("merged into the local settings, other keys and hooks kept; twice changes nothing; a new cap updates in place", () => {
    const wt = tempDir("brake-wire-");
    mkdirSync(join(wt, ".claude"));
    const mine = { permissions: { deny: ["Read(./.env)"] }, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "mine" }] }], Stop: [{ hooks: [{ type: "command", command: "s" }] }] } };
    writeFileSync(join(wt, ".claude", "settings.local.json"), JSON.stringify(mine));
    const a = wireSpendBrake(wt, self, "job-1", 500);
    expect(a.change).toBe("added");
    const after = JSON.parse(readFileSync(a.settings, "utf8"));
    expect(after.permissions).toEqual(mine.permissions);
    expect(after.hooks.Stop).toEqual(mine.hooks.Stop);
    expect(after.hooks.PreToolUse).toEqual([...mine.hooks.PreToolUse, { hooks: [{ type: "command", command: "'/opt/mogui bin/mogui' hook spend-brake --job job-1 --max-tokens 500" }] }]);
    const bytes = readFileSync(a.settings);
    expect(wireSpendBrake(wt, self, "job-1", 500).change).toBe("unchanged");
    expect(readFileSync(a.settings)).toEqual(bytes);
    expect(wireSpendBrake(wt, self, "job-1", 900).change).toBe("updated");
    const again = JSON.parse(readFileSync(a.settings, "utf8"));
    expect(again.hooks.PreToolUse).toHaveLength(2);
    expect(again.hooks.PreToolUse[1].hooks[0].command).toBe(brakeCommand(self, "job-1", 900));
    expect(isBrakeOnlySettings(readFileSync(a.settings, "utf8"))).toBe(false);
  });
  test("a fresh worktree: a brake-only file (regenerable), kept out of git through info/exclude once", () => {
    const root = tempDir("brake-wire-git-");
    mkdirSync(join(root, "repo", ".git", "worktrees", "w1"), { recursive: true });
    mkdirSync(join(root, "wt"));
    writeFileSync(join(root, "wt", ".git"), `gitdir: ${join(root, "repo", ".git", "worktrees", "w1")}\n`);
    writeFileSync(join(root, "repo", ".git", "worktrees", "w1", "commondir"), "../..\n");
    const w = wireSpendBrake(join(root, "wt"), self, "j", 10);
    expect(w.excluded).toBe(true);
    wireSpendBrake(join(root, "wt"), self, "j", 10);
    const exclude = readFileSync(join(root, "repo", ".git", "info", "exclude"), "utf8");
    expect(exclude.split("\n").filter((l) => l === "/.claude/settings.local.json")).toHaveLength(1);
    expect(isBrakeOnlySettings(readFileSync(w.settings, "utf8"))).toBe(true);
    expect(isBrakeOnlySettings('{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"rm -rf /"}]}]}}')).toBe(false);
    expect(isBrakeOnlySettings("not json")).toBe(false);
  });
  test("never writes through a symlinked .claude or settings file", () => {
    const wt = tempDir("brake-wire-link-");
    const elsewhere = tempDir("brake-elsewhere-");
    symlinkSync(elsewhere, join(wt, ".claude"));
    expect(() => wireSpendBrake(wt, self, "j", 10)).toThrow(/symlink/);
    const wt2 = tempDir("brake-wire-link2-");
    mkdirSync(join(wt2, ".claude"));
    symlinkSync(join(elsewhere, "x.json"), join(wt2, ".claude", "settings.local.json"));
    expect(() => wireSpendBrake(wt2, self, "j", 10)).toThrow(/symlink/);
  });
});

const line = (id: string, n: number) => `${JSON.stringify({ type: "assistant", message: { id, role: "assistant", model: "m", usage: { input_tokens: n, output_tokens: 0 } } })}\n`;

describe("the incremental state", () => {
  test("a replaced or truncated transcript is read again, what it had counted stays counted", () => {
    const dir = tempDir("brake-state-");
    const ctx = { env: { MOGUI_HOME: join(dir, "home") }, cwd: dir };
    const state = brakeStatePath(ctx, "job/1 x");
    expect(state.startsWith(join(dir, "home", "spend-brake", "job_1_x-"))).toBe(true);
    const t = join(dir, "t.jsonl");
    writeFileSync(t, line("a", 100) + line("b", 50));
    expect(advanceBrake(state, "job/1 x", t, 1000)).toMatchObject({ tokens: 150, action: "none" });
    expect(advanceBrake(state, "job/1 x", t, 1000)).toMatchObject({ tokens: 150, read_bytes: 0 });
    // Replaced by a new file (another inode): 30 more, the 150 kept.
    writeFileSync(`${t}.new`, line("c", 30));
    renameSync(`${t}.new`, t);
    expect(advanceBrake(state, "job/1 x", t, 1000)).toMatchObject({ tokens: 180 });
    appendFileSync(t, line("d", 700));
    expect(advanceBrake(state, "job/1 x", t, 1000)).toMatchObject({ tokens: 880, action: "warn" });
    expect(advanceBrake(state, "job/1 x", t, 1000)).toMatchObject({ tokens: 880, action: "none" });
    // Another job's state is its own.
    expect(advanceBrake(brakeStatePath(ctx, "job-2"), "job-2", t, 1000)).toMatchObject({ tokens: 730 });
    // A state that is not this job's refuses (the hook then allows and says why).
    writeFileSync(state, "{}");
    expect(() => advanceBrake(state, "job/1 x", t, 1000)).toThrow(/not a brake state/);
  });
});

describe("providers", () => {
  test("the transcript format first, then the model's vendor prefix", () => {
    expect(providerOf({ format: "claude-code", model: "x" })).toBe("anthropic");
    expect(providerOf({ format: "codex" })).toBe("openai");
    expect(providerOf({ model: "gemini-3-pro" })).toBe("google");
    expect(providerOf({ model: "grok-4" })).toBe("xai");
    expect(providerOf({ model: "mystery" })).toBe("unknown");
    expect(providerOf({})).toBe("unknown");
  });
});
