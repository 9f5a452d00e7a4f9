import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bootstrap, fit, L0_MARKER, L1_MARKER } from "../../../src/succession/bootstrap/bootstrap.ts";
import { E12_BANNER, E12_LINE, suppressCompactRecall } from "../../../src/succession/bootstrap/compact.ts";
import { dualWarnings } from "../../../src/succession/bootstrap/dual.ts";
import { auditMemories, latestHandoff, resolveCharterPointer, trackLines } from "../../../src/succession/bootstrap/live-sources.ts";
import { runLive, SELF_BLOCK_CAP, type LiveOptions } from "../../../src/succession/bootstrap/live.ts";
import { extractRoleState, roleStateBlock } from "../../../src/succession/bootstrap/role-state.ts";
import { parseSessionStart } from "../../../src/succession/bootstrap/stdin.ts";
import { tempDir } from "../../helpers/paths.ts";

const BLOCK = "Current Role: Maintenance\nRole Lock: disabled\nFrozen: all other roles\nUnlock: explicit user instruction only";

describe("Role State parsing (§6)", () => {
  test("the fenced block under the heading, the unfenced fallback, and the validation errors", () => {
    expect(extractRoleState(`# H\n\n## Role State\n\n\`\`\`text\n${BLOCK}\n\`\`\`\n`)).toEqual({ role: "Maintenance", lock_enabled: false, frozen: "all other roles", unlock: "explicit user instruction only" });
    expect(roleStateBlock(`intro\n${BLOCK}\n\nmore`)).toBe(BLOCK);
    expect(roleStateBlock("no block here")).toBeUndefined();
    expect(() => extractRoleState("## Role State\n```\nCurrent Role: Maintenance\nRole Lock: ENABLED\n```")).toThrow("Role State missing fields: frozen, unlock");
    expect(() => extractRoleState(BLOCK.replace("Maintenance", "Janitor"))).toThrow("Unknown role: Janitor");
    expect(() => extractRoleState(BLOCK.replace("disabled", "maybe"))).toThrow("Unknown role lock: maybe");
  });
});

describe("bootstrap budget (§6)", () => {
  test("fit: unchanged, empty, marker tail, text + marker; never over budget", () => {
    expect(fit("abc", 3, L0_MARKER)).toEqual({ text: "abc", truncated: false });
    expect(fit("abc", 0, L0_MARKER)).toEqual({ text: "", truncated: true });
    expect(fit("x".repeat(100), 5, L0_MARKER).text).toBe(L0_MARKER.slice(-5));
    const f = fit("가".repeat(100), 50, L1_MARKER);
    expect([...f.text].length).toBe(50);
    expect(f.text.endsWith(L1_MARKER)).toBe(true);
  });
  test("L0 first, then L1 with what is left; warnings for each cut, a missing handoff, a missing block", async () => {
    const d = tempDir();
    writeFileSync(join(d, "c.md"), "C".repeat(80));
    writeFileSync(join(d, "h.md"), `## Role State\n\n\`\`\`\n${BLOCK}\n\`\`\`\n${"H".repeat(200)}`);
    writeFileSync(join(d, "none.md"), "nothing");
    const r = await bootstrap({ charter: join(d, "c.md"), handoff: join(d, "h.md"), budget: 150 });
    expect(r.l0_text).toBe("C".repeat(80));
    expect(r.l1_text.endsWith(L1_MARKER)).toBe(true);
    expect(r.budget_used).toBe(150);
    expect(r.warnings).toEqual(["BUDGET_TRUNCATED:L1"]);
    expect(r.role_state?.role).toBe("Maintenance");
    expect((await bootstrap({ charter: join(d, "c.md"), handoff: join(d, "h.md"), budget: 60 })).warnings).toEqual(["BUDGET_TRUNCATED:L0"]);
    expect((await bootstrap({ charter: join(d, "c.md"), handoff: join(d, "gone.md") })).warnings).toEqual(["HANDOFF_MISSING"]);
    expect((await bootstrap({ charter: join(d, "c.md"), handoff: join(d, "none.md") })).warnings).toEqual(["ROLE_STATE_MISSING"]);
    await expect(bootstrap({ charter: join(d, "nope.md") })).rejects.toThrow(`Charter missing: ${join(d, "nope.md")}`);
    await expect(bootstrap({ charter: join(d, "c.md"), budget: -1 })).rejects.toThrow("Budget must be non-negative");
  });
  test("dual instance: another claude with the session id; self, ancestors and non-claude executables skipped", async () => {
    const ps = ["  10     1 /usr/bin/claude --resume S1", "  20    10 /bin/sh -c mogui", "  30    20 mogui master-bootstrap", "  40     1 claude --resume S1", "  50     1 node claude S1", "  60     1 claude --resume S2"].join("\n");
    expect(dualWarnings(ps, "S1", 30)).toEqual(["DUAL_INSTANCE:40"]);
    const d = tempDir();
    writeFileSync(join(d, "c.md"), "c");
    const probe = async () => ps;
    expect((await bootstrap({ charter: join(d, "c.md"), sessionId: "S1", selfPid: 30 }, probe)).warnings).toEqual(["DUAL_INSTANCE:40"]);
    await expect(bootstrap({ charter: join(d, "c.md"), sessionId: "S1", selfPid: 30, strictLease: true }, probe)).rejects.toThrow("DUAL_INSTANCE:40");
    const broken = async () => {
      throw Object.assign(new Error("x"), { name: "ProcessProbeFailed" });
    };
    expect((await bootstrap({ charter: join(d, "c.md"), sessionId: "S1" }, broken)).warnings).toEqual(["PROCESS_PROBE_FAILED:ProcessProbeFailed"]);
  });
});

describe("bootstrap-live (§11, D25)", () => {
  const dir = () => {
    const d = tempDir();
    mkdirSync(join(d, "h"));
    writeFileSync(join(d, "h", "2026-01.md"), "## Role State\n```\nCurrent Role: Research\nRole Lock: ENABLED\nFrozen: all other roles\nUnlock: explicit user instruction only\n```\n");
    writeFileSync(join(d, "h", "2026-02.md"), `## Role State\n\n\`\`\`\n${BLOCK}\n\`\`\`\n`);
    writeFileSync(join(d, "h", "zzz.txt"), "not markdown");
    return join(d, "h");
  };
  const bd = (list: string, prime: string) => async (args: string[]) => (args[0] === "list" ? list : prime);
  const base = (over: Partial<LiveOptions> = {}): LiveOptions => ({ handoffDir: dir(), bd: bd("t-1 first\n", "### [L0] a\nbody\n"), ...over });

  test("fixed section order; the latest *.md handoff; no memory body echoed", async () => {
    const out = await runLive(base({ bd: bd("t-1 first\nStatus: x\n\nt-2 second\n---\nt-3 after", "### [L0] a\nTOP SECRET\n### [L1] b\n### c\n"), charterPointer: "  see charter  " }));
    expect(out).toBe(
      [
        "[MASTER-BOOTSTRAP v1]",
        "## Role State",
        BLOCK,
        "## Active tracks",
        "t-1 first",
        "t-2 second",
        "## Charter",
        "see charter",
        "[BD-PRIME-AUDIT] memories=3 (L0=1, L1=1, untagged=1), block=0.0KB — ALERT (budget 12KB)",
        "[DUAL-INSTANCE] skipped (no session id)",
        "## Alerts",
        "[AUDIT-ALERT] untagged memories 1",
      ].join("\n"),
    );
    expect(out).not.toContain("TOP SECRET");
  });
  test("failures become alerts, never exceptions", async () => {
    const boom = async () => {
      throw new Error("bd: executable not found");
    };
    const out = await runLive({
      handoffDir: "/nonexistent",
      roleStateFile: "/nonexistent/rs.md",
      bd: boom,
      sessionId: "S",
      probe: async () => {
        throw new Error("ps: timed out");
      },
    });
    expect(out).toContain("## Role State\n(role-state unavailable)\n## Active tracks\n(none)\n");
    expect(out).toContain("[BD-PRIME-AUDIT] unavailable (bd: executable not found)");
    expect(out).toContain("[DUAL-INSTANCE] probe-failed (ps: timed out)");
    for (const a of [
      "[AUDIT-ALERT] role-state-file: missing (/nonexistent/rs.md)",
      "[AUDIT-ALERT] role-state: handoff dir missing (/nonexistent)",
      "[AUDIT-ALERT] tracks: collection failed bd: executable not found",
      "[AUDIT-ALERT] bd-prime: collection failed bd: executable not found",
      "[AUDIT-ALERT] dual-instance: detection failed ps: timed out",
    ])
      expect(out).toContain(a);
  });
  test("D25: 500 tracks and many alerts still fit the cap, each cut marked", async () => {
    const many = Array.from({ length: 500 }, (_, i) => `track-${i} ${"x".repeat(30)}`).join("\n");
    const prime = Array.from({ length: 40 }, (_, i) => `### memory ${i}`).join("\n");
    const out = await runLive(base({ bd: bd(many, prime), budgetChars: 10 }));
    expect(out.length).toBeLessThanOrEqual(SELF_BLOCK_CAP);
    expect(out).toContain("[BUDGET-ALERT] self-block tracks truncated");
    expect(out).toMatch(/\[TRUNCATED:tracks \d+\/500\]/);
    expect(out.startsWith("[MASTER-BOOTSTRAP v1]\n## Role State\n")).toBe(true);
    const huge = await runLive(base({ charterPointer: "c".repeat(5000) }));
    expect(huge.length).toBeLessThanOrEqual(SELF_BLOCK_CAP);
    expect(huge).toContain("[TRUNCATED]");
  });
  test("compact source: role and tracks suppressed, the E12 line and banner added, still within the cap", async () => {
    const out = await runLive(base({ source: "compact", bd: bd(Array.from({ length: 99 }, (_, i) => `t${i} ${"y".repeat(40)}`).join("\n"), "") }));
    expect(out.startsWith(`${E12_BANNER}\n[MASTER-BOOTSTRAP v1]\n${E12_LINE}\n## Charter\n`)).toBe(true);
    expect(out).not.toContain("Current Role");
    expect(out.length).toBeLessThanOrEqual(SELF_BLOCK_CAP);
    expect(suppressCompactRecall(null)).toBe(E12_BANNER);
    expect(suppressCompactRecall("[MASTER-BOOTSTRAP v1]\nx")).toBe(`${E12_BANNER}\n[MASTER-BOOTSTRAP v1]\n${E12_LINE}\nx`);
    expect(suppressCompactRecall("a\n### 활성 트랙\n- t\n## Other\nb")).toBe(`${E12_BANNER}\na\n${E12_LINE}\n## Other\nb`);
  });
  test("dual line with a session id; the role-state file wins over the handoff dir", async () => {
    const d = tempDir();
    writeFileSync(join(d, "rs.md"), "Current Role: (not booted)\nRole Lock: ENABLED\nFrozen: all other roles\nUnlock: explicit user instruction only\n");
    const out = await runLive(base({ roleStateFile: join(d, "rs.md"), sessionId: "S1", selfPid: 1, probe: async () => "  77 1 claude --resume S1\n" }));
    expect(out).toContain("## Role State\nCurrent Role: (not booted)\n");
    expect(out).toContain("[DUAL-INSTANCE] DUAL_INSTANCE:77");
    expect(out).toContain("[AUDIT-ALERT] DUAL_INSTANCE:77");
  });
  test("fail-open: an internal error is one [BOOTSTRAP-FALLBACK] line", async () => {
    const opts = base();
    Object.defineProperty(opts, "handoffDir", {
      get: () => {
        throw new TypeError("boom\nsecond line");
      },
    });
    expect(await runLive(opts)).toBe("[BOOTSTRAP-FALLBACK] TypeError: boom second line");
  });
  test("the SessionStart payload: source and session_id from a JSON object, nothing from anything else", () => {
    expect(parseSessionStart('{"session_id":"s1","source":"compact","cwd":"/x"}')).toEqual({ source: "compact", sessionId: "s1" });
    for (const t of ["", "  ", "nope", "[1]", "null", '"compact"']) expect(parseSessionStart(t)).toEqual({});
    expect(parseSessionStart('{"source":7,"session_id":""}')).toEqual({ source: undefined, sessionId: undefined });
  });
  test("helpers: latest handoff by name, track lines, memory audit, charter pointer precedence", () => {
    expect(latestHandoff(dir())).toEndWith("2026-02.md");
    expect(trackLines("a\n Total: 3\nb\n---\nc")).toEqual(["a", "b"]);
    const a = auditMemories("### [L0] x\n### [L1] y\n".repeat(10), 15, 50);
    expect(a.alerts).toEqual(["[AUDIT-ALERT] cap exceeded: 20 > 15", "[BUDGET-ALERT] bd-prime block 220 chars > 50"]);
    expect(resolveCharterPointer(" ", "env pointer")).toBe("env pointer");
    expect(resolveCharterPointer(undefined, undefined)).toBe("Operations SSOT: see the ops repository MASTER-OPERATIONS.md (Role State canon)");
  });
});
