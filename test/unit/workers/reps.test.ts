import { describe, expect, test } from "bun:test";
import type { Job } from "../../../src/workers/worker/jobs.ts";
import { aggregate, repRefusals, repRow, type RepInput } from "../../../src/workers/worker/reps.ts";

const base = (over: Partial<RepInput> = {}): RepInput => ({
  profile: "grok-hi",
  model: "grok-4",
  effort: "medium",
  task: "rob1",
  tier: "T1",
  role: "impl",
  grade: "B",
  rounds: 0,
  blockersFound: 0,
  completed: 1,
  inputTokens: null,
  outputTokens: null,
  tokensSource: null,
  notes: null,
  job: null,
  ...over,
});

describe("reps", () => {
  test("unknown tokens are omitted and the notes say so", () => {
    const row = repRow(base({ notes: "fast" }));
    expect(row).toMatchObject({ launch_profile: "grok-4@medium", notes: "fast; tokens unknown", completed: 1 });
    expect("input_tokens" in row).toBe(false);
    expect(repRow(base()).notes).toBe("tokens unknown");
  });

  test("a token count without a measured source is refused; rounds and blockers must match the ledger", () => {
    expect(repRefusals(base({ inputTokens: 5000 }))[0]).toContain("--tokens-source");
    expect(repRefusals(base({ inputTokens: 5123, outputTokens: 900, tokensSource: "transcript usage" }))).toEqual([]);
    const job = {
      id: "j",
      state: "escalated",
      verdicts: [
        { outcome: "rework", blockers: ["a", "b"] },
        { outcome: "rework", blockers: ["c"] },
        { outcome: "pass", blockers: [] },
      ],
    } as unknown as Job;
    const r = repRefusals(base({ job, rounds: 1, blockersFound: 3 }));
    expect(r).toHaveLength(2);
    expect(r[0]).toContain("opened 2 rework round(s)");
    expect(r[1]).toContain("escalated");
    expect(repRefusals(base({ job, rounds: 2, blockersFound: 3, completed: 0 }))).toEqual([]);
  });

  test("reports group by model@effort, never merging efforts", () => {
    const rows = [repRow(base({ effort: "medium" })), repRow(base({ effort: "high", completed: 0, rounds: 3 })), repRow(base({ effort: "high", inputTokens: 100, outputTokens: 10, tokensSource: "api" })), repRow(base({ effort: null }))];
    const s = aggregate(rows);
    expect(s.map((x) => x.launch_profile)).toEqual(["grok-4@default", "grok-4@high", "grok-4@medium"]);
    expect(s[1]).toMatchObject({ runs: 2, completed: 1, completion_rate: 0.5, avg_rounds: 1.5, token_runs: 1, input_tokens: 100 });
  });
});
