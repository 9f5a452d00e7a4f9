/**
 * One contract for every ledger appender (issue 13 §5, DECISIONS D18), through the compiled binary. Before it acts,
 * every command that appends checks the whole ledger: a corrupt line that is not the last is exit 2
 * `LEDGER_UNAVAILABLE` naming the file and the line, with the ledger byte-identical and nothing else done (no
 * terminal closed, no worktree removed, no pane or task created); a torn last line is set aside to `<ledger>.torn`
 * WITH a warning and the row is appended.
 *
 * The table is checked against the source: every command whose module graph reaches an `appendRow(`/`appendRows(`
 * call must have a case here or a written reason why it is not an appender of a shared ledger, so a new appender
 * without a case fails this test.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { COMMANDS } from "../../commands/index.ts";
import { e2eEnv, runBinary, type BinResult } from "../helpers/binary.ts";
import { addWorktree, makeRepo, squashMerge } from "../helpers/git.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";
import { spawnOk, spawnArgs, world, type World } from "./cases/workers.ts";
import { ACCEPTANCE_BIN, acceptanceEnv, makeAcceptanceFixture } from "../../fixtures/acceptance/make.ts";

interface Prepared {
  argv: string[];
  env: Record<string, string>;
  cwd?: string;
  ledger: string;
  /** Nothing but the ledger check happened (called after the corrupt-ledger run). */
  untouched?: () => void;
}

interface LedgerCase {
  prepare(): Promise<Prepared>;
  /** Also run the torn-tail half (the command must then succeed with this exit code and append). */
  tornExit?: number;
}

const CORRUPT = "{this is not json\n";
const TORN = '{"event":"torn-by-a-dead-wri';

// ------------------------------------------------------------------------------------------------ worlds

const TASK = "task_1a2b3c4d5e6f";
const reapWorld = async (): Promise<Prepared> => {
  const root = tempDir("ledger-reap-");
  const f = makeRepo(root);
  const wt = addWorktree(f, "feature");
  squashMerge(f, "feature");
  const callLog = join(root, "orca-calls.jsonl");
  const env = e2eEnv({ ORCA_SIM_STATE: join(root, "orca.json"), ORCA_SIM_SCENARIO: "settled", ORCA_SIM_ROOT: root, ORCA_SIM_CALL_LOG: callLog, MOGUI_HOME: join(root, "home") });
  const ledger = join(root, "home", "dispatch-ledger.jsonl");
  return {
    argv: ["worker-reap", "--task-id", TASK, "--json"],
    env,
    ledger,
    untouched() {
      expect(existsSync(wt)).toBe(true);
      const calls = existsSync(callLog) ? readFileSync(callLog, "utf8") : "";
      expect(calls).not.toContain('"close"');
    },
  };
};

const gateWorld = () => {
  const home = tempDir("ledger-gate-");
  const contract = join(home, "c.md");
  writeFileSync(contract, "Implement the feature on branch feature.\n");
  const env = e2eEnv({ MOGUI_HOME: home, ORCA_SIM_STATE: join(home, "orca.json"), ORCA_SIM_SCENARIO: "basic" });
  const ledger = join(home, "dispatch-ledger.jsonl");
  const check = ["dispatch-gate", "--ledger", ledger, "check", "--runtime", "claude", "--model", "claude-sonnet-5", "--contract", contract, "--agents", "1", "--completion-channel", "orchestration"];
  return { home, env, ledger, check };
};

async function workersWorld(): Promise<{ w: World; job: string; ledger: string; panes: () => Promise<string> }> {
  const w = await world("herdr");
  const s = await spawnOk(w, { name: "led1-fix" });
  const panes = async () => (await w.herdr("pane", "list")).stdout;
  return { w, job: s.job_id as string, ledger: join(w.home, "jobs-ledger.jsonl"), panes };
}

function workerCase(args: (job: string, w: World) => string[], tornExit?: number): LedgerCase {
  return {
    tornExit,
    async prepare() {
      const { w, job, ledger, panes } = await workersWorld();
      const before = await panes();
      return {
        argv: args(job, w),
        env: w.env,
        cwd: w.dir,
        ledger,
        async untouched() {
          expect(await panes()).toBe(before);
        },
      } as Prepared;
    },
  };
}

const tracksCase = (argv: (ledger: string) => string[]): LedgerCase => ({
  tornExit: 0,
  async prepare() {
    const home = tempDir("ledger-tracks-");
    const ledger = join(home, "work-ledger.jsonl");
    writeFileSync(ledger, `${JSON.stringify({ event: "register", track_id: "T-1", title: "one", refs: [], ts: 1 })}\n`);
    return { argv: argv(ledger), env: e2eEnv({ MOGUI_HOME: home }), ledger };
  },
});

async function acceptanceCase(): Promise<Prepared> {
  const f = makeAcceptanceFixture();
  const env = e2eEnv(acceptanceEnv(f));
  env.PATH = `${ACCEPTANCE_BIN}:${e2eEnv().PATH}`;
  return { argv: ["acceptance-loop", "run", "--config", f.config], env, ledger: f.regressionLog, untouched: () => expect(existsSync(join(f.runDir, "report.json"))).toBe(false) };
}

async function dispatchCase(): Promise<Prepared> {
  const root = tempDir("ledger-dispatch-");
  const home = join(root, "home");
  const contract = join(root, "contract.md");
  writeFileSync(contract, "- Goal: fix the login bug\n- Scope: `src/login.ts`\n- Acceptance: tests pass\n");
  const state = join(root, "orca-state.json");
  const env = e2eEnv({ HOME: root, MOGUI_HOME: home, ORCA_SIM_STATE: state, ORCA_SIM_SCENARIO: "basic", ORCA_SIM_ROOT: root, ORCA_TERMINAL_HANDLE: "term_11111111-2222-4333-8444-555555555555", MOGUI_MASTER_HOST_RUNTIME: "claude" });
  return {
    argv: ["dispatch", "--contract", contract, "--spec", "Fix it", "--worktree", `path:${join(root, "wt-feature")}`, "--runtime", "grok", "--delivery-poll-ms", "20", "--json"],
    env,
    cwd: root,
    ledger: join(home, "dispatch-ledger.jsonl"),
    untouched() {
      // The simulator writes its state on the first call: no state file = Orca was never asked to do anything.
      if (!existsSync(state)) return;
      const tasks = JSON.parse(readFileSync(state, "utf8")).tasks as unknown[];
      expect(tasks.length).toBe(JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "basic.json"), "utf8")).tasks.length);
    },
  };
}

/** A safe orphaned worktree (squash-merged) with a `sleep` working in it: `fleet reap --execute` would act. */
async function fleetReapCase(): Promise<Prepared> {
  const root = tempDir("ledger-fleet-");
  const f = makeRepo(root);
  const wt = addWorktree(f, "feature");
  squashMerge(f, "feature");
  const home = join(root, "home");
  const ledger = join(home, "dispatch-ledger.jsonl");
  const sleeper = Bun.spawn(["sleep", "60"], { cwd: wt, stdout: "ignore", stderr: "ignore" });
  await Bun.sleep(100);
  return {
    argv: ["fleet", "reap", "--repo", f.repo, "--execute", "--host", "none", "--grace-ms", "100", "--ledger", ledger, "--jobs-ledger", join(home, "jobs-ledger.jsonl")],
    env: e2eEnv({ MOGUI_HOME: home, HOME: root }),
    ledger,
    untouched() {
      expect(existsSync(wt)).toBe(true);
      // Not signalled: still running (exitCode stays null until it exits).
      expect(sleeper.exitCode).toBeNull();
      sleeper.kill("SIGKILL");
    },
  };
}

/** A transcript with usage: `spend record`/`spend watch` would append rows. */
function spendCase(argv: (ledger: string) => string[], tornExit: number): LedgerCase {
  return {
    tornExit,
    async prepare() {
      const home = tempDir("ledger-spend-");
      const ledger = join(home, "spend-ledger.jsonl");
      return {
        argv: argv(ledger),
        env: e2eEnv({ MOGUI_HOME: home, HOME: home }),
        ledger,
        // Nothing read: no offset saved for the transcript.
        untouched: () => expect(existsSync(`${ledger}.state.json`) ? readFileSync(`${ledger}.state.json`, "utf8") : "").not.toContain("spend-claude.jsonl"),
      };
    },
  };
}
const SPEND_TRANSCRIPT = join(ROOT, "fixtures", "transcripts", "spend-claude.jsonl");

// ------------------------------------------------------------------------------------------------ the table

/** Every appender of a shared ledger, with a run that would append. */
const CASES: Record<string, LedgerCase> = {
  "worker-reap": { prepare: reapWorld, tornExit: 0 },
  "dispatch-gate check": {
    tornExit: 0,
    async prepare() {
      const g = gateWorld();
      return { argv: g.check, env: g.env, ledger: g.ledger };
    },
  },
  "dispatch-gate register": {
    async prepare() {
      const g = gateWorld();
      const r = await runBinary(g.check, { env: g.env });
      const sha = JSON.parse(r.stdout).contract_sha as string;
      return {
        argv: [
          "dispatch-gate",
          "--ledger",
          g.ledger,
          "register",
          "--job-id",
          "ctx_9f8e7d6c5b4a",
          "--contract-sha",
          sha,
          "--runtime",
          "claude",
          "--orchestration-task",
          TASK,
          "--declared-model",
          "claude-sonnet-5",
          "--probe-cmd",
          "echo ctx_9f8e7d6c5b4a",
          "--model-probe-cmd",
          "echo claude-sonnet-5",
        ],
        env: g.env,
        ledger: g.ledger,
      };
    },
  },
  dispatch: { prepare: dispatchCase },
  "tracks register": tracksCase((l) => ["tracks", "register", "T-2", "--title", "two", "--ledger", l]),
  "tracks update": tracksCase((l) => ["tracks", "update", "T-1", "--status", "ACTIVE", "--ledger", l]),
  "tracks close": tracksCase((l) => ["tracks", "close", "T-1", "--resolution", "done", "--ledger", l]),
  "acceptance-loop run": { prepare: acceptanceCase },
  "worker reps add": workerCase(() => ["worker", "reps", "add", "--profile", "p", "--model", "grok-4", "--task", "t1", "--tier", "T1", "--role", "impl", "--rounds", "0", "--blockers-found", "0", "--completed", "1"], 0),
  "worker decide": workerCase((job) => ["worker", "decide", "--job", job, "--state", "closed", "--note", "abandoned"], 0),
  "worker verdict": workerCase((job, w) => {
    const findings = join(w.dir, "findings.md");
    writeFileSync(findings, "- [NICE] a name could be clearer\n");
    return ["worker", "verdict", "--job", job, "--findings", findings, "--verifier-model", "gpt-5.5", "--verifier-session", "led1-verify"];
  }, 0),
  "worker verify-push": workerCase((job) => ["worker", "verify-push", "--job", job, "--sha", "0123456789abcdef"]),
  "worker status": workerCase(() => ["worker", "status", "--owner", "orch-a"]),
  "worker collect": workerCase(() => ["worker", "collect", "--owner", "orch-a", "--execute"]),
  "worker sweep": workerCase(() => ["worker", "sweep", "--workspace", "w1", "--execute"]),
  "worker spawn": workerCase((_, w) => spawnArgs(w, { name: "led2-fix" })),
  "fleet reap": { prepare: fleetReapCase, tornExit: 0 },
  "spend record": spendCase((l) => ["spend", "record", "--job", "j1", "--transcript", SPEND_TRANSCRIPT, "--spend-ledger", l], 0),
  "spend watch": spendCase((l) => ["spend", "watch", "--job", "j1", "--transcript", SPEND_TRANSCRIPT, "--max-tokens", "6000", "--spend-ledger", l], 3),
};

/** Commands whose module graph reaches an append but that are not appenders of a shared ledger, and why. */
const NOT_APPENDERS: Record<string, string> = {
  "dispatch-gate": "the group dispatcher: its subcommands have their own cases",
  tracks: "the group dispatcher: its subcommands have their own cases",
  hook: "the group dispatcher: its subcommands are listed below",
  worker: "the group dispatcher: its subcommands have their own cases",
  "worker reps": "the group dispatcher: its subcommands have their own cases",
  "acceptance-loop": "the group dispatcher: its subcommands have their own cases",
  fleet: "the group dispatcher: its subcommands have their own cases",
  spend: "the group dispatcher: its subcommands have their own cases",
  "fleet scan": "reads the jobs and dispatch ledgers only (reaches the append through the shared reap modules)",
  top: "its one action (d, confirmed) is fleet reap's: the whole-ledger check and the fleet_reap row are fleet reap's (its case above)",
  "spend report": "reads the spend ledger only (reaches the append through the shared spend modules)",
  "dispatch-collision-check": "reads the dispatch ledger only",
  demo: "appends only to the temp ledger it creates (and removes) itself",
  "master-bootstrap-live": "reads the work ledger only (fail-open SessionStart hook)",
  "master-recover": "reads the work ledger only",
  "tracks list": "reads the work ledger only",
  "acceptance-loop split": "reads the regression log only",
  "hook-coverage-report": "reads the hook fire log only",
  "measure-product-path-guard": "reads the guard's event log only",
  "spawn-test": "reads the hook fire log only",
  "worker classify": "reads the policy only",
  "worker brief-lint": "reads the brief only",
  "worker reps report": "reads the jobs ledger only",
  // Hooks log every call fail-open (reference §28.5): a log that cannot be written never changes a hook's decision,
  // and a hook's exit 2 would BLOCK the host's tool call. They append without reading the log back.
  "hook product-path-guard": "fail-open hook fire / event log (never changes the hook's decision)",
  "hook role-state-inject": "fail-open hook fire log",
  "hook tracker-check": "fail-open hook fire log",
  "hook orch-inbox-warn": "fail-open hook fire log",
  "hook bash-poll-warn": "fail-open hook fire log",
  "hook bash-output-trim-warn": "fail-open hook fire log",
  "hook compaction-probe": "fail-open hook fire log",
  mcp: "its own call log ($MOGUI_HOME/mcp-ledger.jsonl, one row per tool call, checked writable at start): a row that cannot be written is a stderr diagnostic, never a protocol error; the tools' own ledgers follow their commands' contracts",
  "hook secret-alert": "a PostToolUse hook: its alert row (secret-alerts.jsonl, never the secret) is best effort; the hook's answer never waits on it",
  "hook spend-brake": "a worker's PreToolUse hook (D44): its warn/deny rows are best effort, since exit 2 would deny the tool call; the decision never waits on the spend ledger",
};

// ------------------------------------------------------------------------------------------------ enumeration

/** Modules every command can reach through the lazy loader map: following them would make everything reach everything. */
const HUB = /commands\/index\.ts$|commands\/[^/]+\/index\.ts$|commands\/dispatch\/gate-rows\.ts$|src\/main\.ts$|src\/lib\/exit-codes\.ts$|src\/lib\/help\.ts$|src\/lib\/ledger\.ts$/;

function reachesAppend(file: string, seen: Set<string>): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  if (/\bappend(?:Rows?|If|IfSync)(?:<[^>]*>)?\(/.test(text)) return true;
  for (const m of text.matchAll(/(?:from\s+|import\()\s*"(\.{1,2}\/[^"]+\.ts)"/g)) {
    const p = resolve(dirname(file), m[1]!);
    if (!HUB.test(p) && existsSync(p) && reachesAppend(p, seen)) return true;
  }
  return false;
}

function appenders(): string[] {
  return Object.entries(COMMANDS)
    .filter(([, e]) => {
      const rel = /import\("(.+?)"\)/.exec(e.load.toString())?.[1];
      if (!rel) throw new Error(`cannot read the loader of ${e.summary}`);
      // The loader is relative to its family's file (commands/<family>/index.ts): the one folder where it exists.
      const file = readdirSync(join(ROOT, "commands"))
        .map((family) => resolve(ROOT, "commands", family, rel))
        .find((f) => existsSync(f));
      if (!file) throw new Error(`no family folder holds ${rel}`);
      return reachesAppend(file, new Set());
    })
    .map(([name]) => name)
    .sort();
}

test("every command that can append to a ledger has a contract case here (or a written reason it is no appender)", () => {
  const found = appenders();
  const missing = found.filter((c) => !(c in CASES) && !(c in NOT_APPENDERS));
  expect(missing, "add a case to CASES in test/e2e/ledger-contract.test.ts").toEqual([]);
  // And the table names no command that no longer exists or no longer appends.
  expect(Object.keys(CASES).filter((c) => !found.includes(c))).toEqual([]);
  expect(found.length).toBeGreaterThan(15);
});

// ------------------------------------------------------------------------------------------------ the contract

function seed(p: Prepared, tail: string): string {
  const before = existsSync(p.ledger) ? readFileSync(p.ledger, "utf8") : "";
  const rows = before.split("\n").filter(Boolean);
  // Corrupt line in the middle: after the existing rows, before one more good row.
  const text = tail === CORRUPT ? `${rows.map((r) => `${r}\n`).join("")}${CORRUPT}{"foreign":"row"}\n` : `${rows.map((r) => `${r}\n`).join("")}${tail}`;
  Bun.spawnSync(["mkdir", "-p", dirname(p.ledger)]);
  writeFileSync(p.ledger, text);
  return text;
}

const lineOf = (text: string) => text.split("\n").indexOf(CORRUPT.trimEnd()) + 1;
const runIt = (p: Prepared): Promise<BinResult> => runBinary(p.argv, { env: p.env, cwd: p.cwd });

describe("a corrupt line before the last: exit 2 LEDGER_UNAVAILABLE naming file:line, nothing done", () => {
  for (const [name, c] of Object.entries(CASES)) {
    test(name, async () => {
      const p = await c.prepare();
      const text = seed(p, CORRUPT);
      const r = await runIt(p);
      expect(r.stderr).toContain("LEDGER_UNAVAILABLE");
      expect(r.stderr).toContain(`${p.ledger}:${lineOf(text)}`);
      expect(r.code).toBe(2);
      expect(readFileSync(p.ledger, "utf8")).toBe(text);
      await p.untouched?.();
    });
  }
});

describe("a torn last line: set aside to <ledger>.torn with a warning, and the row appended", () => {
  for (const [name, c] of Object.entries(CASES)) {
    if (c.tornExit === undefined) continue;
    test(name, async () => {
      const p = await c.prepare();
      const text = seed(p, TORN);
      const r = await runIt(p);
      expect(r.stderr).toContain("torn last line");
      expect(r.stderr).toContain(`${p.ledger}.torn`);
      expect(r.code).toBe(c.tornExit!);
      const after = readFileSync(p.ledger, "utf8");
      expect(after.startsWith(text.slice(0, text.length - TORN.length))).toBe(true);
      expect(after).not.toContain(TORN);
      expect(after.endsWith("\n")).toBe(true);
      expect(after.length).toBeGreaterThan(text.length - TORN.length);
      expect(readFileSync(`${p.ledger}.torn`, "utf8")).toBe(`${TORN}\n`);
    });
  }
});

describe("warnings are bounded: at most 10 of a kind, then one summary line", () => {
  test("tracks list on a ledger of 30,000 foreign rows prints 11 warning lines, not 30,000", async () => {
    const home = tempDir("ledger-bounded-");
    const ledger = join(home, "work-ledger.jsonl");
    let text = `${JSON.stringify({ event: "register", track_id: "T-1", title: "one", refs: [], ts: 1 })}\n`;
    for (let i = 0; i < 30_000; i++) text += `${JSON.stringify({ foreign: i, payload: "x".repeat(40) })}\n`;
    writeFileSync(ledger, text);
    const r = await runBinary(["tracks", "list", "--ledger", ledger], { env: e2eEnv({ MOGUI_HOME: home }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("T-1\tREGISTERED\tone\n");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(`tracks: warning: ${ledger}: line 2: missing track_id or ts`);
    expect(lines[10]).toBe(`tracks: warning: ${ledger}: ... 29990 more (first at line 12): missing track_id or ts`);
  });
});
