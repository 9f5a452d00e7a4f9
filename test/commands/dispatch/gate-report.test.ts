/** dispatch-gate report (exact §3.12 layout + D17) and watch (exit 0 / 2 / 3). */
import { describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gateHome, T0 } from "../../helpers/gate.ts";

const rows = [
  { ts: 0, decision: "ALLOW", model: "m-b", cost_proxy: 10, tier: "top", n_agents: 2, tier_policy_path: "/p.json", tier_policy_sha256: "abcdef0123456789" },
  { ts: 86_400.9, decision: "ALLOW", model: "m-a", est_chars: 5, n_agents: 3, tier_policy_path: "/p.json", tier_policy_sha256: "abcdef0123456789", tier_override: "owner said ✓" },
  { ts: 100, decision: "ALLOW", model: "m-a", cost_proxy: -4, n_agents: true },
  // biome-ignore lint/correctness/noPrecisionLoss: deliberately beyond a double (it reads as Infinity), a ts the report must survive
  { ts: 1e309, decision: "DENY", reason: "NO_MODEL", tier_policy_path: "/p.json" },
  { ts: "x", decision: "DENY", reason: "BUDGET_EXCEEDED", tier_policy_path: "/q.json", tier_policy_sha256: "99" },
  { decision: "DENY", reason: "NO_MODEL" },
  { ts: 50, decision: "ALLOW", job_id: "ctx_1", runtime: "codex", contract_sha: "a", model_verified: true },
  { ts: 51, decision: "ALLOW", job_id: "ctx_2", runtime: "codex", contract_sha: "b", model_verified: false },
  { ts: 52, event: "dispatch_submitted", dispatch_id: "ctx_1" },
  { ts: 53, kind: "host_diversity_audit", job_id: "ctx_1", contract_sha: "a", runtime: "codex" },
];

function ledgerText(): string {
  // JSON.stringify writes 1e309 as null: put the literal back so that row has a ts no datetime can hold.
  const text = rows
    .map((r) => JSON.stringify(r))
    .join("\n")
    .replace('{"ts":null,', '{"ts":1e309,');
  return `${text}\n[1,2]\n"str"\n\n`;
}

const REPORT = `Dispatch gate report
Scope: all ledger entries
Skipped malformed: 2
Time span: 1970-01-01T00:00:00Z to 1970-01-02T00:00:00Z
Models:
  m-a: dispatches=2 est_cost_proxy=15 computed_legacy_entries=1
  m-b: dispatches=1 est_cost_proxy=10
Denials:
  BUDGET_EXCEEDED: 1
  NO_MODEL: 2
Tiers:
  top: dispatches=1 agents=2
  unknown: dispatches=2 agents=3  <- allowed without a known tier
Tier policies:
  /p.json: sha256=<unrecorded> decisions=1
  /p.json: sha256=abcdef012345 decisions=2
  /q.json: sha256=99 decisions=1
Tier overrides:
  m-a: reason="owner said \\u2713" count=1
Registrations:
  codex: registrations=2 model_verified=1
`;

describe("report", () => {
  test("the exact text layout, every rule of §3.12, plus Registrations (D17)", async () => {
    const h = gateHome();
    writeFileSync(h.ledger, ledgerText());
    const r = await h.run(["report"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(REPORT);
  });

  test("--json carries the same figures; --today keeps only today's UTC rows", async () => {
    const h = gateHome();
    writeFileSync(h.ledger, ledgerText());
    const j = JSON.parse((await h.run(["report", "--json"])).stdout);
    expect(Object.keys(j)).toEqual(["denials", "ledger", "models", "pipeline_aborted", "registrations", "scope", "skipped_malformed", "tier_overrides", "tier_policies", "tiers", "time_span"]);
    expect(j.models["m-a"]).toEqual({ computed_legacy_entries: 1, dispatches: 2, est_cost_proxy: 15 });
    expect(j.registrations).toEqual({ codex: { model_verified: 1, registrations: 2 } });
    const today = await h.run(["report", "--today"], 86_400 * 1.5);
    expect(today.stdout).toBe(
      'Dispatch gate report\nScope: today (UTC)\nSkipped malformed: 2\nTime span: 1970-01-02T00:00:00Z to 1970-01-02T00:00:00Z\nModels:\n  m-a: dispatches=1 est_cost_proxy=15 computed_legacy_entries=1\nDenials:\n  <none>\nTiers:\n  unknown: dispatches=1 agents=3  <- allowed without a known tier\nTier policies:\n  /p.json: sha256=abcdef012345 decisions=1\nTier overrides:\n  m-a: reason="owner said \\u2713" count=1\nRegistrations:\n  <none>\n',
    );
  });

  test("missing ledger is an empty report; --ledger before the subcommand works", async () => {
    const h = gateHome();
    const r = await h.run(["--ledger", join(h.home, "none.jsonl"), "report"]);
    expect(r.stdout).toBe("Dispatch gate report\nScope: all ledger entries\nSkipped malformed: 0\nTime span: none\nModels:\n  <none>\nDenials:\n  <none>\nTiers:\n  <none>\nTier policies:\n  <none>\nTier overrides:\n  <none>\nRegistrations:\n  <none>\n");
  });

  test("D18: corrupt line -> exit 2 naming the line; torn last line -> warning; unreadable -> exit 2", async () => {
    const h = gateHome();
    writeFileSync(h.ledger, '{"ts":1,"decision":"DENY","reason":"X"}\n{bad\n{"ts":2}\n');
    const c = await h.run(["report"]);
    expect(c.code).toBe(2);
    expect(c.stdout).toBe("");
    expect(c.stderr).toMatch(new RegExp(`^dispatch-gate: LEDGER_UNAVAILABLE: ${h.ledger}:2: corrupt line`));
    writeFileSync(h.ledger, '{"ts":1,"decision":"DENY","reason":"X"}\n{"ts":2,"dec');
    const t = await h.run(["report"]);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain("  X: 1\n");
    expect(t.stderr).toBe(`dispatch-gate: warning: ${h.ledger}:2: torn last line (a writer died mid-append); skipped\n`);
    const d = await h.run(["report", "--ledger", h.home]);
    expect(d.code).toBe(2);
    expect(d.stderr).toStartWith("dispatch-gate: LEDGER_UNAVAILABLE: ");
  });
});

describe("watch", () => {
  test("OK (exit 0), STALLED strictly after max-idle (exit 3), MISSING (exit 2)", async () => {
    const h = gateHome();
    const log = join(h.home, "w.log");
    writeFileSync(log, "x");
    utimesSync(log, T0 - 100, T0 - 100);
    const ok = await h.run(["watch", "--log", log, "--max-idle", "100"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`{"idle_seconds":100,"last_progress_at":${T0 - 100},"reason":"OK","status":"OK"}\n`);
    const st = await h.run(["watch", "--log", log, "--max-idle", "99"]);
    expect(st.code).toBe(3);
    expect(JSON.parse(st.stdout)).toMatchObject({ status: "STALLED", reason: "STALLED" });
    expect(st.stderr).toBe("dispatch-gate: STALLED\n");
    const dflt = await h.run(["watch", "--log", log], T0 + 261);
    expect(dflt.code).toBe(3);
    const m = await h.run(["watch", "--log", join(h.home, "none.log")]);
    expect(m.code).toBe(2);
    expect(m.stdout).toBe('{"idle_seconds":null,"last_progress_at":null,"reason":"LOG_MISSING","status":"MISSING"}\n');
    expect(m.stderr).toBe("dispatch-gate: LOG_MISSING\n");
    expect((await h.run(["watch", "--log", log, "--max-idle", "soon"])).code).toBe(2);
    // The original's argparse `--max-idle INT` takes any integer (issue 26 §3): a negative one is always STALLED.
    const neg = await h.run(["watch", "--log", log, "--max-idle", "-1"]);
    expect(neg.code).toBe(3);
    const zero = await h.run(["watch", "--log", log, "--max-idle", "0"]);
    expect(zero.code).toBe(3);
    expect((await h.run(["watch"])).code).toBe(2);
  });
});

describe("the dispatch-gate router", () => {
  test("no subcommand, unknown subcommand or flag: exit 2; --help prints the usage", async () => {
    const h = gateHome();
    for (const argv of [[], ["nope"], ["--bogus", "report"], ["--ledger"], ["--ledger", "a", "--ledger", "b", "report"]]) {
      const r = await h.run(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("Run 'mogui dispatch-gate --help' for usage.");
    }
    expect((await h.run(["--help"])).stdout).toContain("USAGE\n  mogui dispatch-gate [--ledger <path>] <check|register|watch|report>");
    expect((await h.run(["--ledger", "x", "check", "--help"])).stdout).toContain("USAGE\n  mogui dispatch-gate check");
  });
});
