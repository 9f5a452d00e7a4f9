/** dispatch-gate check in process: every reason code in the normative order, rows, tickets, overrides, faults. */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkArgv, gateHome, T0, V2 } from "../../helpers/gate.ts";
import { acquireLock } from "../../../src/lib/lock.ts";

// Built at run time so the repo's own redaction gate does not read these test paths as personal home paths.
const MAC_HOME = ["", "Users"].join("/");

const json = (s: string) => JSON.parse(s);

describe("check: allow, output and rows", () => {
  test("ALLOW prints one compact sorted JSON, appends the row, issues the ticket", async () => {
    const h = gateHome();
    const c = h.contract("implement the parser\n");
    const r = await h.run(checkArgv(c));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^\{"allow":true,"contract_sha":"[0-9a-f]{64}","cost_proxy":21,"reason":"OK","warnings":\[\]\}\n$/);
    const [row] = h.rows();
    expect(Object.keys(row!)).toEqual(["attempt", "completion_channel", "contract_sha", "cost_proxy", "decision", "est_chars", "model", "n_agents", "reason", "runtime", "tier", "tier_policy_path", "tier_policy_sha256", "ts"]);
    expect(row).toMatchObject({ attempt: 1, decision: "ALLOW", est_chars: 21, tier: "efficient", ts: T0, runtime: "codex", model: "gpt-5.6-luna" });
    expect(row!.tier_policy_path).toBe("<embedded>/master-ops/model-tier-policy.json");
    const sha = row!.contract_sha as string;
    const ticket = readFileSync(join(h.tickets, `codex-${sha.slice(0, 12)}.json`), "utf8");
    expect(ticket).toBe(`{"contract_sha":"${sha}","count":1,"issued_ts":${T0},"runtime":"codex"}\n`);
  });

  test("est-chars counts characters, not bytes; --est-chars wins", async () => {
    const h = gateHome();
    const c = h.contract("한국어 계약 🙂\n");
    expect(json((await h.run(checkArgv(c, { "no-record": true }))).stdout).cost_proxy).toBe(9);
    expect(json((await h.run(checkArgv(c, { "no-record": true, "est-chars": "1_000", agents: "3" }))).stdout).cost_proxy).toBe(3000);
  });

  test("repeated checks are allowed with increasing attempts; register rows count too; --no-record writes nothing", async () => {
    const h = gateHome();
    const c = h.contract();
    await h.run(checkArgv(c));
    await h.run(checkArgv(c, { "no-record": true }));
    await h.run(checkArgv(c));
    expect(h.rows().map((r) => r.attempt)).toEqual([1, 2]);
    expect(readdirSync(h.tickets).filter((f) => f.endsWith(".json")).length).toBe(1);
    const other = h.contract("another\n", "d.md");
    const n = await h.run(checkArgv(other, { "no-record": true }));
    expect(n.code).toBe(0);
    expect(h.rows().length).toBe(2);
    expect(readdirSync(h.tickets).filter((f) => f.endsWith(".json")).length).toBe(1);
  });

  test("--ledger before or after the subcommand, and DISPATCH_GATE_LEDGER", async () => {
    const h = gateHome();
    const c = h.contract();
    const a = join(h.home, "a.jsonl");
    const b = join(h.home, "b.jsonl");
    const e = join(h.home, "e.jsonl");
    expect((await h.run(["--ledger", a, ...checkArgv(c)])).code).toBe(0);
    expect((await h.run([...checkArgv(c), "--ledger", b])).code).toBe(0);
    expect((await h.run([`--ledger=${b}`, ...checkArgv(c)])).code).toBe(0);
    expect((await h.run(checkArgv(c), T0, { DISPATCH_GATE_LEDGER: e })).code).toBe(0);
    expect(readFileSync(a, "utf8").split("\n").length).toBe(2);
    expect(readFileSync(b, "utf8").split("\n").length).toBe(3);
    expect(existsSync(e)).toBe(true);
    expect(existsSync(h.ledger)).toBe(false);
    const twice = await h.run(["--ledger", a, ...checkArgv(c), "--ledger", b]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("--ledger given more than once");
  });
});

describe("check: reason codes in the normative order", () => {
  test("CONTRACT_UNREADABLE comes before validation; the row has est_chars null", async () => {
    const h = gateHome();
    const r = await h.run(checkArgv(join(h.home, "missing.md"), { agents: "0", model: " padded " }));
    expect(r.code).toBe(2);
    expect(json(r.stdout)).toEqual({ allow: false, contract_sha: null, cost_proxy: 0, reason: "CONTRACT_UNREADABLE", warnings: [] });
    // The reference's line first, byte for byte; then the file that could not be read (issue 26 §2).
    expect(r.stderr).toStartWith("dispatch-gate: CONTRACT_UNREADABLE\ndispatch-gate: cannot read the contract ");
    expect(r.stderr).not.toContain("Traceback");
    expect(h.rows()[0]).toMatchObject({ decision: "DENY", reason: "CONTRACT_UNREADABLE", est_chars: null, contract_sha: null });
    expect(h.rows()[0]).not.toHaveProperty("tier_policy_sha256");
  });

  test("CONTRACT_UNREADABLE also after the tier step when --est-chars was given", async () => {
    const h = gateHome();
    const r = await h.run(checkArgv(join(h.home, "missing.md"), { "est-chars": "10" }));
    expect(json(r.stdout).reason).toBe("CONTRACT_UNREADABLE");
    expect(h.rows()[0]).toMatchObject({ est_chars: 10, tier: "efficient" });
    expect(h.rows()[0]).toHaveProperty("tier_policy_sha256");
  });

  const validation: [string, Record<string, string | undefined | true>, string][] = [
    ["no channel", { "completion-channel": undefined }, "NO_COMPLETION_CHANNEL"],
    ["no channel beats no model", { "completion-channel": undefined, model: undefined }, "NO_COMPLETION_CHANNEL"],
    ["no model", { model: undefined }, "NO_MODEL"],
    ["blank model", { model: "   " }, "NO_MODEL"],
    ["padded model", { model: " gpt-5.6-luna" }, "INVALID_REQUEST"],
    ["blank override", { "tier-override": "   " }, "INVALID_REQUEST"],
    ["uppercase runtime", { runtime: "Codex" }, "INVALID_REQUEST"],
    ["path runtime", { runtime: "../escape" }, "INVALID_REQUEST"],
    ["33-char runtime", { runtime: "a".repeat(33) }, "INVALID_REQUEST"],
    ["negative est", { "est-chars": "-1" }, "INVALID_REQUEST"],
    ["zero agents", { agents: "0" }, "INVALID_REQUEST"],
  ];
  for (const [name, over, reason] of validation) {
    test(`${name} -> ${reason}`, async () => {
      const h = gateHome();
      const r = await h.run(checkArgv(h.contract(), over));
      expect(r.code).toBe(2);
      expect(json(r.stdout)).toEqual({ allow: false, contract_sha: null, cost_proxy: 0, reason, warnings: [] });
      expect(r.stderr).toBe(`dispatch-gate: ${reason}\n`);
      const row = h.rows()[0]!;
      expect(row.reason).toBe(reason);
      expect(row).toHaveProperty("tier_policy_path");
      expect(row).not.toHaveProperty("tier_policy_sha256");
    });
  }

  test("32-char runtime is valid; without a channel est defaults to 0 (no contract read)", async () => {
    const h = gateHome();
    expect((await h.run(checkArgv(h.contract(), { runtime: "a".repeat(32), model: "x-model" }))).code).toBe(0);
    const r = await h.run(checkArgv(join(h.home, "missing.md"), { "completion-channel": undefined }));
    expect(json(r.stdout).reason).toBe("NO_COMPLETION_CHANNEL");
    expect(h.rows().at(-1)!.est_chars).toBe(0);
  });

  test("argparse-level errors are usage errors (exit 2, nothing recorded)", async () => {
    const h = gateHome();
    for (const over of [{ agents: "two" }, { "completion-channel": "email" }, { runtime: undefined }, { contract: undefined }, { bogus: "1" }]) {
      const r = await h.run(checkArgv(h.contract(), over));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
    }
    expect(h.rows()).toEqual([]);
  });

  test("BUDGET_EXCEEDED is strictly greater-than, per dispatch and per batch", async () => {
    const h = gateHome();
    const c = h.contract();
    expect((await h.run(checkArgv(c, { "est-chars": "500000" }))).code).toBe(0);
    const one = await h.run(checkArgv(c, { "est-chars": "500001" }));
    expect(json(one.stdout)).toMatchObject({ reason: "BUDGET_EXCEEDED", cost_proxy: 500001 });
    expect(json(one.stdout).contract_sha).toMatch(/^[0-9a-f]{64}$/);
    const batch = await h.run(checkArgv(c, { "est-chars": "400000", agents: "3" }));
    expect(json(batch.stdout)).toMatchObject({ reason: "BUDGET_EXCEEDED", cost_proxy: 1_200_000 });
    expect((await h.run(checkArgv(c, { "est-chars": "250000", agents: "4" }))).code).toBe(0);
  });

  test("ROUTING_VIOLATION for a high-cost runtime with 2+ agents; HIGH_COST_RUNTIME warning for one", async () => {
    const h = gateHome();
    const c = h.contract();
    const many = await h.run(checkArgv(c, { runtime: "fable", model: "x-model", agents: "2" }));
    expect(json(many.stdout).reason).toBe("ROUTING_VIOLATION");
    const one = await h.run(checkArgv(c, { runtime: "fable", model: "x-model" }));
    expect(one.code).toBe(0);
    expect(json(one.stdout).warnings).toEqual(["TIER_UNKNOWN_MODEL", "HIGH_COST_RUNTIME"]);
  });

  test("lint warnings in order, then the tier warning, then MODEL_RUNTIME_MISMATCH (D13)", async () => {
    const h = gateHome();
    writeFileSync(join(h.home, "known-roots.json"), JSON.stringify(["/home/ops/work"]));
    const text = "Use the mcp tool.\nEdit /home/ops/other/x.ts.\nrepo root: /x/.orca/worktrees/w1\n";
    const r = await h.run(checkArgv(h.contract(text), { model: "claude-unknown-9" }));
    expect(r.code).toBe(0);
    expect(json(r.stdout).warnings).toEqual(["MCP_TRUST_UNHANDLED", "PATH_OUTSIDE_KNOWN_ROOTS", "WORKTREE_AS_REPO_ROOT", "TIER_UNKNOWN_MODEL", "MODEL_RUNTIME_MISMATCH"]);
    expect(h.rows()[0]!.warnings).toEqual(json(r.stdout).warnings);
    const quiet = await h.run(checkArgv(h.contract(`mcp trust dialog handled; /home/ops/work/a.ts, ${MAC_HOME}/ops/work`, "q.md")));
    expect(json(quiet.stdout).warnings).toEqual(["PATH_OUTSIDE_KNOWN_ROOTS"]);
    rmSync(join(h.home, "known-roots.json"));
    const skipped = await h.run(checkArgv(h.contract(`${MAC_HOME}/nobody/x mcp__server 신뢰`, "s.md"), { "no-record": true }));
    expect(json(skipped.stdout).warnings).toEqual([]);
  });

  test("TIER_POLICY_UNAVAILABLE for every invalid policy, never fail-open", async () => {
    const bad: unknown[] = [
      "{not json",
      [],
      { version: true, tiers: { top: ["a"] }, fanout_caps: {} },
      { version: 3 },
      { version: 1, worker_allowed: ["gpt-5.6-sol "], worker_denied_tiers: [], unknown_model: "deny" },
      { version: 1, worker_allowed: ["gpt-5.6-luna"], worker_denied_tiers: ["GPT-5.6-LUNA"], unknown_model: "deny" },
      { version: 1, worker_allowed: [], worker_denied_tiers: [], unknown_model: "maybe" },
      { version: 2, tiers: { top: ["a"], efficient: ["A"] }, fanout_caps: {} },
      { version: 2, tiers: { top: ["a"] } },
      { version: 2, tiers: { top: ["a"] }, fanout_caps: { top: 1.5 } },
      { version: 2, tiers: { top: ["a"] }, fanout_caps: { top: true } },
      { version: 2, tiers: { top: ["a"] }, fanout_caps: { top: -1 } },
      { version: 2, tiers: { top: ["a"] }, fanout_caps: { nope: 1 } },
      { version: 2, tiers: {}, fanout_caps: {} },
      { version: 2, tiers: { unknown: ["a"] }, fanout_caps: {} },
      { version: 2, tiers: { " top": ["a"] }, fanout_caps: {} },
      { version: 2, tiers: { top: ["a"] }, fanout_caps: {}, window_seconds: 0 },
      { version: 2, tiers: { top: ["a"], low: ["b"] }, fanout_caps: {}, tier_rank: ["top"] },
    ];
    for (const p of bad) {
      const h = gateHome();
      const path = h.policy(typeof p === "string" ? p : JSON.stringify(p));
      const r = await h.run(checkArgv(h.contract(), { "tier-policy": path }));
      expect({ p, code: r.code, reason: json(r.stdout).reason }).toEqual({ p, code: 2, reason: "TIER_POLICY_UNAVAILABLE" });
      expect(json(r.stdout).message).toBe(`tier_policy=${path}`);
      expect(r.stderr.split("\n")[0]).toBe(`dispatch-gate: TIER_POLICY_UNAVAILABLE: tier_policy=${path}`);
      expect(h.rows()[0]).toMatchObject({ tier_policy_path: path });
      expect(h.rows()[0]).not.toHaveProperty("tier_policy_sha256");
    }
    const h = gateHome();
    const missing = await h.run(checkArgv(h.contract(), { "tier-policy": join(h.home, "nope.json") }));
    expect(json(missing.stdout).reason).toBe("TIER_POLICY_UNAVAILABLE");
  });

  test("policy resolution: --tier-policy > DISPATCH_TIER_POLICY > MOGUI_HOME/config > embedded", async () => {
    const h = gateHome();
    const c = h.contract();
    mkdirSync(join(h.home, "config"));
    const inst = h.policy({ ...V2, tiers: { inst: ["gpt-5.6-luna"] }, fanout_caps: {} }, "config/model-tier-policy.json");
    const envp = h.policy({ ...V2, tiers: { envt: ["gpt-5.6-luna"] }, fanout_caps: {} }, "env.json");
    const flag = h.policy({ ...V2, tiers: { flagt: ["gpt-5.6-luna"] }, fanout_caps: {} }, "flag.json");
    await h.run(checkArgv(c, { "tier-policy": flag }), T0, { DISPATCH_TIER_POLICY: envp });
    await h.run(checkArgv(c), T0, { DISPATCH_TIER_POLICY: envp });
    await h.run(checkArgv(c));
    rmSync(inst);
    await h.run(checkArgv(c));
    expect(h.rows().map((r) => [r.tier, r.tier_policy_path])).toEqual([
      ["flagt", flag],
      ["envt", envp],
      ["inst", inst],
      ["efficient", "<embedded>/master-ops/model-tier-policy.json"],
    ]);
  });

  test("TIER_FANOUT_CAP counts the window; an override bypasses it and is echoed; an unneeded one is not", async () => {
    const h = gateHome();
    const c = h.contract();
    const p = h.policy(V2);
    const first = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p, "tier-override": "owner ok" }));
    expect(first.code).toBe(0);
    expect(json(first.stdout)).not.toHaveProperty("tier_override");
    expect(h.rows()[0]).not.toHaveProperty("tier_override");
    const capped = await h.run(checkArgv(c, { model: "M-TOP", "tier-policy": p }), T0 + 10);
    expect(capped.code).toBe(2);
    expect(json(capped.stdout)).toEqual({ allow: false, contract_sha: null, cost_proxy: 0, message: "tier=top agents=1 used=1 cap=1 window_seconds=3600", reason: "TIER_FANOUT_CAP", warnings: [] });
    expect(capped.stderr).toBe("dispatch-gate: TIER_FANOUT_CAP: tier=top agents=1 used=1 cap=1 window_seconds=3600\n");
    const over = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p, "tier-override": "  owner approved  " }), T0 + 20);
    expect(over.code).toBe(0);
    expect(json(over.stdout).tier_override).toBe("owner approved");
    expect(h.rows()[2]).toMatchObject({ tier_override: "owner approved", tier: "top", attempt: 2 });
    // Override-allowed rows count too; rows older than the window do not.
    const used2 = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }), T0 + 30);
    expect(json(used2.stdout).message).toBe("tier=top agents=1 used=2 cap=1 window_seconds=3600");
    expect((await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }), T0 + 3621)).code).toBe(0);
  });

  test("TIER_UNKNOWN_MODEL: unknown models are capped, not denied outright; register rows never count (D8)", async () => {
    const h = gateHome();
    const c = h.contract();
    const p = h.policy(V2);
    const r = await h.run(checkArgv(c, { model: "brand-new", "tier-policy": p }));
    expect(json(r.stdout)).toMatchObject({ allow: true, warnings: ["TIER_UNKNOWN_MODEL"] });
    expect(h.rows()[0]!.tier).toBe("unknown");
    writeFileSync(h.ledger, `${readFileSync(h.ledger, "utf8").replace('"decision":"ALLOW"', '"decision":"DENY"')}${JSON.stringify({ ts: T0, decision: "ALLOW", job_id: "j", n_agents: 1, contract_sha: "x" })}\n`);
    expect((await h.run(checkArgv(c, { model: "brand-new", "tier-policy": p }))).code).toBe(0);
  });

  test("v1 policy: allowed, denied (TIER_POLICY) with override, and unknown_model warn", async () => {
    const h = gateHome();
    const c = h.contract();
    const deny = h.policy({ version: 1, worker_allowed: ["GPT-5.6-Luna"], worker_denied_tiers: ["m-top"], unknown_model: "deny" });
    expect((await h.run(checkArgv(c, { "tier-policy": deny }))).code).toBe(0);
    const d = await h.run(checkArgv(c, { model: "m-top", "tier-policy": deny }));
    expect(json(d.stdout)).toMatchObject({ reason: "TIER_POLICY", message: "model=m-top" });
    expect(d.stderr).toBe("dispatch-gate: TIER_POLICY: model=m-top\n");
    const u = await h.run(checkArgv(c, { model: "other", "tier-policy": deny }));
    expect(json(u.stdout).reason).toBe("TIER_POLICY");
    const o = await h.run(checkArgv(c, { model: "m-top", "tier-policy": deny, "tier-override": "ok" }));
    expect(json(o.stdout)).toMatchObject({ allow: true, tier_override: "ok" });
    const warn = h.policy({ version: 1, worker_allowed: [], worker_denied_tiers: [], unknown_model: "warn" }, "w.json");
    const w = await h.run(checkArgv(c, { model: "other", "tier-policy": warn }));
    expect(json(w.stdout)).toMatchObject({ allow: true, warnings: ["TIER_POLICY"] });
    expect(h.rows().at(-1)).not.toHaveProperty("tier");
  });
});

describe("check: ledger faults (D18) are a clean exit 2", () => {
  test("unwritable ledger: exit 2, LEDGER_UNAVAILABLE, no ticket", async () => {
    const h = gateHome();
    mkdirSync(h.ledger);
    const r = await h.run(checkArgv(h.contract()));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^dispatch-gate: LEDGER_UNAVAILABLE: .*dispatch-ledger\.jsonl/);
    expect(existsSync(h.tickets) ? readdirSync(h.tickets).filter((f) => !f.startsWith(".dispatch-gate.lock")) : []).toEqual([]);
  });

  test("a corrupt line in the window names its line; a torn last line is a warning", async () => {
    const h = gateHome();
    const c = h.contract();
    const p = h.policy(V2);
    const good = JSON.stringify({ ts: T0, decision: "ALLOW", model: "m-eff", n_agents: 1, contract_sha: "a".repeat(64) });
    writeFileSync(h.ledger, `${good}\n{broken\n${good}\n`);
    const r = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`dispatch-gate: LEDGER_UNAVAILABLE: ${h.ledger}:2: corrupt line`);
    expect(readFileSync(h.ledger, "utf8")).toBe(`${good}\n{broken\n${good}\n`);
    writeFileSync(h.ledger, `${good}\n{"ts":${T0},"deci`);
    const t = await h.run(checkArgv(c, { model: "m-top", "tier-policy": p }));
    expect(t.code).toBe(0);
    expect(t.stderr).toContain("torn last line");
    expect(h.rows().length).toBe(2);
    expect(readFileSync(`${h.ledger}.torn`, "utf8")).toBe(`{"ts":${T0},"deci\n`);
  });

  test("a gate lock that cannot be taken: exit 2 after the timeout, nothing written", async () => {
    const h = gateHome();
    mkdirSync(h.tickets, { recursive: true });
    // Held through another open file (a kernel flock, D33): a pid note in the file alone would hold nobody up.
    const release = acquireLock(join(h.tickets, ".dispatch-gate.lock"), 0);
    try {
      const r = await h.run(checkArgv(h.contract()), T0, { DISPATCH_GATE_LOCK_TIMEOUT_MS: "200" });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^dispatch-gate: LEDGER_UNAVAILABLE: .*could not take lock .* within 200 ms \(held by pid \d+ /);
      expect(existsSync(h.ledger)).toBe(false);
    } finally {
      release();
    }
  });

  test("an unreadable ticket dir is a ledger fault too", async () => {
    if (process.getuid?.() === 0) return; // root ignores permissions
    const h = gateHome();
    mkdirSync(h.tickets);
    chmodSync(h.tickets, 0o500);
    const r = await h.run(checkArgv(h.contract()));
    expect(r.code).toBe(2);
    chmodSync(h.tickets, 0o700);
  });
});
