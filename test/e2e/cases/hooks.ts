/** End-to-end cases for the hooks family: one row per command (keyed by the family's command names). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";
import { checksumToken } from "../../helpers/redaction-corpus.ts";

// Built at run time so the repo's own redaction gate does not read these planted paths as personal home paths.
const MAC_HOME = ["", "Users"].join("/");

const COORDINATOR = "term_11111111-2222-4333-8444-555555555555";

function home(extra: Record<string, string> = {}): Record<string, string> {
  return e2eEnv({ MOGUI_HOME: join(tempDir("hooks-e2e-"), "home"), ...extra });
}

function product(): string {
  const p = join(tempDir("hooks-e2e-product-"), "product");
  mkdirSync(p, { recursive: true });
  return p;
}

function ops(): string {
  const o = tempDir("hooks-e2e-ops-");
  mkdirSync(join(o, "docs", "runbooks"), { recursive: true });
  writeFileSync(join(o, "docs", "runbooks", "role-state.md"), "# Role state\n- **Current Role**: Steering\n- **Role Lock**: held\n");
  return o;
}

function sim(scenario: string, extra: Record<string, string> = {}): Record<string, string> {
  const dir = tempDir("hooks-e2e-sim-");
  return home({ ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: scenario, ORCA_SIM_ROOT: dir, ...extra });
}

/** A fake gh state dir (fixtures/bin/gh) holding the given reply files. */
function ghState(files: Record<string, unknown>): Record<string, string> {
  const dir = tempDir("hooks-e2e-gh-");
  for (const [name, v] of Object.entries(files)) writeFileSync(join(dir, name), typeof v === "string" ? v : JSON.stringify(v));
  return home({ GH_FAKE_DIR: dir });
}

const FILLED_BODY = "## Problem\nHooks were slow.\n## Why this approach\nLess to load.\n## What this changes\nThe guard.\n## Expected effect\nFaster calls.\n";

function ledgerEnv(): Record<string, string> {
  const dir = tempDir("hooks-e2e-ledger-");
  const ledger = join(dir, "dispatch-ledger.jsonl");
  const ts = new Date(2026, 2, 14, 12, 30, 0).getTime() / 1000;
  writeFileSync(ledger, `${JSON.stringify({ ts, runtime: "codex", model: "gpt-5.5", tier: "efficient", decision: "ALLOW", reason: "OK", n_agents: 1, cost_proxy: 10 })}\n`);
  return home({ DISPATCH_GATE_LEDGER: ledger });
}

function agentsEnv(): Record<string, string> {
  const env = sim("basic", {
    SPAWN_TEST_DRIVER: "process",
    SPAWN_TEST_RUNTIMES: "claude",
    SPAWN_TEST_BLOCKED: "",
    SPAWN_TEST_COORDINATOR_TERMINAL: COORDINATOR,
    SPAWN_TEST_ROUND_TRIP_TIMEOUT_MS: "10000",
    SPAWN_TEST_AGENT_RESPONSE_TIMEOUT_SECONDS: "30",
    TMPDIR: tempDir("hooks-e2e-spawn-"),
  });
  env.PATH = `${join(ROOT, "fixtures", "agents")}:${env.PATH}`;
  return env;
}

const bashInput = (command: string, cwd = "/") => JSON.stringify({ hook_event_name: "PreToolUse", cwd, tool_name: "Bash", tool_input: { command } });
let guardProduct: string | undefined;
const theProduct = () => (guardProduct ??= product());
const REPORTS = join(tempDir("hooks-e2e-reports-"), "reports");

export const cases: FamilyCases = {
  "hook product-path-guard": {
    argv: ["hook", "product-path-guard"],
    code: 2,
    stdout: /^$/,
    env: () => home({ MOGUI_PRODUCT_REPO: theProduct() }),
    get stdin() {
      return bashInput(`echo x > ${theProduct()}/f`);
    },
  },
  "hook role-state-inject": {
    argv: ["hook", "role-state-inject"],
    code: 0,
    stdout: /^\[role-state\] Current Role: Steering \| Role Lock: held \| Execution rule: Proposal -> Approval -> Execution\./,
    env: () => home({ MOGUI_OPS_REPO: ops() }),
  },
  "hook tracker-check": { argv: ["hook", "tracker-check"], code: 0, stdout: /^\[tracker\] .*\n(\[tracker\] .*\n)?\[protections\] active: /, env: () => home({ MOGUI_OPS_REPO: ops() }) },
  "hook orch-inbox-warn": {
    argv: ["hook", "orch-inbox-warn"],
    code: 0,
    stdout: /^\[orch-inbox\] unacked=1 \| \S/,
    env: () => sim("settled", { ORCA_TERMINAL_HANDLE: COORDINATOR }),
  },
  "hook bash-poll-warn": { argv: ["hook", "bash-poll-warn"], code: 0, stdout: /^$/, stdin: bashInput("while true; do sleep 5; done"), env: () => home() },
  "hook bash-output-trim-warn": { argv: ["hook", "bash-output-trim-warn"], code: 0, stdout: /^$/, stdin: bashInput("git log -p"), env: () => home() },
  "hook spend-brake": {
    argv: ["hook", "spend-brake", "--job", "j1", "--max-tokens", "1000"],
    code: 0,
    stdout: /^$/,
    stdin: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", transcript_path: "/nonexistent/session.jsonl" }),
    env: () => home(),
  },
  "hook compaction-probe": {
    argv: ["hook", "compaction-probe"],
    code: 0,
    stdout: /^\{"hookSpecificOutput":\{"hookEventName":"SessionStart","additionalContext":"\[Compaction Recall Probe\] .*R1.*R4.*context-quality\.jsonl.*"\}\}\n$/,
    stdin: '{"source":"compact"}',
    env: () => home(),
  },
  "hook secret-alert": {
    argv: ["hook", "secret-alert"],
    code: 0,
    stdout: /^\{"decision":"block","reason":"secret-alert: 1 secret\(s\) in the Bash call \(github_token\).*"updatedToolOutput":".*gh\?_\*{8}.*"\}\}\n$/,
    stdin: JSON.stringify({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "env" }, tool_response: { stdout: `T=${checksumToken("gh" + "p_", "Zx81Kq0Lm2Np3Rt4Vw5Yb6Cd7Ef8Gh")}` } }),
    env: () => home(),
  },
  "hook install": {
    argv: ["hook", "install", "--host", "claude", "--product", "/usr", "--dry-run", "--json", "--settings", "/nonexistent-dir/settings.json"],
    code: 0,
    stdout:
      /^\{"changes":\[\{"change":"added","event":"PreToolUse","hook":"product-path-guard"\},.*\],"dry_run":true,"products":\["\/usr"\],"settings":\[.*\{"change":"added","setting":"permissions.deny","value":"Edit\(\/\/usr\/\*\*\)"\}\],"settings_path":"\/nonexistent-dir\/settings.json"\}\n$/,
  },
  "hook doctor": {
    // An empty settings file: no layer is on, so the product is not protected (exit 1).
    argv: ["hook", "doctor", "--settings", "/nonexistent-dir/settings.json", "--product", "/usr", "--json"],
    code: 1,
    stdout: /^\{"layers":\[\{"active":false,.*"name":"sandbox".*\],"product_problem":null,"products":\["\/usr"\],"protected":false,"settings_path":"\/nonexistent-dir\/settings.json","settings_read":\[\]\}\n$/,
  },
  "sandbox run": { argv: ["sandbox", "run", "--deny-write", "/usr", "--", "sh", "-c", "echo inside; exit 3"], code: 3, stdout: /^inside\n$/ },
  "sandbox check": { argv: ["sandbox", "check", "--deny-write", "/usr"], code: 0, stdout: /^mechanism: bubblewrap \(.*bwrap\)\nprobe: a write into a read-only temp dir was refused: enforced\nread-only: \/usr\n$/ },
  sandbox: { argv: ["sandbox", "--help"], code: 0, stdout: /^Run a command with paths read-only at the kernel level[\s\S]*run[\s\S]*check/ },
  hook: { argv: ["hook", "--help"], code: 0, stdout: /^The host hooks mogui provides[\s\S]*product-path-guard[\s\S]*install/ },
  "hook-coverage-report": {
    argv: ["hook-coverage-report", "--json"],
    code: 0,
    stdout: /^\{"log":".*hook-fire-log\.jsonl","never_fired":\["bash-output-trim-warn",.*"tracker-check"\],"rows":\[\],"total":0\}\n$/,
    env: () => home(),
  },
  "orca-wait": {
    argv: ["orca-wait", "--timeout-ms", "2000"],
    code: 0,
    stdout: /^worker_done\|msg_[0-9a-f]{12}\|term_[0-9a-f-]+\|.+\n$/,
    env: () => sim("settled", { ORCA_TERMINAL_HANDLE: COORDINATOR }),
  },
  measure: { argv: ["measure", "echo", "hi", "-n"], code: 0, stdout: /^exit=0\nhi -n\n$/ },
  "measure-product-path-guard": {
    argv: ["measure-product-path-guard"],
    code: 0,
    stdout: /^bash_command_observations=0\nguard_rejections=0\nrejection_rate=N\/A \(0\/0; no command observations\)\n$/,
    env: () => home(),
  },
  "pr-body-check": { argv: ["pr-body-check", "7"], code: 0, stdout: /^Problem: filled\nWhy this approach: filled\nWhat this changes: filled\nExpected effect: filled\n$/, env: () => ghState({ "pr-view-7.json": { body: FILLED_BODY } }) },
  "pr-steward-status": {
    argv: ["pr-steward-status", "7", "--repo", "acme/widget"],
    code: 1,
    stdout: /^pr: acme\/widget#7\nchecks concluded: PASS .*\n.*\n.*\ngates re-run: UNVERIFIED .*\noverall: NOT READY \(gates re-run\)\n$/,
    env: () =>
      ghState({
        "pr-view-7.json": { number: 7, headRefOid: "abc123", baseRefName: "main", mergeable: "MERGEABLE", statusCheckRollup: [{ __typename: "CheckRun", status: "COMPLETED", conclusion: "SUCCESS" }] },
        "graphql.json": { data: { repository: { pullRequest: { reviewThreads: { nodes: [{ isResolved: true, comments: { totalCount: 2 } }] } } } } },
      }),
  },
  "conversation-redaction-scan": {
    argv: ["conversation-redaction-scan", "--repo", "acme/widget"],
    code: 1,
    stdout: /^pr_body\|3\|bob\|body\|\/Users\/<x>\n$/,
    env: () => ghState({ "pr-list.json": [{ number: 3, author: { login: "bob" }, body: `logs in ${MAC_HOME}/carol/work`, comments: [], reviews: [] }] }),
  },
  "workstream-render": {
    argv: ["workstream-render", "2026-03-14"],
    code: 0,
    stdout: /^\| time \| kind .*\n\|---.*\n\| 12:30:00 \| check \| ALLOW \| codex \| gpt-5\.5 \(efficient\) \| 1 \| 10 \| - \| - \|\n$/,
    env: ledgerEnv,
  },
  "orca-surface-check": {
    argv: ["orca-surface-check"],
    code: 0,
    stdout: /^\[orca-surface\] 1\.4\.164 · schema v1 · 5 watched commands verified\n$/,
    env: () => home({ ORCA_CLI_COMMAND: join(ROOT, "fixtures", "hooks", "orca-surface"), BASELINE_FILE: join(ROOT, "fixtures", "hooks", "orca-surface-baseline.json") }),
  },
  "test-tool-naming": { argv: ["test-tool-naming", "--self-test"], code: 0, stdout: /^test-tool-naming: self-test passed\n$/ },
  "spawn-test": {
    argv: ["spawn-test", "happy-path", "--json", "--report-dir", REPORTS],
    code: 0,
    stdout: /^\{"must_pass_ok":true,"report":".*\/reports\/spawn-test-\d{4}-\d\d-\d\d\.md","results":\[\{"assertions":\[.*\],"runtime":"claude","status":"PASS"\}\],"scenario":"happy-path"\}\n$/,
    env: agentsEnv,
  },
};
