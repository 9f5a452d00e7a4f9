// workstream-render in process: every documented exit code.
import { beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchRunner } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("hooks-ops-");
});
const { run } = scratchRunner(() => dir);

describe("workstream-render", () => {
  test("the day's rows as a markdown table; other days skipped; bad dates are usage errors", async () => {
    const ledger = join(dir, "ledger.jsonl");
    const at = (h: number, d = 14) => new Date(2026, 2, d, h, 5, 9).getTime() / 1000;
    writeFileSync(
      ledger,
      `${[
        { ts: at(9), runtime: "codex", model: "gpt-5.5", tier: "efficient", decision: "ALLOW", reason: "OK", n_agents: 2, cost_proxy: 40, warnings: ["MODEL_MISMATCH"] },
        { ts: at(10), runtime: "codex", decision: "DENY", reason: "TIER_FANOUT_CAP", model: "m|x" },
        { ts: at(11), decision: "ALLOW", reason: "OK", job_id: "ctx_abc", runtime: "codex", n_agents: 1 },
        { ts: at(12, 15), decision: "ALLOW" },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n")}\n`,
    );
    const r = await run(["workstream-render", "2026-03-14", "--ledger", ledger]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").slice(2, 5)).toEqual([
      "| 09:05:09 | check | ALLOW | codex | gpt-5.5 (efficient) | 2 | 40 | - | warn: MODEL_MISMATCH |",
      "| 10:05:09 | check | DENY | codex | m\\|x | - | - | - | TIER_FANOUT_CAP |",
      "| 11:05:09 | register | ALLOW | codex | - | 1 | - | ctx_abc | - |",
    ]);
    expect(r.stdout.split("\n")).toHaveLength(6);
    const empty = await run(["workstream-render", "2026-03-16", "--ledger", ledger]);
    expect(empty.stderr).toContain("no ledger rows on 2026-03-16");
    for (const bad of ["2026-02-30", "14-03-2026", "yesterday"]) expect((await run(["workstream-render", bad, "--ledger", ledger])).code).toBe(2);
  });
});
