/** dispatch-gate register in process: selection (D9/D10), the five probe failures, job and model verification. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dispatchStates } from "../../../src/workers/reap/observability.ts";
import { checkArgv, envelope, fakeOrca, gateHome, RUNNING, T0, V2, type GateHome } from "../../helpers/gate.ts";

const json = (s: string) => JSON.parse(s);
const ORCA = { ORCA_CLI_COMMAND: "orca" };

async function checked(h: GateHome, text = "implement the parser\n", name = "c.md", over: Record<string, string | undefined | true> = {}, at = T0) {
  const r = await h.run(checkArgv(h.contract(text, name), over), at);
  expect(r.code).toBe(0);
  return json(r.stdout).contract_sha as string;
}

function reg(extra: string[] = [], job = "ctx_1"): string[] {
  return ["register", "--job-id", job, "--probe-cmd", `echo "job ${job} running"`, ...extra];
}

const tickets = (h: GateHome) => (existsSync(h.tickets) ? readdirSync(h.tickets).filter((f) => f.endsWith(".json")) : []);

describe("register: candidate selection", () => {
  test("D10: no candidate -> NO_MATCHING_TICKET before any probe, nothing written", async () => {
    const h = gateHome();
    const calls: string[][] = [];
    const r = await h.run(reg(), T0, ORCA, fakeOrca(RUNNING, calls));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('{"allow":false,"contract_sha":null,"cost_proxy":0,"message":"candidate_contract_shas=<none>","reason":"NO_MATCHING_TICKET","warnings":[]}\n');
    expect(r.stderr).toBe("dispatch-gate: NO_MATCHING_TICKET: candidate_contract_shas=<none>\n");
    expect(calls).toEqual([]);
    expect(h.rows()).toEqual([]);
  });

  test("happy path: ALLOW, register row + dispatch_submitted row, ticket consumed, attempt continues", async () => {
    const h = gateHome();
    const sha = await checked(h);
    const calls: string[][] = [];
    const r = await h.run(
      reg(["--contract-sha", sha.slice(0, 12).toUpperCase(), "--runtime", "CODEX", "--orchestration-task", "task_1", "--declared-model", "gpt-5.6-luna", "--model-probe-cmd", "printf 'x\\nGPT-5.6-luna\\n\\n'"]),
      T0 + 5,
      ORCA,
      fakeOrca(RUNNING, calls),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`{"allow":true,"contract_sha":"${sha}","cost_proxy":21,"reason":"OK","warnings":[]}\n`);
    expect(calls[0]).toEqual(["orca", "orchestration", "dispatch-show", "--task", "task_1", "--json"]);
    const [, row, life] = h.rows();
    expect(row).toEqual({
      attempt: 2,
      completion_channel: "orchestration",
      contract_sha: sha,
      decision: "ALLOW",
      est_chars: 21,
      job_id: "ctx_1",
      model_declared: "gpt-5.6-luna",
      model_measured: "GPT-5.6-luna",
      model_verified: true,
      n_agents: 1,
      orchestration_task: "task_1",
      reason: "OK",
      runtime: "codex",
      ts: T0 + 5,
    });
    expect(life).toEqual({ contract_sha: sha, dispatch_id: "ctx_1", event: "dispatch_submitted", runtime: "codex", status: "dispatched", task_id: "task_1", ts: T0 + 5 });
    expect(tickets(h)).toEqual([]);
    const states = await dispatchStates(h.ledger);
    expect(states.get("ctx_1")).toMatchObject({ task_id: "task_1", status: "dispatched", submitted_at: T0 + 5, reaped: false });
    // The ticket is gone and the pending row is registered: a second register finds nothing.
    const again = await h.run(reg(["--contract-sha", sha, "--orchestration-task", "task_1"]), T0 + 6, ORCA, fakeOrca(RUNNING));
    expect(json(again.stdout).reason).toBe("NO_MATCHING_TICKET");
  });

  test("D9: without --contract-sha the ticket is consumed too; a settled status adds dispatch_completed", async () => {
    const h = gateHome();
    await checked(h);
    const done = () => ({ stdout: envelope({ id: "ctx_1", status: "completed" }) });
    const r = await h.run(reg(["--orchestration-task", "task_1"]), T0 + 1, ORCA, fakeOrca(done));
    expect(r.code).toBe(0);
    expect(json(r.stdout).warnings).toEqual(["MODEL_UNVERIFIED"]);
    expect(tickets(h)).toEqual([]);
    expect(
      h
        .rows()
        .slice(1)
        .map((x) => x.event ?? x.reason),
    ).toEqual(["OK", "dispatch_submitted", "dispatch_completed"]);
    expect(h.rows()[1]).toMatchObject({ model_verified: false, warnings: ["MODEL_UNVERIFIED"] });
    const second = await h.run(reg(["--orchestration-task", "task_1"], "ctx_2"), T0 + 2, ORCA, fakeOrca(done));
    expect(json(second.stdout).reason).toBe("NO_MATCHING_TICKET");
  });

  test("AMBIGUOUS_TICKET lists sorted shas; a sha prefix picks one; filters are validated", async () => {
    const h = gateHome();
    const a = await checked(h, "one\n", "a.md");
    const b = await checked(h, "two\n", "b.md");
    const r = await h.run(reg(["--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(r.code).toBe(2);
    const msg = `candidate_contract_shas=${[a, b].sort().join(",")}`;
    expect(json(r.stdout)).toMatchObject({ reason: "AMBIGUOUS_TICKET", message: msg });
    expect(r.stderr).toBe(`dispatch-gate: AMBIGUOUS_TICKET: ${msg}\n`);
    for (const bad of ["abc", "zzzzzzzzzzzzzz", b.slice(0, 11)]) {
      const x = await h.run(reg(["--contract-sha", bad, "--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
      expect(json(x.stdout).reason).toBe("INVALID_REQUEST");
    }
    const badRt = await h.run(reg(["--runtime", "../x", "--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(badRt.stdout).reason).toBe("INVALID_REQUEST");
    const other = await h.run(reg(["--contract-sha", "f".repeat(12), "--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(other.stdout)).toMatchObject({ reason: "NO_MATCHING_TICKET", message: msg });
    const wrongRt = await h.run(reg(["--runtime", "claude", "--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(wrongRt.stdout).reason).toBe("NO_MATCHING_TICKET");
    const ok = await h.run(reg(["--contract-sha", b, "--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(ok.stdout)).toMatchObject({ allow: true, contract_sha: b });
    expect(h.rows().filter((x) => x.reason !== "INVALID_REQUEST").length).toBe(4);
  });

  test("expired tickets: only --contract-sha still finds them; GC after TTL + 24 h", async () => {
    const h = gateHome();
    const sha = await checked(h);
    const late = T0 + 601;
    expect(json((await h.run(reg(["--orchestration-task", "t"]), late, ORCA, fakeOrca(RUNNING))).stdout).reason).toBe("NO_MATCHING_TICKET");
    expect(tickets(h).length).toBe(1);
    const ok = await h.run(reg(["--contract-sha", sha, "--orchestration-task", "t"]), late, ORCA, fakeOrca(RUNNING));
    expect(ok.code).toBe(0);
    expect(json(ok.stdout).message).toBeUndefined();
    await checked(h, "other\n", "o.md");
    expect(tickets(h).length).toBe(1);
    await h.run(reg(["--orchestration-task", "t"]), T0 + 600 + 86_401, ORCA, fakeOrca(RUNNING));
    expect(tickets(h)).toEqual([]);
  });

  test("no tickets at all: ledger fallback by prefix (ticket_absent), ambiguous when several shas match", async () => {
    const h = gateHome();
    const a = await checked(h, "one\n", "a.md");
    rmSync(h.tickets, { recursive: true });
    const r = await h.run(reg(["--contract-sha", a.slice(0, 12), "--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ contract_sha: a, message: "ticket_absent" });
    const h2 = gateHome();
    const x = await checked(h2, "one\n", "a.md");
    // Forge a second pending row whose sha shares the 12-digit prefix.
    const twin = `${x.slice(0, 12)}${"0".repeat(52)}`;
    writeFileSync(h2.ledger, `${JSON.stringify({ ...h2.rows()[0], contract_sha: twin })}\n`, { flag: "a" });
    rmSync(h2.tickets, { recursive: true });
    const amb = await h2.run(reg(["--contract-sha", x.slice(0, 12), "--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(amb.stdout)).toMatchObject({ reason: "AMBIGUOUS_TICKET", message: `candidate_contract_shas=${[x, twin].sort().join(",")}` });
  });

  test("a ticket whose pending row is gone -> NO_MATCHING_TICKET (D9), never a crash", async () => {
    const h = gateHome();
    await checked(h);
    writeFileSync(h.ledger, "");
    rmSync(`${h.ledger}.idx`, { recursive: true, force: true });
    const r = await h.run(reg(["--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(r.code).toBe(2);
    expect(json(r.stdout).reason).toBe("NO_MATCHING_TICKET");
  });
});

describe("register: orchestration probe failures", () => {
  const cases: [string, (argv: string[]) => Record<string, unknown>, string][] = [
    ["orca missing", () => ({ missing: true, code: null }), "orca_missing"],
    ["timeout", () => ({ timedOut: true, code: null }), "probe_timeout"],
    ["non-zero exit", () => ({ code: 1, stdout: envelope({ id: "x" }) }), "task_not_found"],
    ["not JSON", () => ({ stdout: '{"ok":tru' }), "probe_unparseable"],
    ["JSON not an object", () => ({ stdout: "[1]" }), "probe_unparseable"],
    ["ok false", () => ({ stdout: JSON.stringify({ ok: false, error: { code: "x", message: "y" } }) }), "task_not_found"],
    ["result not an object", () => ({ stdout: JSON.stringify({ ok: true, result: "x" }) }), "probe_unparseable"],
    ["dispatch null", () => ({ stdout: envelope(null) }), "task_not_found"],
    ["flat shape without a dispatch id", () => ({ stdout: JSON.stringify({ status: "x" }) }), "task_not_found"],
  ];
  for (const [name, reply, failure] of cases) {
    test(`${name} -> ORCHESTRATION_UNVERIFIED ${failure}, with its DENY row`, async () => {
      const h = gateHome();
      await checked(h);
      const r = await h.run(reg(["--orchestration-task", "task_9"]), T0 + 1, ORCA, fakeOrca(reply));
      expect(r.code).toBe(2);
      expect(json(r.stdout)).toEqual({ allow: false, contract_sha: null, cost_proxy: 0, message: `probe_failure=${failure}`, reason: "ORCHESTRATION_UNVERIFIED", warnings: [] });
      expect(r.stderr).toBe(`dispatch-gate: ORCHESTRATION_UNVERIFIED: probe_failure=${failure}\n`);
      expect(h.rows()[1]).toEqual({ decision: "DENY", job_id: "ctx_1", orchestration_task: "task_9", probe_failure: failure, reason: "ORCHESTRATION_UNVERIFIED", ts: T0 + 1 });
      expect(tickets(h).length).toBe(1);
    });
  }

  test("task_omitted without --orchestration-task; sentinel-log dispatches need no task; legacy flat shape passes", async () => {
    const h = gateHome();
    await checked(h);
    const calls: string[][] = [];
    const r = await h.run(reg(), T0, ORCA, fakeOrca(RUNNING, calls));
    expect(json(r.stdout).message).toBe("probe_failure=task_omitted");
    expect(h.rows()[1]).toEqual({ decision: "DENY", job_id: "ctx_1", probe_failure: "task_omitted", reason: "ORCHESTRATION_UNVERIFIED", ts: T0 });
    expect(calls).toEqual([]);
    const s = gateHome();
    await checked(s, "x\n", "s.md", { "completion-channel": "sentinel-log" });
    const ok = await s.run(reg(), T0, ORCA, fakeOrca(RUNNING, calls));
    expect(ok.code).toBe(0);
    expect(calls.every((c) => c[0] === "/bin/sh")).toBe(true);
    const l = gateHome();
    await checked(l);
    const legacy = () => ({ stdout: JSON.stringify({ dispatch_id: "ctx_1", task_id: "t", status: "COMPLETED" }) });
    expect((await l.run(reg(["--orchestration-task", "t"]), T0, ORCA, fakeOrca(legacy))).code).toBe(0);
  });

  test("the orca executable follows D5 (ORCA_CLI_COMMAND > orca-dev)", async () => {
    const h = gateHome();
    await checked(h);
    const calls: string[][] = [];
    await h.run(
      reg(["--orchestration-task", "t"]),
      T0,
      { ORCA_DEV_REPO_ROOT: "/x" },
      fakeOrca(() => ({ missing: true }), calls),
    );
    expect(calls[0]![0]).toBe("orca-dev");
  });
});

describe("register: job and model verification", () => {
  test("UNVERIFIED_JOB when the probe fails, lacks the job id, or times out; nothing written", async () => {
    const h = gateHome();
    await checked(h);
    for (const probe of ["exit 1", "echo some-other-job", "echo ctx_1; exit 3"]) {
      const r = await h.run(["register", "--job-id", "ctx_1", "--probe-cmd", probe, "--orchestration-task", "t"], T0, ORCA, fakeOrca(RUNNING));
      expect(r.code).toBe(2);
      expect(json(r.stdout).reason).toBe("UNVERIFIED_JOB");
    }
    const slow = fakeOrca((argv) => (argv[0] === "orca" ? RUNNING() : {}));
    const timeout: typeof slow = async (argv, opts) => (argv[0] === "/bin/sh" ? { argv: [...argv], code: null, signal: null, stdout: "ctx_1", stderr: "", timedOut: true, missing: false } : slow(argv, opts));
    expect(json((await h.run(reg(["--orchestration-task", "t"]), T0, ORCA, timeout)).stdout).reason).toBe("UNVERIFIED_JOB");
    expect(h.rows().length).toBe(1);
    expect(tickets(h).length).toBe(1);
  });

  const models: [string, string[], string | null, string | undefined][] = [
    ["no declared model", ["--model-probe-cmd", "echo m-eff"], "MODEL_UNVERIFIED", undefined],
    ["no model probe", ["--declared-model", "m-eff"], "MODEL_UNVERIFIED", undefined],
    ["model probe fails", ["--declared-model", "m-eff", "--model-probe-cmd", "echo m-eff; exit 1"], "MODEL_PROBE_FAILED", undefined],
    ["model probe prints nothing", ["--declared-model", "m-eff", "--model-probe-cmd", "printf '  \\n'"], "MODEL_PROBE_FAILED", undefined],
    ["same model", ["--declared-model", "m-eff", "--model-probe-cmd", "echo ' M-EFF '"], null, undefined],
    ["cheaper measured", ["--declared-model", "m-top", "--model-probe-cmd", "echo m-eff"], "MODEL_MISMATCH", undefined],
    ["same tier", ["--declared-model", "m-eff", "--model-probe-cmd", "echo gpt-5.6-luna"], "MODEL_MISMATCH", undefined],
    ["efficient -> top", ["--declared-model", "m-eff", "--model-probe-cmd", "echo m-top"], null, "declared=m-eff tier=efficient measured=m-top tier=top"],
    ["listed -> unknown", ["--declared-model", "m-top", "--model-probe-cmd", "echo mystery"], null, "declared=m-top tier=top measured=mystery tier=unknown"],
  ];
  for (const [name, flags, warning, escalation] of models) {
    test(`${name}: ${escalation ? "MODEL_TIER_ESCALATION" : (warning ?? "verified")}`, async () => {
      const h = gateHome();
      const p = h.policy(V2);
      await checked(h, "x\n", "c.md", { model: "m-eff", "tier-policy": p });
      const r = await h.run(reg(["--orchestration-task", "t", "--tier-policy", p, ...flags]), T0, ORCA, fakeOrca(RUNNING));
      if (escalation) {
        expect(r.code).toBe(2);
        expect(json(r.stdout)).toMatchObject({ reason: "MODEL_TIER_ESCALATION", message: escalation });
        const row = h.rows()[1]!;
        expect(Object.keys(row)).toEqual(["decision", "job_id", "model_declared", "model_measured", "model_verified", "reason", "ts"]);
        expect(row.model_verified).toBe(true);
        expect(tickets(h).length).toBe(1);
        return;
      }
      expect(r.code).toBe(0);
      expect(json(r.stdout).warnings).toEqual(warning ? [warning] : []);
      expect(h.rows()[1]!.warnings).toEqual(warning ? [warning] : undefined);
    });
  }

  test("template policy (D12): efficient -> top is an escalation; v1 or unloadable policy -> MODEL_MISMATCH", async () => {
    const h = gateHome();
    await checked(h);
    const r = await h.run(reg(["--orchestration-task", "t", "--declared-model", "gpt-5.6-luna", "--model-probe-cmd", "echo claude-opus-5"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(r.stdout).reason).toBe("MODEL_TIER_ESCALATION");
    const v1 = h.policy({ version: 1, worker_allowed: [], worker_denied_tiers: [], unknown_model: "warn" }, "v1.json");
    const w = await h.run(reg(["--orchestration-task", "t", "--tier-policy", v1, "--declared-model", "gpt-5.6-luna", "--model-probe-cmd", "echo claude-opus-5"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(w.stdout).warnings).toEqual(["MODEL_MISMATCH"]);
    const h2 = gateHome();
    await checked(h2);
    const bad = h2.policy("{", "bad.json");
    const u = await h2.run(reg(["--orchestration-task", "t", "--tier-policy", bad, "--declared-model", "a", "--model-probe-cmd", "echo b"]), T0, ORCA, fakeOrca(RUNNING));
    expect(json(u.stdout).warnings).toEqual(["MODEL_MISMATCH"]);
  });

  test("a corrupt ledger is LEDGER_UNAVAILABLE with its line, not a crash", async () => {
    const h = gateHome();
    await checked(h);
    writeFileSync(h.ledger, "{oops\n", { flag: "a" });
    writeFileSync(h.ledger, `${JSON.stringify({ ts: T0 })}\n`, { flag: "a" });
    const r = await h.run(reg(["--orchestration-task", "t"]), T0, ORCA, fakeOrca(RUNNING));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`dispatch-gate: LEDGER_UNAVAILABLE: ${join(h.home, "dispatch-ledger.jsonl")}:2: corrupt line`);
  });
});
