import { describe, expect, test } from "bun:test";
import type { Job, SpawnRow } from "../../../src/workers/worker/jobs.ts";
import { decideVerdict, FindingsError, mergeGate, parseFindings, type VerdictInput } from "../../../src/workers/worker/verdict.ts";

function job(tier: string, extra: Partial<Job> = {}, spawn: Record<string, unknown> = {}): Job {
  const s = { event: "job_spawned", job_id: "j", agent_name: "impl-1", tier, provider: "anthropic", model: "claude-opus-5", grade: "A", ...spawn } as unknown as SpawnRow;
  return { id: "j", spawn: s, landing: null, pushes: [], verdicts: [], state: "running", decision: null, collected: null, observations: [], ...extra };
}

const blocker = parseFindings("- [BLOCKER] broken\n- [SHOULD] nicer\n- [NICE] typo\n");
const input = (over: Partial<VerdictInput> = {}): VerdictInput => ({ findings: blocker, verifierModel: "gpt-5.4", verifierProvider: "openai", verifierSession: "v-1", self: false, ...over });

describe("parseFindings", () => {
  test("markdown and JSON forms; unknown severities are refused", () => {
    expect(blocker).toEqual([
      { severity: "BLOCKER", title: "broken" },
      { severity: "SHOULD", title: "nicer" },
      { severity: "NICE", title: "typo" },
    ]);
    expect(parseFindings("- SHOULD: x")).toEqual([{ severity: "SHOULD", title: "x" }]);
    expect(parseFindings(JSON.stringify({ findings: [{ severity: "NICE", title: "y" }] }))).toEqual([{ severity: "NICE", title: "y" }]);
    expect(parseFindings("nothing to report\n")).toEqual([]);
    expect(() => parseFindings("- [CRITICAL] x")).toThrow(FindingsError);
    expect(() => parseFindings('[{"severity":"MAJOR","title":"x"}]')).toThrow(FindingsError);
  });
});

describe("decideVerdict", () => {
  test("BLOCKERs open rounds 1..3; the 4th is escalated; SHOULD/NICE are follow-ups", () => {
    const j = job("T2");
    for (const round of [1, 2, 3]) {
      const d = decideVerdict(j, input());
      expect(d).toMatchObject({ outcome: "rework", round, independent: true, blockers: ["broken"] });
      expect(d.followups.map((f) => f.severity)).toEqual(["SHOULD", "NICE"]);
      j.verdicts.push({ outcome: "rework", round, blockers: ["broken"] });
    }
    expect(decideVerdict(j, input())).toMatchObject({ outcome: "escalated", round: 4 });
    expect(decideVerdict(job("T2"), input({ findings: parseFindings("- [SHOULD] a\n- [NICE] b") }))).toMatchObject({ outcome: "pass", round: null });
  });

  test("T3 refuses the implementer's provider family and an unknown family; T2 does not care", () => {
    expect(decideVerdict(job("T3"), input({ verifierModel: "claude-sonnet-5", verifierProvider: "anthropic" })).outcome).toBe("refused");
    expect(decideVerdict(job("T3"), input({ verifierModel: "mystery", verifierProvider: null })).outcome).toBe("refused");
    expect(decideVerdict(job("T3"), input()).outcome).toBe("rework");
    expect(decideVerdict(job("T2"), input({ verifierModel: "claude-sonnet-5", verifierProvider: "anthropic" })).outcome).toBe("rework");
  });

  test("a self-verification never counts as independent", () => {
    expect(decideVerdict(job("T2"), input({ verifierSession: "impl-1" }))).toMatchObject({ outcome: "self_check", independent: false });
    expect(decideVerdict(job("T3"), input({ self: true, verifierProvider: "anthropic" }))).toMatchObject({ outcome: "self_check", independent: false });
    // T1 is worker + self-check: the self-check is its verdict, still not independent.
    expect(decideVerdict(job("T1"), input({ self: true, findings: [] }))).toMatchObject({ outcome: "pass", independent: false });
  });

  test("the verifier's grade must be at least the implementer's", () => {
    expect(decideVerdict(job("T2"), input({ verifierGrade: "B" })).outcome).toBe("refused");
    expect(decideVerdict(job("T2", {}, { profile_grade: "A+" }), input({ verifierGrade: "A" })).outcome).toBe("refused");
    expect(decideVerdict(job("T2"), input({ verifierGrade: "S" })).outcome).toBe("rework");
  });
});

describe("mergeGate", () => {
  const ok = { ok: true, reason: "at sha" };
  test("a verified push is required; T2/T3 also need an independent pass after the last rework", () => {
    expect(mergeGate(job("T1"))).toContain("no verified push");
    expect(mergeGate(job("T1", { pushes: [{ ok: false, reason: "mismatch" }] }))).toContain("mismatch");
    expect(mergeGate(job("T1", { pushes: [ok] }))).toBeNull();
    expect(mergeGate(job("T2", { pushes: [ok] }))).toContain("independent verifier");
    expect(mergeGate(job("T2", { pushes: [ok], verdicts: [{ outcome: "self_check", independent: false }] }))).toContain("independent verifier");
    expect(mergeGate(job("T2", { pushes: [ok], verdicts: [{ outcome: "pass", independent: true }] }))).toBeNull();
    expect(
      mergeGate(
        job("T3", {
          pushes: [ok],
          verdicts: [
            { outcome: "pass", independent: true },
            { outcome: "rework", round: 1, blockers: ["x"] },
          ],
        }),
      ),
    ).toContain("rework round 1 is open");
  });
});
