// Start-up cost of the binary: `mogui --version` and a `worker-reap --dry-run` against the Orca simulator, each as a
// ratio against the baseline `python3 -c "import json, argparse, subprocess"` (the system /usr/bin/python3) measured
// in the same run. Targets (issue: foundation): ratio <= 0.5, peak RSS < 64 MB.
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fmt, measure, ratio, type Cmd } from "./measure.ts";

const PYTHON = "/usr/bin/python3";

export async function startupSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string }): Promise<number> {
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
  const snapshot = join(tmp, "state.seed.json");
  // Seed the simulator once, then restore the same state before every run.
  Bun.spawnSync(["sh", "-c", 'exec "$ORCA_CLI_COMMAND" status --json >/dev/null'], { env });
  if (existsSync(state)) copyFileSync(state, snapshot);
  const restore = () => existsSync(snapshot) && copyFileSync(snapshot, state);

  const b = measure(baseline, runs);
  const v = measure(version, runs);
  const r = measure(reap, runs, restore);
  const rows: [string, string, string, string, string][] = [
    ["command", "median", "p95", "ratio vs python3", "peak RSS"],
    ["python3 -c 'import json, argparse, subprocess' (baseline)", fmt(b.medianMs), fmt(b.p95Ms), "1.00", kb(b.peakRssKb)],
    ["mogui --version", fmt(v.medianMs), fmt(v.p95Ms), ratio(v.medianMs, b.medianMs), kb(v.peakRssKb)],
    ["mogui worker-reap --dry-run (simulator)", fmt(r.medianMs), fmt(r.p95Ms), ratio(r.medianMs, b.medianMs), kb(r.peakRssKb)],
  ];
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((c, i) => c.padEnd(w[i]!)).join("  ").trimEnd());
  console.log(`\nruns: ${runs} each; targets: ratio <= 0.50, peak RSS < 64 MB (mogui process only)`);
  const okV = v.medianMs / b.medianMs <= 0.5;
  const okR = r.medianMs / b.medianMs <= 0.5;
  const okM = [v.peakRssKb, r.peakRssKb].every((k) => k !== null && k < 64 * 1024);
  console.log(`version ratio ${okV ? "meets" : "misses"} target; worker-reap ratio ${okR ? "meets" : "misses"} target; peak RSS ${okM ? "meets" : "misses"} target`);
  return 0;
}

function kb(k: number | null): string {
  return k === null ? "n/a" : `${(k / 1024).toFixed(1)} MB`;
}
