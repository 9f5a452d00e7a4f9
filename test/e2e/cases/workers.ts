/** End-to-end cases for the workers family: one row per command (keyed by the family's command names). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv, runBinary, type BinResult } from "../../helpers/binary.ts";
import { GIT_ENV, makeRepo, type Fixture } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const POLICY = join(ROOT, "config", "worker-surface-policy.example.json");
const TEMPLATE = join(ROOT, "fixtures", "worker", "brief-template.md");
const FINDINGS = join(ROOT, "fixtures", "worker", "findings-example.md");
const env =
  (extra: Record<string, string> = {}) =>
  () => {
    const dir = tempDir("mogui-workers-case-");
    return e2eEnv({ MOGUI_HOME: dir, MOGUI_WORKER_POLICY: POLICY, HERDR_SIM_STATE: join(dir, "herdr.json"), ...extra });
  };

export const cases: FamilyCases = {
  "worker classify": { argv: ["worker", "classify", "--path", "tools/a.py", "--json"], code: 0, stdout: /"spawn_mode":"worker\+self-check".*"tier":"T1"/, env: env() },
  "worker brief-lint": { argv: ["worker", "brief-lint", TEMPLATE], code: 0, stdout: /: clean \(T T1, 2 directives, 2 criteria\)\n$/ },
  "worker spawn": {
    argv: ["worker", "spawn", "--issue", "rob1", "--stage", "impl", "--name", "rob1-fix", "--model", "claude-opus-5", "--owner", "orch-a", "--brief", TEMPLATE, "--path", "deploy/prod.yaml", "--workspace", "w1", "--repo", ROOT, "--json"],
    code: 4,
    stdout: /"refused":"downgrade refused: the brief declares T1, the surface floor is T3"/,
    env: env(),
  },
  "worker verify-push": { argv: ["worker", "verify-push", "--repo", ROOT, "--remote", ROOT, "--branch", "no-such-branch-for-e2e", "--sha", "0123456789"], code: 3, stdout: /^MISMATCH\t.*has no branch no-such-branch-for-e2e/, env: env() },
  "worker verdict": { argv: ["worker", "verdict", "--job", "nope-impl-20260801-0930", "--findings", FINDINGS, "--verifier-model", "gpt-5.4", "--verifier-session", "v"], code: 2, stdout: /^$/, env: env() },
  "worker decide": { argv: ["worker", "decide", "--job", "nope-impl-20260801-0930", "--state", "closed"], code: 2, stdout: /^$/, env: env() },
  "worker collect": { argv: ["worker", "collect", "--owner", "orch-a"], code: 0, stdout: /^No uncollected jobs for owner orch-a in .*jobs-ledger\.jsonl\.\n$/, env: env() },
  "worker sweep": {
    argv: ["worker", "sweep", "--workspace", "w1"],
    code: 0,
    stdout: /^w1:p1\tdead_tab\tclose \(dry run\)[\s\S]*\nw1:p2\tunknown_agent\tlist[\s\S]*\nw1:p3\tdead_tab\tclose \(dry run\)[\s\S]*\nw1:p4\tread\tlist/,
    env: env({ HERDR_SIM_SCENARIO: join(ROOT, "fixtures", "herdr", "dead-tabs.json") }),
  },
  "worker reps add": {
    argv: ["worker", "reps", "add", "--profile", "grok-med", "--model", "grok-4", "--effort", "medium", "--task", "rob1", "--tier", "T1", "--role", "impl", "--rounds", "0", "--blockers-found", "0", "--completed", "1"],
    code: 0,
    stdout: /^recorded grok-4@medium rob1 T1 impl completed=1 rounds=0 \(tokens unknown\)\n$/,
    env: env(),
  },
  "worker reps report": { argv: ["worker", "reps", "report"], code: 0, stdout: /^No recorded runs in /, env: env() },
  "worker status": { argv: ["worker", "status", "--owner", "orch-a"], code: 0, stdout: /^No jobs for owner orch-a in /, env: env() },
  worker: { argv: ["worker", "--help"], code: 0, stdout: /\n {2}classify: +Scale T0-T3[\s\S]*\n {2}reps: +Measured runs/ },
  "worker reps": { argv: ["worker", "reps", "--help"], code: 0, stdout: /\n {2}add: +Record a measured run[\s\S]*\n {2}report: +Aggregate/ },
  "sim herdr": { argv: ["sim", "herdr", "--version"], code: 0, stdout: /^herdr 0\.8\.2\n$/ },
};

// ---- shared setup for test/e2e/workers/*.test.ts: a temp repo with a bare origin, both fakes, a fast clock.
export interface World {
  dir: string;
  f: Fixture;
  home: string;
  env: Record<string, string>;
  run(args: string[], extra?: Record<string, string>): Promise<BinResult>;
  herdr(...args: string[]): Promise<BinResult>;
  orca(...args: string[]): Promise<BinResult>;
  brief(tier: string): string;
  ledger(): Record<string, unknown>[];
}

export async function world(host: "herdr" | "orca", extra: Record<string, string> = {}): Promise<World> {
  const dir = tempDir("mogui-workers-");
  const f = makeRepo(dir);
  const home = join(dir, "home");
  // Short landing windows keep the never-lands cases fast; the 30 s / 60 s defaults are unit-tested.
  const policy = JSON.parse(readFileSync(POLICY, "utf8"));
  policy.landing_window_seconds = { default: 2, codex: 4 };
  writeFileSync(join(dir, "policy.json"), JSON.stringify(policy));
  const env = e2eEnv({
    ...GIT_ENV,
    MOGUI_HOME: home,
    HERDR_SIM_STATE: join(dir, "herdr.json"),
    ORCA_SIM_STATE: join(dir, "orca.json"),
    ORCA_SIM_SCENARIO: "empty",
    MOGUI_WORKER_TIME_SCALE: "0.01",
    MOGUI_WORKER_POLICY: join(dir, "policy.json"),
    MOGUI_WORKER_HOST: host,
    ...extra,
  });
  for (const k of ["HERDR_SIM_FAULT", "HERDR_SIM_SCENARIO", "HERDR_CLI_COMMAND", "HERDR_SIM_CALL_LOG"]) if (!(k in extra)) delete env[k];
  const run = (args: string[], more: Record<string, string> = {}) => runBinary(args, { env: { ...env, ...more }, cwd: dir });
  const w: World = {
    dir,
    f,
    home,
    env,
    run,
    herdr: (...a) => run(["sim", "herdr", ...a]),
    orca: (...a) => run(["sim", "orca", ...a]),
    brief(tier) {
      const p = join(dir, `brief-${tier}.md`);
      writeFileSync(p, readFileSync(TEMPLATE, "utf8").replace("- T: T1", `- T: ${tier}`));
      return p;
    },
    ledger() {
      try {
        return readFileSync(join(home, "jobs-ledger.jsonl"), "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      } catch {
        return [];
      }
    },
  };
  if (host === "herdr") {
    const r = await w.herdr("workspace", "create", "--label", "workers", "--cwd", dir);
    if (r.code !== 0) throw new Error(`herdr workspace create: ${r.stderr}`);
  }
  return w;
}

export function spawnArgs(w: World, o: { name: string; issue?: string; model?: string; tier?: string; path?: string; extra?: string[] }): string[] {
  return [
    "worker",
    "spawn",
    "--issue",
    o.issue ?? o.name.replace(/[^a-z0-9]/g, ""),
    "--stage",
    "impl",
    "--name",
    o.name,
    "--model",
    o.model ?? "claude-opus-5",
    "--owner",
    "orch-a",
    "--brief",
    w.brief(o.tier ?? "T1"),
    "--path",
    o.path ?? "tools/a.py",
    "--workspace",
    "w1",
    "--repo",
    w.f.repo,
    "--json",
    ...(o.extra ?? []),
  ];
}

export async function spawnOk(w: World, o: Parameters<typeof spawnArgs>[1]): Promise<Record<string, any>> {
  const r = await w.run(spawnArgs(w, o));
  if (r.code !== 0) throw new Error(`spawn exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
