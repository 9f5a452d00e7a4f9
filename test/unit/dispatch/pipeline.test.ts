// mogui dispatch in process (reference §4.4): every step and exit code, with a fake runner standing in for the
// gate subprocess (`<self> dispatch-gate ...`), orca and git. The e2e file drives the same against the real gate
// and the Orca simulator.
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDispatch } from "../../../src/dispatch/pipeline/pipeline.ts";
import type { DispatchRequest } from "../../../src/dispatch/pipeline/types.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import type { RunOptions, RunResult } from "../../../src/lib/runner.ts";
import { tempDir } from "../../helpers/paths.ts";
import { unitCtx } from "../../helpers/unit-ctx.ts";

const SELF = ["/opt/mogui"];
const SHA = "a".repeat(64);
const ORCA = "orca-fake";

type Reply = Partial<Pick<RunResult, "code" | "stdout" | "stderr" | "timedOut" | "missing">>;
type Handler = (argv: string[]) => Reply;

interface World {
  gate: { check: Handler; register: Handler };
  orca: Record<string, Handler>;
  reads: string[];
  calls: string[][];
}

const env = (result: object) => ({ stdout: JSON.stringify({ id: "x", ok: true, result, _meta: {} }) });
const orcaFail = (code = "runtime_error") => ({ code: 1, stdout: JSON.stringify({ id: "local", ok: false, error: { code, message: "boom" }, _meta: {} }) });
const allow = (extra: object = {}) => ({ stdout: JSON.stringify({ allow: true, contract_sha: SHA, cost_proxy: 10, reason: "OK", warnings: [], ...extra }) });
const deny = (reason: string) => ({ code: 2, stdout: JSON.stringify({ allow: false, contract_sha: null, cost_proxy: 0, reason, warnings: [] }), stderr: `dispatch-gate: ${reason}\n` });

let dir: string;
let bin: string;
let world: World;
let stderr: string[];

function newWorld(): World {
  const w: World = {
    gate: { check: () => allow(), register: () => allow({ warnings: ["MODEL_UNVERIFIED"] }) },
    orca: {
      "orchestration task-create": () => env({ task: { id: "task_000000000001" } }),
      "terminal create": () => env({ terminal: { handle: "term_new" } }),
      "terminal wait": () => env({ wait: { handle: "term_new", satisfied: true } }),
      "terminal read": () => env({ terminal: { handle: "term_new", tail: (w.reads.length > 1 ? w.reads.shift()! : w.reads[0]!).split("\n") } }),
      "orchestration dispatch": () => env({ dispatch: { id: "ctx_000000000001", status: "dispatched" } }),
      "terminal show": () => env({ terminal: { handle: "term_old", worktreePath: join(dir, "wt") } }),
      "orchestration dispatch-show": () => env({ dispatch: null }),
      "orchestration run-current": () => env({ run: { id: "run_0a1b2c3d4e5f", objective: "o" } }),
    },
    reads: ["codex> ", "working on it"],
    calls: [],
  };
  return w;
}

function runner(argv: readonly string[], _opts?: RunOptions): Promise<RunResult> {
  const a = [...argv];
  world.calls.push(a);
  let reply: Reply;
  if (a[0] === SELF[0] && a[1] === "dispatch-gate") reply = world.gate[a[2] as "check" | "register"](a);
  else if (a[0] === ORCA) {
    const h = world.orca[`${a[1]} ${a[2]}`];
    if (!h) throw new Error(`unexpected orca call ${a.join(" ")}`);
    reply = h(a);
  } else if (a[0] === "git" || a[0] === "gh") reply = { code: 128 };
  else throw new Error(`unexpected call ${a.join(" ")}`);
  return Promise.resolve({ argv: a, code: reply.timedOut || reply.missing ? null : (reply.code ?? 0), signal: null, stdout: reply.stdout ?? "", stderr: reply.stderr ?? "", timedOut: reply.timedOut ?? false, missing: reply.missing ?? false });
}

function ctx(extraEnv: Record<string, string | undefined> = {}): Ctx {
  return unitCtx({
    env: { HOME: dir, MOGUI_HOME: join(dir, "home"), PATH: bin, ORCA_CLI_COMMAND: ORCA, MOGUI_MASTER_HOST_RUNTIME: "claude", ORCA_TERMINAL_HANDLE: "term_master", ...extraEnv },
    cwd: dir,
    runner,
    now: () => 1_800_000_000_000,
    self: SELF,
  });
}

function installed(...names: string[]) {
  for (const n of names) {
    writeFileSync(join(bin, n), "#!/bin/sh\n");
    chmodSync(join(bin, n), 0o755);
  }
}

const LEDGER = () => join(dir, "home", "dispatch-ledger.jsonl");
function req(over: Partial<DispatchRequest> = {}): DispatchRequest {
  return { contract: join(dir, "c.md"), spec: "do it", worktree: `path:${join(dir, "wt")}`, checkOnly: false, ledger: LEDGER(), deliveryPollMs: 0, runtime: "grok", ...over };
}
async function go(over: Partial<DispatchRequest> = {}, extraEnv: Record<string, string | undefined> = {}) {
  return runDispatch(ctx(extraEnv), req(over), (l) => stderr.push(l));
}
const gateCalls = () => world.calls.filter((c) => c[1] === "dispatch-gate");
const orcaCalls = () => world.calls.filter((c) => c[0] === ORCA).map((c) => `${c[1]} ${c[2]}`);
const ledgerRows = () =>
  readFileSync(LEDGER(), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

beforeEach(() => {
  dir = tempDir("dispatch-pipe-");
  bin = join(dir, "bin");
  mkdirSync(bin);
  mkdirSync(join(dir, "wt"));
  writeFileSync(join(dir, "c.md"), "- Goal: x\n- Scope: `src/a.ts`\n한글\n");
  world = newWorld();
  stderr = [];
});

describe("the full run", () => {
  test("gate (dry, recorded) -> task -> terminal -> inject -> register -> audit row -> agent-started", async () => {
    installed("claude", "grok");
    const r = await go();
    expect(r).toMatchObject({
      exit: 0,
      step: "done",
      runtime: "grok",
      model: "grok-4.5",
      tier: "efficient",
      contract_sha: SHA,
      task_id: "task_000000000001",
      terminal: "term_new",
      terminal_reused: false,
      dispatch_id: "ctx_000000000001",
      register_reason: "OK",
      register_warnings: ["MODEL_UNVERIFIED"],
      probe: "unavailable",
      delivery: { pre: "prepared-prompt", post: "unknown", class: "agent-started", polls: 1 },
      same_host: false,
      master_host_source: "env",
      est_chars: 33,
    });
    expect(orcaCalls()).toEqual(["orchestration run-current", "orchestration task-create", "terminal create", "terminal wait", "terminal read", "orchestration dispatch", "terminal read"]);
    const [dry, rec, reg] = gateCalls();
    expect(dry).toEqual([...SELF, "dispatch-gate", "check", "--ledger", LEDGER(), "--runtime", "grok", "--model", "grok-4.5", "--contract", join(dir, "c.md"), "--agents", "1", "--est-chars", "33", "--completion-channel", "orchestration", "--no-record"]);
    expect(rec).toEqual(dry!.slice(0, -1));
    expect(reg!.slice(0, 11)).toEqual([...SELF, "dispatch-gate", "register", "--ledger", LEDGER(), "--job-id", "ctx_000000000001", "--contract-sha", SHA, "--runtime", "grok"]);
    expect(reg).toContain("--orchestration-task");
    expect(reg![reg!.indexOf("--probe-cmd") + 1]).toBe(`${ORCA} orchestration dispatch-show --task task_000000000001 --json 2>/dev/null | grep -o -F -- ctx_000000000001 | head -n 1`);
    expect(reg![reg!.indexOf("--declared-model") + 1]).toBe("grok-4.5");
    expect(reg).not.toContain("--model-probe-cmd");
    // D38: every value goes as --flag=value (Orca reads any --token as a flag); the title finds a late terminal.
    expect(world.calls.find((c) => c[1] === "terminal" && c[2] === "create")).toEqual([ORCA, "terminal", "create", `--worktree=path:${join(dir, "wt")}`, "--title=mogui task_000000000001", "--command=grok --model grok-4.5 --always-approve", "--json"]);
    const tc = world.calls.find((c) => c[2] === "task-create")!;
    expect(tc.slice(0, 4)).toEqual([ORCA, "orchestration", "task-create", "--spec=do it"]);
    expect(tc[4]).toMatch(/^--task-title=mogui c\.md aaaaaaaa [0-9a-z]+$/);
    expect(world.calls.find((c) => c[2] === "dispatch")).toEqual([ORCA, "orchestration", "dispatch", "--task=task_000000000001", "--to=term_new", "--inject", "--json"]);
    expect(ledgerRows()).toEqual([
      {
        ts: 1_800_000_000,
        kind: "host_diversity_audit",
        runtime: "grok",
        master_host_runtime: "claude",
        same_host: false,
        same_host_reason: null,
        installed_runtimes: ["claude", "grok"],
        alternative_runtimes: ["grok"],
        orchestration_task: "task_000000000001",
        job_id: "ctx_000000000001",
        contract_sha: SHA,
      },
    ]);
    expect(stderr).toContain("→ task_000000000001 → term_new (new)");
    expect(stderr).toContain(`⚡ register ✓ ctx_000000000001 · warn:MODEL_UNVERIFIED · probe: job=ledger-matched model=unavailable`);
    expect(stderr).toContain("delivery pre=prepared-prompt post=unknown class=agent-started");
    expect(stderr.at(-1)).toBe("✓ delivery ✓ agent started on term_new");
  });

  test("--terminal reuses the pane: no create, no wait", async () => {
    const r = await go({ terminal: "term_old", worktree: undefined });
    expect(r).toMatchObject({ exit: 0, terminal: "term_old", terminal_reused: true });
    expect(orcaCalls()).toEqual(["orchestration run-current", "orchestration task-create", "terminal read", "orchestration dispatch", "terminal read"]);
    expect(stderr).toContain("→ task_000000000001 → term_old (reused)");
  });

  test("--check-only: dry gate only, nothing recorded, nothing started", async () => {
    const r = await go({ checkOnly: true, spec: undefined, runtime: "codex" });
    expect(r).toMatchObject({ exit: 0, step: "check-only", model: "gpt-5.6-luna", contract_sha: SHA });
    expect(gateCalls()).toHaveLength(1);
    expect(gateCalls()[0]).toContain("--no-record");
    expect(orcaCalls()).toEqual([]);
    expect(stderr).toContain("⚙ gate ✓ efficient · gpt-5.6-luna · est 0.0k · contract aaaaaaaa");
  });

  test("D16: --est-chars is measured from the contract (characters) when absent, passed through when given", async () => {
    writeFileSync(join(dir, "c.md"), "é".repeat(3500));
    await go({ checkOnly: true });
    expect(gateCalls()[0]![gateCalls()[0]!.indexOf("--est-chars") + 1]).toBe("3500");
    expect(stderr).toContain("⚙ gate ✓ efficient · grok-4.5 · est 3.5k · contract aaaaaaaa");
    world.calls = [];
    await go({ checkOnly: true, estChars: 42 });
    expect(gateCalls()[0]![gateCalls()[0]!.indexOf("--est-chars") + 1]).toBe("42");
  });
});

describe("resolution (§4.2)", () => {
  test("default runtime: first installed that is not the master host; none -> the master host", async () => {
    installed("claude", "codex", "grok");
    expect(await go({ runtime: undefined, checkOnly: true })).toMatchObject({ runtime: "codex", installed_runtimes: ["claude", "codex", "grok"] });
    world.calls = [];
    expect(await go({ runtime: undefined, checkOnly: true }, { MOGUI_MASTER_HOST_RUNTIME: "codex" })).toMatchObject({ runtime: "claude" });
  });

  test("no runtime installed: the master host, with the same-host warning", async () => {
    const r = await go({ runtime: undefined, checkOnly: true });
    expect(r).toMatchObject({ runtime: "claude", same_host: true, model: "claude-haiku-4-5" });
    expect(stderr).toContain("WARNING: worker runtime 'claude' matches master host 'claude'; installed alternatives: none");
    expect(stderr).toContain("model derived for runtime claude from tier policy: claude-haiku-4-5");
  });

  test("--same-host-reason acknowledges, and the audit row records it", async () => {
    installed("claude", "codex");
    await go({ runtime: "claude", sameHostReason: " owner wants it " });
    expect(stderr).toContain("same-host acknowledged: runtime=claude reason=owner wants it alternatives=codex");
    expect(ledgerRows()[0]).toMatchObject({ same_host: true, same_host_reason: "owner wants it", alternative_runtimes: ["codex"] });
  });

  test("master host: env > instance config > fallback codex with a one-line warning", async () => {
    mkdirSync(join(dir, "home", "config"), { recursive: true });
    writeFileSync(join(dir, "home", "config", "instance-runtime.json"), JSON.stringify({ master_host_runtime: "grok" }));
    expect(await go({ checkOnly: true }, { MOGUI_MASTER_HOST_RUNTIME: undefined })).toMatchObject({ master_host_runtime: "grok", master_host_source: "instance-config", same_host: true });
    const alt = join(dir, "alt.json");
    writeFileSync(alt, "{}");
    stderr = [];
    expect(await go({ checkOnly: true }, { MOGUI_MASTER_HOST_RUNTIME: undefined, MOGUI_INSTANCE_RUNTIME_CONFIG: alt })).toMatchObject({ master_host_runtime: "codex", master_host_source: "fallback" });
    expect(stderr[0]).toBe(
      `WARNING: master host runtime is the hardcoded fallback 'codex' (not measured; the same-host check compares against this guess) — set MOGUI_MASTER_HOST_RUNTIME, or master_host_runtime in ${alt}, to the runtime this master session runs on`,
    );
    expect(stderr[1]).not.toStartWith("  ");
  });

  test("a malformed instance config or tier policy refuses before any gate call (exit 2)", async () => {
    mkdirSync(join(dir, "home", "config"), { recursive: true });
    writeFileSync(join(dir, "home", "config", "instance-runtime.json"), "{nope");
    expect(await go({}, { MOGUI_MASTER_HOST_RUNTIME: undefined })).toMatchObject({ exit: 2, step: "instance-config" });
    writeFileSync(join(dir, "home", "config", "instance-runtime.json"), "{}");
    writeFileSync(join(dir, "p.json"), JSON.stringify({ version: 2, tiers: { top: ["m "] }, fanout_caps: {} }));
    expect(await go({ tierPolicy: join(dir, "p.json") })).toMatchObject({ exit: 2, step: "tier-policy" });
    expect(stderr.at(-1)).toStartWith("✗ tier policy unavailable · ");
    expect(gateCalls()).toEqual([]);
  });

  test("model derivation follows the given tier policy; --tier-policy is passed to the gate", async () => {
    const p = join(dir, "p.json");
    writeFileSync(p, JSON.stringify({ version: 2, tiers: { top: ["grok-9"], efficient: ["claude-x", "grok-mini"] }, fanout_caps: {} }));
    expect(await go({ checkOnly: true, tierPolicy: p })).toMatchObject({ model: "grok-mini", tier: "efficient" });
    expect(gateCalls()[0]).toContain(p);
    world.calls = [];
    writeFileSync(p, JSON.stringify({ version: 2, tiers: { top: ["grok-9"], efficient: ["claude-x"] }, fanout_caps: {} }));
    expect(await go({ checkOnly: true, tierPolicy: p, topApproved: "ok" })).toMatchObject({ model: "grok-9", tier: "top" });
  });

  test("vendor mismatch: exit 2 before any gate call; an unknown vendor passes", async () => {
    const r = await go({ runtime: "codex", model: "grok-4.5" });
    expect(r).toMatchObject({ exit: 2, step: "model-runtime" });
    expect(stderr).toContain("✗ model/runtime mismatch · model=grok-4.5 (vendor grok) runtime=codex");
    expect(gateCalls()).toEqual([]);
    expect((await go({ runtime: "agy", model: "gemini-3.6-flash", checkOnly: true })).exit).toBe(0);
    expect((await go({ runtime: "codex", model: "my-local-model", checkOnly: true })).exit).toBe(0);
  });

  test("top tier without --top-approved: exit 2 before any gate call, nothing in the ledger", async () => {
    for (const topApproved of [undefined, "   "]) {
      stderr = [];
      const r = await go({ runtime: "claude", model: "claude-opus-5", topApproved });
      expect(r).toMatchObject({ exit: 2, step: "top-approval", tier: "top" });
      expect(stderr.slice(-2)).toEqual(["✗ top tier needs owner approval · model=claude-opus-5", '  Ask the owner, then pass the answer: --top-approved "<reason>"']);
    }
    expect(gateCalls()).toEqual([]);
    const ok = await go({ runtime: "claude", model: "claude-opus-5", topApproved: "owner said yes" });
    expect(ok.exit).toBe(0);
    expect(stderr).toContain("🔓 top tier approved by owner · owner said yes");
  });
});

describe("refusals and failures", () => {
  test("contract missing / --spec missing: exit 1, no calls", async () => {
    expect(await go({ contract: join(dir, "nope.md") })).toMatchObject({ exit: 1, step: "contract" });
    expect(stderr).toContain(`✗ contract file missing: ${join(dir, "nope.md")}`);
    expect(await go({ contract: dir })).toMatchObject({ exit: 1, step: "contract" });
    expect(await go({ spec: undefined })).toMatchObject({ exit: 1, step: "spec" });
    expect(world.calls).toEqual([]);
  });

  test("dry gate DENY: exit 2 with reason, model, tier and the raw JSON", async () => {
    world.gate.check = () => deny("BUDGET_EXCEEDED");
    expect(await go()).toMatchObject({ exit: 2, step: "dry-gate" });
    expect(stderr.slice(-2)).toEqual(["✗ gate DENY · BUDGET_EXCEEDED · model=grok-4.5 tier=efficient", '{"allow":false,"contract_sha":null,"cost_proxy":0,"reason":"BUDGET_EXCEEDED","warnings":[]}']);
    expect(orcaCalls()).toEqual([]);
  });

  test("recorded gate DENY (dry passed): exit 2, nothing started", async () => {
    let n = 0;
    world.gate.check = () => (++n === 1 ? allow() : deny("TIER_FANOUT_CAP"));
    expect(await go()).toMatchObject({ exit: 2, step: "gate" });
    expect(orcaCalls()).toEqual(["orchestration run-current"]);
  });

  test("no bound Run: exit 2 before the recorded gate, one line naming run-create / run-use; --run-create makes one", async () => {
    world.orca["orchestration run-current"] = () => env({ run: null });
    expect(await go()).toMatchObject({ exit: 2, step: "run", run_id: null });
    expect(stderr.at(-1)).toBe("✗ no Orca Run is bound to this terminal · bind one first: orca orchestration run-create --objective '<text>' (or run-use --id <run_id>), or pass --run-create");
    expect(gateCalls()).toHaveLength(1); // the dry gate only
    world.orca["orchestration run-create"] = (a) => env({ run: { id: "run_00000000000a", objective: a[3]!.slice("--objective=".length) } });
    stderr = [];
    expect(await go({ runCreate: true })).toMatchObject({ exit: 0, run_id: "run_00000000000a", run_created: true });
    expect(stderr).toContain("run ✓ created and bound run_00000000000a · mogui dispatch c.md");
    expect(world.calls.find((c) => c[2] === "run-create")).toEqual([ORCA, "orchestration", "run-create", "--objective=mogui dispatch c.md", "--json"]);
  });

  test("a gate that cannot answer (missing, timeout, garbage) is a refusal, never a pass", async () => {
    for (const reply of [{ missing: true }, { timedOut: true }, { code: 1, stdout: "not json", stderr: "mogui: internal error: x" }, { stdout: '{"allow":"yes"}' }]) {
      world.gate.check = () => reply;
      stderr = [];
      expect(await go()).toMatchObject({ exit: 2, step: "dry-gate" });
      expect(stderr.at(-1)).toStartWith("✗ gate unavailable · ");
    }
  });

  test("a ledger that cannot be written stops before the recorded gate (exit 2)", async () => {
    writeFileSync(join(dir, "home"), "not a dir");
    expect(await go()).toMatchObject({ exit: 2, step: "ledger" });
    expect(gateCalls()).toHaveLength(1);
  });

  test("task-create, terminal create, dispatch failures: exit 3", async () => {
    world.orca["orchestration task-create"] = () => orcaFail("run_required");
    expect(await go()).toMatchObject({ exit: 3, step: "task-create" });
    expect(stderr.at(-1)).toStartWith("✗ task-create failed · ");
    world = newWorld();
    world.orca["terminal create"] = () => ({ missing: true });
    expect(await go()).toMatchObject({ exit: 3, step: "terminal", task_id: "task_000000000001" });
    world = newWorld();
    world.orca["orchestration dispatch"] = () => orcaFail("inject_rejected");
    expect(await go()).toMatchObject({ exit: 3, step: "dispatch", terminal: "term_new" });
    expect(gateCalls().filter((c) => c[2] === "register")).toEqual([]);
    world = newWorld();
    world.orca["orchestration task-create"] = () => env({ task: {} });
    expect(await go()).toMatchObject({ exit: 3, step: "task-create" });
  });

  test("terminal wait that is not satisfied is a warning, not a failure", async () => {
    world.orca["terminal wait"] = () => ({ ...env({ wait: { handle: "term_new", satisfied: false, blockedReason: "codex-trust-workspace" } }), code: 1 });
    expect((await go()).exit).toBe(0);
    expect(stderr).toContain("WARNING: terminal term_new did not reach tui-idle: not idle (codex-trust-workspace)");
    // The wait is Orca's own (60 s) with the client's 5 s of slack on the process.
    expect(world.calls.find((c) => c[1] === "terminal" && c[2] === "wait")).toEqual([ORCA, "terminal", "wait", "--terminal", "term_new", "--for", "tui-idle", "--timeout-ms", "60000", "--json"]);
  });

  test("register DENY or failure: exit 4, the worker IS running", async () => {
    world.gate.register = () => deny("ORCHESTRATION_UNVERIFIED");
    expect(await go()).toMatchObject({ exit: 4, step: "register", dispatch_id: "ctx_000000000001", register_reason: "ORCHESTRATION_UNVERIFIED" });
    expect(stderr.slice(-2)).toEqual(["✗ register ORCHESTRATION_UNVERIFIED · dispatch=ctx_000000000001 (worker IS running — resolve register manually)", "  once it settles, clean up: mogui worker-reap --dispatch-id ctx_000000000001"]);
    world.gate.register = () => ({ timedOut: true });
    expect(await go()).toMatchObject({ exit: 4, step: "register" });
    expect(stderr.at(-2)).toContain("✗ register UNAVAILABLE (");
  });

  test("an audit row that cannot be written is a warning; the dispatch stands", async () => {
    // The ledger passes the writability check, then becomes a directory before the audit append.
    world.gate.register = () => {
      rmSync(LEDGER());
      mkdirSync(LEDGER());
      return allow();
    };
    expect((await go()).exit).toBe(0);
    expect(stderr.some((l) => l.startsWith("WARNING: host-diversity audit row not written: "))).toBe(true);
  });
});

describe("delivery (§4.4 step 12)", () => {
  const cases: [string[], string, number, number][] = [
    [["codex> ", "Do you trust the files in this folder?"], "hook-trust", 5, 1],
    [["codex> ", "You've hit your limit. Try again after 2 hours."], "limit", 5, 1],
    [["codex> ", "thinking..."], "agent-started", 0, 1],
    [["output", "more output"], "unknown", 0, 1],
    [["codex> ", "codex> "], "unknown", 0, 6],
    [["codex> ", "codex> ", "codex> ", "working"], "agent-started", 0, 3],
  ];
  for (const [reads, cls, code, polls] of cases) {
    test(`${JSON.stringify(reads)} -> ${cls}, exit ${code}, ${polls} poll(s)`, async () => {
      world.reads = [...reads];
      const r = await go();
      expect(r).toMatchObject({ exit: code, delivery: { class: cls, polls } });
      expect(orcaCalls().filter((c) => c === "terminal read")).toHaveLength(1 + polls);
      if (code === 5) expect(stderr.at(-1)).toStartWith("✗ delivery FAILED · ");
      if (cls === "unknown") expect(stderr.at(-1)).toStartWith("⚠ delivery UNVERIFIED · ");
    });
  }
  test("a pane that cannot be read is unknown (never proof of delivery)", async () => {
    world.orca["terminal read"] = () => orcaFail();
    expect(await go()).toMatchObject({ exit: 0, delivery: { pre: "unknown", post: "unknown", class: "unknown" } });
  });
});

describe("codex pre-trust", () => {
  const accounts = () => join(dir, "acc");
  test("runs on the absolute worktree and reports its Summary", async () => {
    mkdirSync(join(accounts(), "a", "home"), { recursive: true });
    writeFileSync(join(accounts(), "a", "home", "config.toml"), "");
    installed("codex");
    const r = await go({ runtime: "codex" }, { CODEX_ACCOUNTS_DIR: accounts() });
    expect(r.exit).toBe(0);
    expect(stderr).toContain("pre-trust ✓ codex · Summary: 1 added, 0 updated, 0 already trusted");
    expect(readFileSync(join(accounts(), "a", "home", "config.toml"), "utf8")).toContain(`[projects."${join(dir, "wt")}"]`);
    expect(world.calls.find((c) => c[1] === "terminal" && c[2] === "create")).toContain("--command=codex --model gpt-5.6-luna");
  });

  test("a selector Orca's worktree list does not resolve to one path: exit 2 before the recorded gate", async () => {
    world.orca["worktree list"] = () => env({ worktrees: [{ id: "r1::/elsewhere", path: "/elsewhere", branch: "refs/heads/main" }], totalCount: 1, truncated: false });
    const r = await go({ runtime: "codex", worktree: "branch:feature" });
    expect(r).toMatchObject({ exit: 2, step: "pretrust" });
    expect(stderr.at(-1)).toBe("✗ codex needs an absolute worktree path to pre-trust; got 'branch:feature' (Orca's worktree list has no single worktree with a path for 'branch:feature')");
    expect(gateCalls()).toHaveLength(1);
  });

  test("worktree ids as Orca prints them, path:, a bare path and other selectors all reach pre-trust", async () => {
    mkdirSync(join(accounts(), "a", "home"), { recursive: true });
    writeFileSync(join(accounts(), "a", "home", "config.toml"), "");
    installed("codex");
    const wt = join(dir, "wt");
    world.orca["worktree list"] = () => env({ worktrees: [{ id: `r1::${wt}`, path: wt, branch: "refs/heads/feature", displayName: "wt" }], totalCount: 1, truncated: false });
    for (const sel of [`id:r1::${wt}`, `r1::${wt}`, `path:${wt}`, wt, "branch:feature", "name:wt", "feature"]) {
      stderr = [];
      const r = await go({ runtime: "codex", worktree: sel }, { CODEX_ACCOUNTS_DIR: accounts() });
      expect({ sel, exit: r.exit }).toEqual({ sel, exit: 0 });
      expect(stderr.some((l) => l.startsWith("pre-trust ✓ codex · Summary:"))).toBe(true);
      expect(world.calls.filter((c) => c[2] === "create").at(-1)).toContain(`--worktree=${sel}`);
    }
    expect(readFileSync(join(accounts(), "a", "home", "config.toml"), "utf8")).toContain(`[projects."${wt}"]`);
  });

  test("with --terminal the worktree comes from orca terminal show", async () => {
    const r = await go({ runtime: "codex", terminal: "term_old", worktree: undefined }, { CODEX_ACCOUNTS_DIR: accounts() });
    expect(r.exit).toBe(0);
    expect(stderr).toContain("pre-trust ✓ codex · Summary: 0 added, 0 updated, 0 already trusted");
  });

  test("a pre-trust error: exit 2, nothing recorded", async () => {
    mkdirSync(join(accounts(), "a", "home"), { recursive: true });
    writeFileSync(join(accounts(), "a", "home", "config.toml"), "x = = 1");
    const r = await go({ runtime: "codex" }, { CODEX_ACCOUNTS_DIR: accounts() });
    expect(r).toMatchObject({ exit: 2, step: "pretrust" });
    expect(stderr.at(-1)).toStartWith("✗ codex pre-trust failed · ERROR ");
    expect(gateCalls()).toHaveLength(1);
  });
});

describe("model probe (§4.4 step 8)", () => {
  test("claude in a path worktree probes the newest transcript of its project dir", async () => {
    const proj = join(dir, ".claude", "projects", join(dir, "wt").replace(/[/.]/g, "-"));
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, "old.jsonl"), "{}");
    writeFileSync(join(proj, "new.jsonl"), "{}");
    const past = new Date(Date.now() - 60_000);
    require("node:fs").utimesSync(join(proj, "old.jsonl"), past, past);
    installed("codex");
    const r = await go({ runtime: "claude", model: "claude-sonnet-5" });
    expect(r).toMatchObject({ exit: 0, probe: "scoped-to-worktree" });
    const reg = gateCalls().find((c) => c[2] === "register")!;
    expect(reg[reg.indexOf("--model-probe-cmd") + 1]).toBe(`/opt/mogui model-identity-probe --transcript ${join(proj, "new.jsonl")} 2>/dev/null | grep -o -F -- claude-sonnet-5 | head -n 1`);
  });

  test("--transcript-glob with no match: a probe that fails (MODEL_PROBE_FAILED, never verified)", async () => {
    const r = await go({ transcriptGlob: join(dir, "none", "*.jsonl") });
    expect(r.probe).toBe("explicit-glob");
    const reg = gateCalls().find((c) => c[2] === "register")!;
    expect(reg[reg.indexOf("--model-probe-cmd") + 1]).toBe("exit 1");
  });
});
