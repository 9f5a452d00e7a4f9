/** Shared set-up for the gate's in-process tests: a MOGUI_HOME, contracts, policies and the ledger's rows. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain, type Captured } from "./ctx.ts";
import { realRunner, type RunResult, type Runner } from "../../src/lib/runner.ts";
import { tempDir } from "./paths.ts";

export const T0 = 1_800_000_000; // a fixed clock (seconds)

export interface GateHome {
  home: string;
  ledger: string;
  tickets: string;
  env: Record<string, string>;
  contract(text?: string, name?: string): string;
  policy(obj: unknown, name?: string): string;
  rows(): Record<string, unknown>[];
  run(argv: string[], nowSec?: number, extraEnv?: Record<string, string>, runner?: Runner): Promise<Captured>;
}

export function gateHome(): GateHome {
  const home = tempDir("gate-");
  const ledger = join(home, "dispatch-ledger.jsonl");
  const env: Record<string, string> = { MOGUI_HOME: home, HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" };
  return {
    home,
    ledger,
    tickets: join(home, "dispatch-tickets"),
    env,
    contract(text = "implement the parser\n", name = "c.md") {
      const p = join(home, name);
      writeFileSync(p, text);
      return p;
    },
    policy(obj, name = "policy.json") {
      const p = join(home, name);
      mkdirSync(home, { recursive: true });
      writeFileSync(p, typeof obj === "string" ? obj : JSON.stringify(obj));
      return p;
    },
    rows() {
      if (!existsSync(ledger)) return [];
      return readFileSync(ledger, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l));
    },
    run(argv, nowSec = T0, extraEnv = {}, runner) {
      return runMain(["dispatch-gate", ...argv], { env: { ...env, ...extraEnv }, cwd: home, now: () => nowSec * 1000, runner });
    },
  };
}

/** check argv with sane defaults; pass `{flag: undefined}` to drop one. */
export function checkArgv(contract: string, over: Record<string, string | undefined | true> = {}): string[] {
  const flags: Record<string, string | undefined | true> = {
    runtime: "codex",
    model: "gpt-5.6-luna",
    contract,
    agents: "1",
    "completion-channel": "orchestration",
    ...over,
  };
  const argv = ["check"];
  for (const [k, v] of Object.entries(flags)) {
    if (v === undefined) continue;
    argv.push(`--${k}`);
    if (v !== true) argv.push(v);
  }
  return argv;
}

export const V2 = { version: 2, tiers: { top: ["m-top"], efficient: ["m-eff", "gpt-5.6-luna"] }, fanout_caps: { top: 1, unknown: 1 }, window_seconds: 3600 };

/** A runner that fakes orca (any argv not starting with /bin/sh) and runs the shell probes for real. */
export function fakeOrca(reply: (argv: string[]) => Partial<RunResult>, calls: string[][] = []): Runner {
  return async (argv, opts) => {
    calls.push([...argv]);
    if (argv[0] === "/bin/sh") return realRunner(argv, opts);
    return { argv: [...argv], code: 0, signal: null, stdout: "", stderr: "", timedOut: false, missing: false, ...reply([...argv]) };
  };
}

export function envelope(dispatch: unknown): string {
  return JSON.stringify({ id: "req-1", ok: true, result: { dispatch }, _meta: { runtimeId: "rt" } });
}

export const RUNNING = () => ({ stdout: envelope({ id: "ctx_1", task_id: "task_1", status: "dispatched" }) });
