// mogui dispatch through the compiled binary, against the real gate (`mogui dispatch-gate`, run as a subprocess
// of the binary) and the Orca simulator (fixtures/bin/orca): a full gate -> task -> terminal -> dispatch ->
// register -> delivery run, and each failure exit.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary } from "../../helpers/binary.ts";
import { dispatchEnv } from "../../helpers/dispatch.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const IDLE = "term_0d0d0d0d-0000-4000-8000-000000000001";
const TRUST = "term_0d0d0d0d-0000-4000-8000-000000000002";
const LIMIT = "term_0d0d0d0d-0000-4000-8000-000000000003";

let root: string;
let home: string;

function scenario(): string {
  const s = JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "basic.json"), "utf8"));
  const pane = (handle: string, agent: string, output: string[], onInject?: string[]) => ({ handle, worktreePath: "${ROOT}/wt-feature", title: "idle worker", agent, output, alive: true, ...(onInject ? { onInject } : {}) });
  s.terminals.push(
    pane(IDLE, "codex", ["$ codex --model gpt-5.6-luna", "codex> "]),
    pane(TRUST, "claude", ["$ claude", "❯ "], ["", "Do you trust the files in this folder?", "  1. Yes, proceed"]),
    pane(LIMIT, "grok", ["$ grok", "grok> "], ["You've hit your limit. Try again after 2 hours."]),
  );
  const p = join(root, "scenario.json");
  writeFileSync(p, JSON.stringify(s));
  return p;
}

const env = (extra: Record<string, string> = {}) => dispatchEnv(root, home, extra);

const CONTRACT = () => join(root, "contract.md");
const base = (...more: string[]) => ["dispatch", "--contract", CONTRACT(), "--delivery-poll-ms", "20", "--json", ...more];
async function dispatch(args: string[], extra: Record<string, string> = {}) {
  const r = await runBinary(args, { env: env(extra), cwd: root });
  const report = r.stdout ? JSON.parse(r.stdout) : undefined;
  return { ...r, report };
}
const ledger = () => join(home, "dispatch-ledger.jsonl");
const rows = (): Record<string, unknown>[] =>
  existsSync(ledger())
    ? readFileSync(ledger(), "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
const simState = () => JSON.parse(readFileSync(join(root, "orca-state.json"), "utf8"));

beforeEach(() => {
  root = tempDir("dispatch-e2e-");
  home = join(root, "home");
  writeFileSync(CONTRACT(), "- Goal: fix the login bug\n- Scope: `src/login.ts`\n- Acceptance: tests pass\n");
  scenario();
});

describe("full runs", () => {
  test("new terminal: gate -> task -> terminal -> inject -> register -> audit row; delivery UNVERIFIED is exit 0", async () => {
    const r = await dispatch(base("--spec", "Fix the login bug", "--worktree", `path:${join(root, "wt-feature")}`, "--runtime", "grok"));
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ exit: 0, step: "done", runtime: "grok", model: "grok-4.5", tier: "efficient", terminal_reused: false, register_reason: "OK", delivery: { class: "unknown" } });
    expect(Object.keys(r.report)).toEqual([...Object.keys(r.report)].sort());
    const { task_id, dispatch_id, terminal, contract_sha } = r.report;
    const state = simState();
    expect(state.tasks.find((t: { id: string }) => t.id === task_id)).toMatchObject({ status: "dispatched", spec: "Fix the login bug" });
    expect(state.dispatches.find((d: { id: string }) => d.id === dispatch_id)).toMatchObject({ task_id, assignee_handle: terminal });
    expect(state.terminals.find((t: { handle: string }) => t.handle === terminal).output[0]).toBe("$ grok --model grok-4.5 --always-approve");
    const ledgerRows = rows();
    expect(ledgerRows.filter((x) => x.decision === "ALLOW" && !x.job_id)).toHaveLength(1); // the dry gate recorded nothing
    expect(ledgerRows.find((x) => x.job_id === dispatch_id && x.decision === "ALLOW")).toMatchObject({ contract_sha, orchestration_task: task_id, model_declared: "grok-4.5", runtime: "grok" });
    expect(ledgerRows.find((x) => x.kind === "host_diversity_audit")).toMatchObject({ runtime: "grok", master_host_runtime: "claude", same_host: false, orchestration_task: task_id, job_id: dispatch_id, contract_sha });
    expect(r.stderr).toContain(`→ ${task_id} → ${terminal} (new)`);
    expect(r.stderr).toContain("⚠ delivery UNVERIFIED");
  });

  test("reused idle codex pane: codex pre-trust of its worktree, agent-started", async () => {
    mkdirSync(join(root, "accounts", "acct1", "home"), { recursive: true });
    writeFileSync(join(root, "accounts", "acct1", "home", "config.toml"), 'model = "gpt-5.6-luna"\n');
    const r = await dispatch(base("--spec", "Fix it", "--terminal", IDLE, "--runtime", "codex"));
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ terminal: IDLE, terminal_reused: true, model: "gpt-5.6-luna", delivery: { pre: "prepared-prompt", post: "unknown", class: "agent-started" } });
    expect(r.stderr).toContain("pre-trust ✓ codex · Summary: 1 added, 0 updated, 0 already trusted");
    expect(readFileSync(join(root, "accounts", "acct1", "home", "config.toml"), "utf8")).toBe(`model = "gpt-5.6-luna"\n\n[projects."${join(root, "wt-feature")}"]\ntrust_level = "trusted"\n`);
    expect(r.stderr).toContain("✓ delivery ✓ agent started");
  });

  test("--check-only: exit 0, the gate line, no ledger, no Orca task", async () => {
    const r = await runBinary(["dispatch", "--contract", CONTRACT(), "--check-only", "--runtime", "codex"], { env: env(), cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^exit=0 step=check-only runtime=codex model=gpt-5\.6-luna tier=efficient contract_sha=[0-9a-f]{64}\n$/);
    expect(r.stderr).toMatch(/⚙ gate ✓ efficient · gpt-5\.6-luna · est 0\.0k · contract [0-9a-f]{8}\n/);
    expect(existsSync(ledger())).toBe(false);
  });
});

describe("failure exits", () => {
  test("1: contract missing; --spec missing", async () => {
    const a = await dispatch(["dispatch", "--contract", join(root, "nope.md"), "--json"]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(`✗ contract file missing: ${join(root, "nope.md")}`);
    const b = await runBinary(["dispatch", "--contract", CONTRACT(), "--runtime", "grok"], { env: env(), cwd: root });
    expect(b).toMatchObject({ code: 1, stdout: "exit=1 step=spec\n" });
    expect(b.stderr).toContain("✗ --spec is required unless --check-only");
  });

  test("2: gate DENY at the dry gate records nothing", async () => {
    const r = await dispatch(base("--spec", "x", "--terminal", IDLE, "--runtime", "grok", "--est-chars", "600000"));
    expect(r.code).toBe(2);
    expect(r.report).toMatchObject({ step: "dry-gate" });
    expect(r.stderr).toContain("✗ gate DENY · BUDGET_EXCEEDED · model=grok-4.5 tier=efficient");
    expect(rows()).toEqual([]);
  });

  test("2: top tier without approval, and a vendor mismatch, refuse before any gate call", async () => {
    const top = await dispatch(base("--spec", "x", "--terminal", IDLE, "--runtime", "claude", "--model", "claude-opus-5"));
    expect(top.code).toBe(2);
    expect(top.stderr).toContain("✗ top tier needs owner approval · model=claude-opus-5");
    const mis = await dispatch(base("--spec", "x", "--terminal", IDLE, "--runtime", "codex", "--model", "grok-4.5"));
    expect(mis.code).toBe(2);
    expect(mis.stderr).toContain("✗ model/runtime mismatch · model=grok-4.5 (vendor grok) runtime=codex");
    expect(existsSync(ledger())).toBe(false);
  });

  test("2: unknown flag (usage)", async () => {
    const r = await runBinary(["dispatch", "--contract", CONTRACT(), "--bogus"], { env: env(), cwd: root });
    expect(r.code).toBe(2);
  });

  const faults: [string, string][] = [
    ["orchestration task-create=exit:1", "task-create"],
    ["terminal create=error_envelope", "terminal"],
    ["orchestration dispatch=malformed", "dispatch"],
  ];
  for (const [fault, step] of faults) {
    test(`3: ${fault} -> step ${step}, nothing registered`, async () => {
      const r = await dispatch(base("--spec", "x", "--worktree", `path:${join(root, "wt-feature")}`, "--runtime", "grok"), { ORCA_SIM_FAULT: fault });
      expect(r.code).toBe(3);
      expect(r.report).toMatchObject({ exit: 3, step, dispatch_id: null });
      expect(rows().filter((x) => x.job_id)).toEqual([]);
    });
  }

  test("4: register cannot verify the orchestration task (dispatch-show fails): the worker IS running", async () => {
    const r = await dispatch(base("--spec", "x", "--terminal", IDLE, "--runtime", "grok"), { ORCA_SIM_FAULT: "orchestration dispatch-show=exit:7" });
    expect(r.code).toBe(4);
    expect(r.report).toMatchObject({ step: "register", register_reason: "ORCHESTRATION_UNVERIFIED" });
    expect(r.stderr).toContain(`✗ register ORCHESTRATION_UNVERIFIED · dispatch=${r.report.dispatch_id} (worker IS running — resolve register manually)`);
    expect(rows().find((x) => x.reason === "ORCHESTRATION_UNVERIFIED")).toMatchObject({ job_id: r.report.dispatch_id, probe_failure: "task_not_found" });
  });

  test("5: a trust prompt after the inject", async () => {
    const r = await dispatch(base("--spec", "x", "--terminal", TRUST, "--runtime", "claude", "--model", "claude-sonnet-5", "--same-host-reason", "only runtime here"));
    expect(r.code).toBe(5);
    expect(r.report).toMatchObject({ step: "delivery", delivery: { pre: "prepared-prompt", post: "hook-trust", class: "hook-trust" }, same_host: true });
    expect(r.stderr).toContain("delivery pre=prepared-prompt post=hook-trust class=hook-trust");
    expect(rows().find((x) => x.kind === "host_diversity_audit")).toMatchObject({ same_host: true, same_host_reason: "only runtime here" });
  });

  test("5: a provider limit after the inject", async () => {
    const r = await dispatch(base("--spec", "x", "--terminal", LIMIT, "--runtime", "grok"));
    expect(r.code).toBe(5);
    expect(r.report.delivery).toMatchObject({ pre: "prepared-prompt", post: "limit", class: "limit" });
  });
});
