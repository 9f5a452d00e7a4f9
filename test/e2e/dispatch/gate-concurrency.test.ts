/** The gate lock under real concurrency: distinct attempt numbers, fan-out caps that hold, a valid ledger and ticket. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";

function setup() {
  const home = tempDir("gate-conc-");
  const contract = join(home, "c.md");
  writeFileSync(contract, "implement the parser\n");
  const policy = join(home, "p.json");
  writeFileSync(policy, JSON.stringify({ version: 2, tiers: { top: ["m-top"], efficient: ["m-eff"] }, fanout_caps: { top: 5 }, window_seconds: 3600 }));
  return { home, contract, policy, ledger: join(home, "dispatch-ledger.jsonl"), env: e2eEnv({ MOGUI_HOME: home }) };
}

const checkArgs = (contract: string, model: string, policy: string, agents = 1) => [
  "dispatch-gate",
  "check",
  "--runtime",
  "codex",
  "--model",
  model,
  "--contract",
  contract,
  "--agents",
  String(agents),
  "--completion-channel",
  "orchestration",
  "--tier-policy",
  policy,
];

function ledgerRows(path: string): Record<string, unknown>[] {
  const text = readFileSync(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("dispatch-gate check under concurrency", () => {
  test("32 concurrent checks of one contract get attempts 1..32 exactly once", async () => {
    const s = setup();
    const runs = await Promise.all(Array.from({ length: 32 }, () => runBinary(checkArgs(s.contract, "m-eff", s.policy), { env: s.env })));
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).allow).toBe(true);
    }
    const rows = ledgerRows(s.ledger);
    expect(rows.length).toBe(32);
    expect(rows.map((r) => r.attempt as number).sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    const dir = join(s.home, "dispatch-tickets");
    const tickets = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(tickets).toEqual([`codex-${(rows[0]!.contract_sha as string).slice(0, 12)}.json`]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // The flock file stays (D33), emptied by its last holder.
    expect(readFileSync(join(dir, ".dispatch-gate.lock"), "utf8")).toBe("");
    const ticket = JSON.parse(readFileSync(join(dir, tickets[0]!), "utf8"));
    expect(Object.keys(ticket)).toEqual(["contract_sha", "count", "issued_ts", "runtime"]);
    expect(ticket).toMatchObject({ contract_sha: rows[0]!.contract_sha, count: 1, runtime: "codex" });
    // The 33rd, sequential, continues the numbering from the sidecar index.
    const next = await runBinary(checkArgs(s.contract, "m-eff", s.policy), { env: s.env });
    expect(next.code).toBe(0);
    expect(ledgerRows(s.ledger).at(-1)!.attempt).toBe(33);
  }, 60_000);

  test("concurrent checks never exceed a fan-out cap", async () => {
    const s = setup();
    const agents = [1, 2, 1, 3, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 1, 1];
    const runs = await Promise.all(agents.map((n) => runBinary(checkArgs(s.contract, "m-top", s.policy, n), { env: s.env })));
    const rows = ledgerRows(s.ledger);
    expect(rows.length).toBe(agents.length);
    const allowed = rows.filter((r) => r.decision === "ALLOW");
    const used = allowed.reduce((a, r) => a + (r.n_agents as number), 0);
    // Never above the cap, and exactly at it: with eleven 1-agent requests, one is denied only when the cap is full.
    expect(used).toBe(5);
    for (const r of rows.filter((r) => r.decision === "DENY")) expect(r.reason).toBe("TIER_FANOUT_CAP");
    expect(runs.filter((r) => r.code === 0).length).toBe(allowed.length);
    expect(runs.filter((r) => r.code === 2).length).toBe(agents.length - allowed.length);
  }, 60_000);
});
