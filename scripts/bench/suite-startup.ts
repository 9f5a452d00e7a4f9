// Start-up cost of the binary: `mogui --version` and a `worker-reap --dry-run` against the Orca simulator, each as a
// ratio against the baseline `python3 -c "import json, argparse, subprocess"` (the system /usr/bin/python3) measured
// in the same run. Targets (issue: foundation): ratio <= 0.5, peak RSS < 64 MB.
import { chmodSync, copyFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addWorktree, makeRepo, squashMerge } from "../../test/helpers/git.ts";
import { fmt, measure, ratio, type Cmd, printTable } from "./measure.ts";

const PYTHON = "/usr/bin/python3";

export default async function startupSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string }): Promise<number> {
  if (!existsSync(PYTHON)) {
    console.error(`bench: the baseline needs the system interpreter ${PYTHON}`);
    return 2;
  }
  const root = join(import.meta.dir, "..", "..");
  const state = join(tmp, "orca-state.json");
  const scenario = join(root, "fixtures", "scenarios", "settled.json");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: tmp,
    MOGUI_HOME: join(tmp, "home"),
    MOGUI_BIN: bin,
    ORCA_CLI_COMMAND: join(root, "fixtures", "bin", "orca"),
    ORCA_SIM_STATE: state,
    ORCA_SIM_SCENARIO: scenario,
    ORCA_SIM_ROOT: tmp,
    NO_COLOR: "1",
  };
  const baseline: Cmd = { argv: [PYTHON, "-c", "import json, argparse, subprocess"] };
  const version: Cmd = { argv: [bin, "--version"] };
  const taskId = (await Bun.file(scenario).json()).tasks?.[0]?.id as string;
  const reap: Cmd = { argv: [bin, "worker-reap", "--task-id", taskId, "--dry-run", "--json"], env };
  makeMergedWorktree(tmp);
  const snapshot = join(tmp, "state.seed.json");
  // Seed the simulator once, then restore the same state before every run.
  Bun.spawnSync(["sh", "-c", 'exec "$ORCA_CLI_COMMAND" status --json >/dev/null'], { env });
  if (existsSync(state)) copyFileSync(state, snapshot);
  const restore = () => existsSync(snapshot) && copyFileSync(snapshot, state);

  // The same dry run against an orca that only prints canned replies: what mogui itself (plus git) costs,
  // without the simulator's own process start.
  const canned = cannedOrca(bin, tmp, state);
  const reapCanned: Cmd = { ...reap, env: { ...env, ORCA_CLI_COMMAND: canned } };

  const b = measure(baseline, runs);
  const v = measure(version, runs);
  const r = measure(reap, runs, restore);
  const c = measure(reapCanned, runs, restore);
  const rows: [string, string, string, string, string][] = [
    ["command", "median", "p95", "ratio vs python3", "peak RSS"],
    ["python3 -c 'import json, argparse, subprocess' (baseline)", fmt(b.medianMs), fmt(b.p95Ms), "1.00", kb(b.peakRssKb)],
    ["mogui --version", fmt(v.medianMs), fmt(v.p95Ms), ratio(v.medianMs, b.medianMs), kb(v.peakRssKb)],
    ["mogui worker-reap --dry-run (simulator)", fmt(r.medianMs), fmt(r.p95Ms), ratio(r.medianMs, b.medianMs), kb(r.peakRssKb)],
    ["mogui worker-reap --dry-run (canned-reply orca)", fmt(c.medianMs), fmt(c.p95Ms), ratio(c.medianMs, b.medianMs), kb(c.peakRssKb)],
  ];
  printTable(rows);
  console.log(`\nruns: ${runs} each; targets: ratio <= 0.50, peak RSS < 64 MB (mogui process only)`);
  const okV = v.medianMs / b.medianMs <= 0.5;
  const okR = r.medianMs / b.medianMs <= 0.5;
  const okC = c.medianMs / b.medianMs <= 0.5;
  const okM = [v.peakRssKb, r.peakRssKb].every((k) => k !== null && k < 64 * 1024);
  console.log(`version ratio ${okV ? "meets" : "misses"} target; worker-reap ratio ${okR ? "meets" : "misses"} target (${okC ? "meets" : "misses"} it with a canned-reply orca); peak RSS ${okM ? "meets" : "misses"} target`);
  return 0;
}

/** An `orca` that answers dispatch-show and terminal show with the simulator's own replies, captured once. */
function cannedOrca(bin: string, tmp: string, state: string): string {
  const env = { ...process.env, ORCA_SIM_STATE: state } as Record<string, string>;
  const sim = (...a: string[]) => Bun.spawnSync([bin, "sim", "orca", ...a, "--json"], { env }).stdout.toString();
  const show = sim("orchestration", "dispatch-show", "--task", "task_1a2b3c4d5e6f");
  const handle = JSON.parse(show).result.dispatch.assignee_handle as string;
  const term = sim("terminal", "show", "--terminal", handle);
  writeFileSync(join(tmp, "dispatch-show.json"), show);
  writeFileSync(join(tmp, "terminal-show.json"), term);
  const path = join(tmp, "orca-canned");
  writeFileSync(path, `#!/bin/sh\ncase "$1 $2" in\n  "orchestration dispatch-show") exec cat ${join(tmp, "dispatch-show.json")} ;;\n  "terminal show") exec cat ${join(tmp, "terminal-show.json")} ;;\nesac\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}

/** The settled scenario's worktree for real: ${ROOT}/repo + ${ROOT}/wt-feature (branch feature), squash-merged. */
function makeMergedWorktree(root: string): void {
  const f = makeRepo(root);
  addWorktree(f, "feature");
  squashMerge(f, "feature");
}

function kb(k: number | null): string {
  return k === null ? "n/a" : `${(k / 1024).toFixed(1)} MB`;
}
