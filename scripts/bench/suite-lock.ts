// `bun run bench lock`: what the gate lock file costs a `dispatch-gate check` (issue 13 §4, DECISIONS D33). In one
// run, interleaved round by round: a recording check with no lock file (the baseline), with the empty lock file the
// Python original leaves behind, and with a lock file naming a live, unrelated process (pid reuse). With kernel
// locks both must cost nothing: ratio ~1.00 x no lock file. (Before D33 the empty file cost ~2 s per check and the
// pid-reuse file blocked every check until its timeout.) Also the in-process cost of one acquire + release.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { acquireLock, lockBackend } from "../../src/lib/lock.ts";
import { fmt, ratio, type Cmd, quantile, printTable } from "./measure.ts";

function timeOnce(c: Cmd): number {
  const t0 = performance.now();
  const p = Bun.spawnSync(c.argv, { env: c.env, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${c.argv.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().trim()}`);
  return performance.now() - t0;
}

export default async function lockSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string }): Promise<number> {
  const contract = join(tmp, "contract.md");
  writeFileSync(contract, "Implement the parser.\n");
  const policy = join(tmp, "policy.json");
  writeFileSync(policy, JSON.stringify({ version: 2, tiers: { efficient: ["m-eff"] }, fanout_caps: { efficient: 1_000_000_000 }, window_seconds: 3600 }));
  const sleeper = Bun.spawn(["sleep", "3600"]);
  try {
    const variants: { label: string; prepare: (lock: string) => void }[] = [
      { label: "no lock file (baseline)", prepare: (lock) => rmSync(lock, { force: true }) },
      { label: "empty lock file (left by the Python original)", prepare: (lock) => writeFileSync(lock, "") },
      { label: "lock file naming a live unrelated pid", prepare: (lock) => writeFileSync(lock, `${sleeper.pid} ${hostname()} ${Date.now() - 3_600_000}\n`) },
    ];
    const cases = variants.map((v, i) => {
      const home = join(tmp, `home-${i}`);
      mkdirSync(join(home, "dispatch-tickets"), { recursive: true });
      const cmd: Cmd = {
        argv: [bin, "dispatch-gate", "check", "--runtime", "codex", "--model", "m-eff", "--contract", contract, "--agents", "1", "--completion-channel", "orchestration", "--tier-policy", policy],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, MOGUI_HOME: home, NO_COLOR: "1" },
      };
      return { ...v, lock: join(home, "dispatch-tickets", ".dispatch-gate.lock"), cmd, xs: [] as number[] };
    });
    for (const c of cases) {
      c.prepare(c.lock);
      timeOnce(c.cmd);
    }
    for (let i = 0; i < runs; i++) {
      for (const c of cases) {
        c.prepare(c.lock);
        c.xs.push(timeOnce(c.cmd));
      }
    }
    const base = quantile(cases[0]!.xs, 0.5);
    const rows: string[][] = [["dispatch-gate check (recording)", "median", "p95", "ratio"]];
    for (const c of cases) rows.push([c.label, fmt(quantile(c.xs, 0.5)), fmt(quantile(c.xs, 0.95)), `${ratio(quantile(c.xs, 0.5), base)} x no lock file`]);
    printTable(rows);

    // In process: one uncontended acquire + release on an existing file.
    const lock = join(tmp, "micro.lock");
    const n = 2000;
    acquireLock(lock)();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) acquireLock(lock)();
    const perOp = (performance.now() - t0) / n;
    console.log(`\nbackend: ${lockBackend()}; one uncontended acquire + release in process: ${(perOp * 1000).toFixed(1)} us (mean of ${n})`);
    console.log(`runs: ${runs} interleaved rounds of the three checks`);
    return 0;
  } finally {
    sleeper.kill("SIGKILL");
    await sleeper.exited;
  }
}
