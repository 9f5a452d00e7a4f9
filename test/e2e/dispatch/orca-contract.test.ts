// mogui dispatch against the documented Orca contract (issue 15, D38), through the compiled binary and the Orca
// simulator: values Orca would read as flags, worktree ids as Orca prints them, the bound-Run precondition, late
// answers reconciled by asking Orca, and an aborted dispatch giving its fan-out slot back.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary } from "../../helpers/binary.ts";
import { DISPATCH_COORD as COORD, dispatchEnv } from "../../helpers/dispatch.ts";
import { FIXTURES_BIN, ROOT, tempDir } from "../../helpers/paths.ts";

const WORKER = "term_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const IDLE = "term_0d0d0d0d-0000-4000-8000-000000000001";
const REPO_ID = "3f2c9a10-5b7d-4e21-8c3a-9d0e1f2a3b4c";
const FRONT = "---\ntitle: x\n---\nbody\n";
/** Long enough for a normal simulator call on a loaded machine; a `late` answer sleeps far past it. */
const ORCA_TIMEOUT = "4000";

interface World {
  root: string;
  home: string;
  contract: string;
  env: (extra?: Record<string, string>) => Record<string, string>;
  run: (args: string[], extra?: Record<string, string>) => Promise<{ code: number; stdout: string; stderr: string; report: Record<string, any> }>;
  rows: () => Record<string, any>[];
  state: () => Record<string, any>;
}

function world(contractText = "- Goal: fix the login bug\n- Scope: `src/login.ts`\n"): World {
  const root = tempDir("dispatch-orca-");
  const home = join(root, "home");
  const s = JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "basic.json"), "utf8"));
  s.terminals.push({ handle: IDLE, worktreePath: "${ROOT}/wt-feature", title: "idle worker", agent: "grok", output: ["$ grok", "grok> "], alive: true });
  writeFileSync(join(root, "scenario.json"), JSON.stringify(s));
  const contract = join(root, "c.md");
  writeFileSync(contract, contractText);
  const env = (extra: Record<string, string> = {}) => dispatchEnv(root, home, extra);
  const ledger = join(home, "dispatch-ledger.jsonl");
  return {
    root,
    home,
    contract,
    env,
    async run(args, extra = {}) {
      const r = await runBinary(["dispatch", "--contract", contract, "--delivery-poll-ms", "20", "--orca-timeout-ms", ORCA_TIMEOUT, "--json", ...args], { env: env(extra), cwd: root });
      return { ...r, report: r.stdout ? JSON.parse(r.stdout) : undefined };
    },
    rows: () =>
      existsSync(ledger)
        ? readFileSync(ledger, "utf8")
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : [],
    state: () => JSON.parse(readFileSync(join(root, "orca-state.json"), "utf8")),
  };
}

const wtPath = (w: World) => join(w.root, "wt-feature");
const xLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("✗"));

describe("1. contracts as people write them", () => {
  test('front matter: --spec "$(cat c.md)" parses, reaches Orca as --spec=<value>, and the task holds it byte for byte', async () => {
    const w = world(FRONT);
    const check = await runBinary(["dispatch", "--contract", w.contract, "--spec", FRONT, "--check-only", "--runtime", "grok"], { env: w.env(), cwd: w.root });
    expect(check.code).toBe(0);
    expect(check.stdout).toStartWith("exit=0 step=check-only");
    const r = await w.run(["--spec", FRONT, "--worktree", `path:${wtPath(w)}`, "--runtime", "grok"]);
    expect(r.stderr).not.toContain("✗");
    expect(r.report).toMatchObject({ exit: 0, step: "done" });
    expect(w.state().tasks.find((t: { id: string }) => t.id === r.report.task_id).spec).toBe(FRONT);
    // The protection the strict parser exists for still holds.
    const usage = await runBinary(["dispatch", "--contract", w.contract, "--ledger", "--json"], { env: w.env(), cwd: w.root });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toStartWith("mogui: flag --ledger needs a value\n");
  });

  test("a multi-line Orca error stays ONE ✗ line on stderr; --json's error has the full text", async () => {
    const w = world();
    // An orca that answers task-create with a multi-line error envelope, and is the simulator otherwise.
    const fake = join(w.root, "orca-multiline");
    const envelope = JSON.stringify({ id: "local", ok: false, error: { code: "invalid_argument", message: "Unknown flag ---\ntitle: x\n---\nbody for command: orchestration task-create" }, _meta: { runtimeId: null } });
    writeFileSync(fake, `#!/bin/sh\ncase "$2" in task-create) printf '%s\\n' '${envelope}'; exit 1;; esac\nexec "${join(FIXTURES_BIN, "orca")}" "$@"\n`);
    chmodSync(fake, 0o755);
    const r = await w.run(["--spec", "x", "--worktree", `path:${wtPath(w)}`, "--runtime", "grok"], { ORCA_CLI_COMMAND: fake });
    expect(r.code).toBe(3);
    expect(xLines(r.stderr)).toEqual(["✗ task-create failed · orca orchestration task-create failed: invalid_argument: Unknown flag ---\\ntitle: x\\n---\\nbody for command: orchestration task-create"]);
    expect(r.report.error).toBe("orca orchestration task-create failed: invalid_argument: Unknown flag ---\ntitle: x\n---\nbody for command: orchestration task-create");
  });
});

describe("2. worktree ids as Orca prints them", () => {
  test("id:<repoId>::/abs (the README's form), a bare <repoId>::/abs and branch: all pre-trust codex and dispatch", async () => {
    const w = world();
    mkdirSync(join(w.root, "accounts", "a", "home"), { recursive: true });
    writeFileSync(join(w.root, "accounts", "a", "home", "config.toml"), "");
    const sels = [`id:${REPO_ID}::${wtPath(w)}`, `${REPO_ID}::${wtPath(w)}`, "branch:feature"];
    for (const sel of sels) {
      const r = await w.run(["--spec", "fix the report tool", "--runtime", "codex", "--worktree", sel]);
      expect({ sel, exit: r.report.exit, step: r.report.step }).toEqual({ sel, exit: 0, step: "done" });
      expect(r.stderr).toContain("pre-trust ✓ codex");
      const term = w.state().terminals.find((t: { handle: string }) => t.handle === r.report.terminal);
      expect(term.worktreePath).toBe(wtPath(w));
    }
    expect(readFileSync(join(w.root, "accounts", "a", "home", "config.toml"), "utf8")).toContain(`[projects."${wtPath(w)}"]`);
  });

  test("claude in an id: worktree probes that worktree's transcripts", async () => {
    const w = world();
    const r = await w.run(["--spec", "x", "--runtime", "claude", "--model", "claude-sonnet-5", "--same-host-reason", "test", "--worktree", `id:${REPO_ID}::${wtPath(w)}`]);
    expect(r.report).toMatchObject({ exit: 0, probe: "scoped-to-worktree" });
  });
});

describe("3. a bound Run is a precondition", () => {
  test("no Run bound: exit 2 before the gate records anything, one line naming run-create / run-use; --run-create binds one", async () => {
    const w = world();
    // The worker terminal has no Run bound (only the coordinator has one in the basic scenario).
    const r = await w.run(["--spec", "x", "--worktree", `path:${wtPath(w)}`, "--runtime", "grok"], { ORCA_TERMINAL_HANDLE: WORKER });
    expect(r.code).toBe(2);
    expect(r.report).toMatchObject({ step: "run", task_id: null });
    expect(xLines(r.stderr)).toEqual(["✗ no Orca Run is bound to this terminal · bind one first: orca orchestration run-create --objective '<text>' (or run-use --id <run_id>), or pass --run-create"]);
    expect(w.rows()).toEqual([]);
    const made = await w.run(["--spec", "x", "--worktree", `path:${wtPath(w)}`, "--runtime", "grok", "--run-create"], { ORCA_TERMINAL_HANDLE: WORKER });
    expect(made.report).toMatchObject({ exit: 0, run_created: true });
    const s = w.state();
    expect(s.boundRuns[WORKER]).toBe(made.report.run_id);
    expect(s.runs.find((x: { id: string }) => x.id === made.report.run_id).objective).toBe("mogui dispatch c.md");
    expect(s.tasks.find((t: { id: string }) => t.id === made.report.task_id).run_id).toBe(made.report.run_id);
  });

  test("outside an Orca terminal (ORCA_TERMINAL_HANDLE unset): exit 2 naming the missing sender terminal, no run-create hint", async () => {
    const w = world();
    for (const handle of ["", undefined]) {
      const extra: Record<string, string> = handle === undefined ? {} : { ORCA_TERMINAL_HANDLE: handle };
      const env = w.env(extra);
      if (handle === undefined) delete env.ORCA_TERMINAL_HANDLE;
      const r = await runBinary(["dispatch", "--contract", w.contract, "--delivery-poll-ms", "20", "--orca-timeout-ms", ORCA_TIMEOUT, "--json", "--spec", "x", "--worktree", `path:${wtPath(w)}`, "--runtime", "grok"], { env, cwd: w.root });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ step: "run", task_id: null });
      expect(xLines(r.stderr)).toEqual(["✗ no sender terminal: ORCA_TERMINAL_HANDLE is not set · run mogui dispatch from the master's Orca terminal (Orca names the dispatching terminal from it)"]);
      expect(r.stderr).not.toContain("run-create");
      expect(w.rows()).toEqual([]);
    }
  });

  test("the simulator's run_required, run-current and run-use have the documented shapes", async () => {
    const w = world();
    const sim = (args: string[], handle = WORKER) => runBinary(["sim", "orca", ...args, "--json"], { env: w.env({ ORCA_TERMINAL_HANDLE: handle }) });
    const refused = await sim(["orchestration", "task-create", "--spec=x"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: "run_required", data: { effectsApplied: false } });
    expect(JSON.parse((await sim(["orchestration", "run-current"])).stdout).result).toEqual({ run: null });
    const used = await sim(["orchestration", "run-use", "--id", "run_0a1b2c3d4e5f"]);
    expect(JSON.parse(used.stdout).result.run.id).toBe("run_0a1b2c3d4e5f");
    expect(JSON.parse((await sim(["orchestration", "run-current"])).stdout).result.run.id).toBe("run_0a1b2c3d4e5f");
    expect(JSON.parse((await sim(["orchestration", "run-use", "--id", "run_000000000000"])).stdout).error.code).toBe("run_not_found");
    // A value starting with `--` only as --flag=value: as two arguments Orca reads it as an unknown flag.
    const split = await sim(["orchestration", "task-create", "--spec", FRONT]);
    expect(split.code).toBe(1);
    expect(JSON.parse(split.stdout).error.message).toStartWith("Unknown flag ---\ntitle: x");
  });
});

describe("4. D38: reconcile after a timeout", () => {
  test("each step acts, then answers after the caller's timeout: mogui finds what Orca did and goes on", async () => {
    const cases = [
      { fault: "orchestration task-create=late", says: "task-create answered late; Orca lists task_" },
      { fault: "terminal create=late", says: "terminal create answered late; Orca lists term_" },
      { fault: "orchestration dispatch=late", says: "dispatch answered late; Orca shows ctx_" },
    ];
    await Promise.all(
      cases.map(async (c) => {
        const w = world();
        const r = await w.run(["--spec", "x", "--worktree", `path:${wtPath(w)}`, "--runtime", "grok"], { ORCA_SIM_FAULT: c.fault });
        expect({ fault: c.fault, exit: r.report.exit, step: r.report.step }).toEqual({ fault: c.fault, exit: 0, step: "done" });
        expect(r.stderr).toContain(`⚠ ${c.says}`);
        expect(r.report.reconciled).toHaveLength(1);
        const s = w.state();
        // Exactly one of each: nothing was created twice, and the running worker IS registered.
        expect(s.tasks.filter((t: { task_title: string | null }) => t.task_title?.startsWith("mogui c.md"))).toHaveLength(1);
        expect(s.terminals.filter((t: { title: string | null }) => t.title === `mogui ${r.report.task_id}`)).toHaveLength(1);
        expect(s.dispatches.filter((d: { task_id: string }) => d.task_id === r.report.task_id)).toHaveLength(1);
        expect(w.rows().find((x) => x.job_id === r.report.dispatch_id && x.decision === "ALLOW")).toMatchObject({ orchestration_task: r.report.task_id });
        expect(w.rows().some((x) => x.event === "dispatch_aborted")).toBe(false);
      }),
    );
  });

  test("a step that timed out without acting is named as such, and the dispatch is aborted", async () => {
    const cases = [
      { fault: "orchestration task-create=hang", step: "task-create", line: /^✗ task-create timed out · Orca's task-list shows no task titled 'mogui c\.md [0-9a-f]{8} [0-9a-z]+': nothing was created$/, left: [] as RegExp[] },
      { fault: "terminal create=hang", step: "terminal", line: /^✗ terminal create timed out · Orca's terminal list shows no terminal titled 'mogui task_[0-9a-f]{12}': none was created$/, left: [/^task task_[0-9a-f]{12} stays in Orca with no dispatch$/] },
      {
        fault: "orchestration dispatch=hang",
        step: "dispatch",
        line: /^✗ dispatch timed out · Orca's dispatch-show shows no dispatch for task_[0-9a-f]{12}: nothing was injected$/,
        left: [/^task task_[0-9a-f]{12} stays in Orca with no dispatch$/, /^terminal term_\S+ \(its agent got no task\); close it with: orca terminal close --terminal term_\S+$/],
      },
    ];
    await Promise.all(
      cases.map(async (c) => {
        const w = world();
        const r = await w.run(["--spec", "x", "--worktree", `path:${wtPath(w)}`, "--runtime", "grok"], { ORCA_SIM_FAULT: c.fault });
        expect({ fault: c.fault, exit: r.report.exit, step: r.report.step }).toEqual({ fault: c.fault, exit: 3, step: c.step });
        expect(xLines(r.stderr)).toHaveLength(1);
        expect(xLines(r.stderr)[0]).toMatch(c.line);
        expect(r.report.left_behind).toHaveLength(c.left.length);
        c.left.forEach((re, i) => expect(r.report.left_behind[i]).toMatch(re));
        expect(w.rows().find((x) => x.event === "dispatch_aborted")).toMatchObject({ step: c.step, attempt: 1, runtime: "grok" });
        expect(r.report.aborted_attempt).toBe(1);
      }),
    );
  });

  test("a late dispatch that Orca cannot confirm: the worker is named with worker-reap, the slot is kept", async () => {
    const w = world();
    const r = await w.run(["--spec", "x", "--terminal", IDLE, "--runtime", "grok"], { ORCA_SIM_FAULT: "orchestration dispatch=late,orchestration dispatch-show=exit:1" });
    expect(r.report).toMatchObject({ exit: 3, step: "dispatch", aborted_attempt: null });
    const task = r.report.task_id;
    expect(xLines(r.stderr)).toEqual([`✗ dispatch timed out · dispatch-show failed too (orca orchestration dispatch-show failed: exit 1: orca: injected failure): a worker may be running on ${IDLE} for ${task}, unregistered`]);
    expect(r.stderr).toContain(`  look: orca orchestration dispatch-show --task ${task} --json · once it settles, clean up: mogui worker-reap --task-id ${task}\n`);
    expect(w.state().dispatches.filter((d: { task_id: string }) => d.task_id === task)).toHaveLength(1); // it did act
    expect(w.rows().some((x) => x.event === "dispatch_aborted")).toBe(false);
  });
});

describe("5. an aborted dispatch gives its cap slot back", () => {
  test("cap 1: a failed Orca step does not block the tier; the report shows the aborted dispatch", async () => {
    const w = world();
    const policy = join(w.root, "policy.json");
    writeFileSync(policy, JSON.stringify({ version: 2, tiers: { top: [], efficient: ["grok-4.5"] }, fanout_caps: { efficient: 1 }, window_seconds: 86400 }));
    const args = ["--spec", "x", "--worktree", `path:${wtPath(w)}`, "--runtime", "grok", "--model", "grok-4.5", "--tier-policy", policy];
    const failed = await w.run(args, { ORCA_SIM_FAULT: "orchestration task-create=exit:1" });
    expect(failed.report).toMatchObject({ exit: 3, step: "task-create", aborted_attempt: 1 });
    expect(failed.stderr).toContain("dispatch_aborted recorded (attempt 1): the gate slot of this dispatch is free again");
    expect(existsSync(join(w.home, "dispatch-tickets", `grok-${failed.report.contract_sha.slice(0, 12)}.json`))).toBe(false);
    const ok = await w.run(args);
    expect(ok.report).toMatchObject({ exit: 0, step: "done" });
    // The slot is really taken now: the cap holds for the next dispatch.
    const third = await w.run(args);
    expect(third.report).toMatchObject({ exit: 2, step: "dry-gate" });
    expect(third.stderr).toContain("✗ gate DENY · TIER_FANOUT_CAP");
    const report = await runBinary(["dispatch-gate", "report"], { env: w.env(), cwd: w.root });
    expect(report.stdout).toContain("Aborted dispatches (cap slot given back):\n  task-create: 1\n");
    const json = JSON.parse((await runBinary(["dispatch-gate", "report", "--json"], { env: w.env(), cwd: w.root })).stdout);
    expect(json.pipeline_aborted).toEqual({ "task-create": 1 });
  });
});

describe("issue 13 §5: the host-runtime fallback warning is one line", () => {
  test("without a configured master host runtime", async () => {
    const w = world();
    const env = w.env({ MOGUI_INSTANCE_RUNTIME_CONFIG: join(w.root, "none.json") });
    delete env.MOGUI_MASTER_HOST_RUNTIME;
    const r = await runBinary(["dispatch", "--contract", w.contract, "--check-only", "--runtime", "grok"], { env, cwd: w.root });
    expect(r.code).toBe(0);
    const warn = r.stderr.split("\n").filter((l) => l.includes("fallback"));
    expect(warn).toHaveLength(1);
    expect(warn[0]).toStartWith("WARNING: master host runtime is the hardcoded fallback 'codex'");
    expect(r.stderr.split("\n").filter((l) => l.startsWith("  "))).toEqual([]);
  });
});

describe("6. docs that match real Orca", () => {
  test("orca-wait --types takes Orca's message types only: dispatch_completed is exit 2 naming the valid ones", async () => {
    const w = world();
    const bad = await runBinary(["orca-wait", "--once", "--types", "worker_done,dispatch_completed"], { env: w.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("mogui: --types: 'dispatch_completed' is not an Orca message type (valid: status, dispatch, worker_done, merge_ready, escalation, handoff, decision_gate, question, heartbeat)\nRun 'mogui orca-wait --help' for usage.\n");
    const good = await runBinary(["orca-wait", "--once", "--timeout-ms", "100", "--types", "worker_done,escalation"], { env: w.env() });
    expect(good).toMatchObject({ code: 0, stdout: "" });
  });

  test("orca-wait prints Orca's error code and message from the envelope, not the first line of its JSON", async () => {
    const w = world();
    const r = await runBinary(["orca-wait", "--once", "--timeout-ms", "100"], { env: w.env({ ORCA_SIM_FAULT: "orchestration check=error_envelope" }) });
    expect(r).toEqual({ code: 1, stdout: "", stderr: "orca-wait: orca orchestration check failed (exit 1): runtime_error: injected failure\n" });
  });

  test("check-duplicates says what it relies on; sessionId/processId absent from terminal list rows are named unmeasured", async () => {
    const w = world();
    const r = await runBinary(["master-succeed", "check-duplicates", "--self-handle", COORD, "--marker", "idle worker", "--json"], { env: w.env() });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.duplicates.map((d: { handle: string }) => d.handle)).toEqual([IDLE]);
    expect(j).toMatchObject({ session_id: "unmeasured", process_id: "unmeasured" });
    expect(j.relies_on).toContain("title");
    expect(j.relies_on).not.toContain("session_id");
    expect(r.stderr).toBe(`check-duplicates: session_id, process_id unmeasured (orca terminal list rows carry no sessionId/processId/pid); matched on ${j.relies_on.join(", ")}\n`);
  });
});
