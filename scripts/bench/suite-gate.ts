// `bun run bench gate`: the dispatch gate at scale (issue 3). In one run: `dispatch-gate check` latency on an
// empty, a 100,000-row and a 1,000,000-row generated ledger; `report` over the 1,000,000-row ledger; peak RSS of
// each; and the baseline named by the issue, a bare /usr/bin/python3 loop that only json.loads every line of the
// same 1M-row file. Targets: 1M-row check <= 1.5x the empty-ledger check; peak RSS < 100 MB (check) and < 150 MB
// (report); report over 1M rows <= 0.5x the python3 loop.
//
// The generated rows are spread evenly over the last 365 days, so a 24 h tier window holds ~1/365 of them. The
// bench policy caps the `efficient` tier (at a value no run reaches), so every check really reads its window.
// Each timed check RECORDS (ledger row + attempt number + ticket), which is the path that needs the attempt index.
// The commands compared by a ratio run INTERLEAVED (one of each per round), so a load spike on a shared machine
// hits both sides of a ratio alike instead of whichever block happened to run during it.
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fmt, ratio, type Cmd, type Sample, printTable, quantile } from "./measure.ts";

const PYTHON = "/usr/bin/python3";
const YEAR = 365 * 86_400;
const CONTRACT_TEXT = "Implement the parser for the ledger format.\nScope: src/parser.ts\n";

function sha(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

/** n rows, oldest first, ending now: check ALLOW/DENY rows, register rows and lifecycle rows. */
export function generateLedger(path: string, n: number, nowSec: number, benchSha: string, policyPath: string): void {
  writeFileSync(path, "");
  const shas = Array.from({ length: 50_000 }, (_, i) => (i === 0 ? benchSha : sha(`contract-${i}`)));
  const models = ["gpt-5.6-luna", "claude-sonnet-5", "claude-opus-5", "grok-4.5", "mystery-model"];
  const tiers = ["efficient", "efficient", "top", "efficient", "unknown"];
  const digest = sha("policy");
  let buf: string[] = [];
  let size = 0;
  for (let i = 0; i < n; i++) {
    const ts = nowSec - YEAR + (YEAR * i) / n;
    const c = shas[(i * 7919) % shas.length]!;
    const k = i % 10;
    const m = i % models.length;
    let row: Record<string, unknown>;
    if (k < 7 || k === 7) {
      const allow = k !== 7;
      row = {
        ...(allow ? { attempt: 1 + (i % 5) } : {}),
        completion_channel: "orchestration",
        contract_sha: allow ? c : null,
        cost_proxy: allow ? 3000 : 0,
        decision: allow ? "ALLOW" : "DENY",
        est_chars: 3000,
        model: models[m],
        n_agents: 1,
        reason: allow ? "OK" : "BUDGET_EXCEEDED",
        runtime: "codex",
        tier: tiers[m],
        tier_policy_path: policyPath,
        tier_policy_sha256: digest,
        ts,
      };
    } else if (k === 8) {
      row = { attempt: 2, completion_channel: "orchestration", contract_sha: c, decision: "ALLOW", est_chars: 3000, job_id: `ctx_${i}`, model_verified: true, n_agents: 1, orchestration_task: `task_${i}`, reason: "OK", runtime: "codex", ts };
    } else {
      row = { contract_sha: c, dispatch_id: `ctx_${i - 1}`, event: "dispatch_submitted", runtime: "codex", status: "dispatched", task_id: `task_${i - 1}`, ts };
    }
    const line = `${JSON.stringify(row)}\n`;
    buf.push(line);
    size += line.length;
    if (size > 8 << 20) {
      appendFileSync(path, buf.join(""));
      buf = [];
      size = 0;
    }
  }
  appendFileSync(path, buf.join(""));
}

function mb(k: number | null): string {
  return k === null ? "n/a" : `${(k / 1024).toFixed(1)} MB`;
}

function timeOnce(c: Cmd): number {
  const t0 = performance.now();
  const p = Bun.spawnSync(c.argv, { env: c.env, cwd: c.cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== (c.expect ?? 0)) throw new Error(`${c.argv.join(" ")} exited ${p.exitCode}: ${p.stderr.toString().trim()}`);
  return performance.now() - t0;
}

/** Peak RSS from GNU time (%M), as measure.ts does; null without /usr/bin/time. */
function peakRss(c: Cmd): number | null {
  if (!existsSync("/usr/bin/time")) return null;
  const p = Bun.spawnSync(["/usr/bin/time", "-f", "%M", ...c.argv], { env: c.env, stdout: "pipe", stderr: "pipe" });
  const last = p.stderr.toString().trim().split("\n").pop() ?? "";
  return /^\d+$/.test(last) ? Number(last) : null;
}

/** One warm-up each, then `runs` rounds of one run of every command; median, p95 and peak RSS per command. */
function interleaved(cmds: Cmd[], runs: number): Sample[] {
  for (const c of cmds) timeOnce(c);
  const xs = cmds.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) cmds.forEach((c, j) => xs[j]!.push(timeOnce(c)));
  return cmds.map((c, j) => ({ medianMs: quantile(xs[j]!, 0.5), p95Ms: quantile(xs[j]!, 0.95), peakRssKb: peakRss(c) }));
}

export default async function gateSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string }): Promise<number> {
  if (!existsSync(PYTHON)) {
    console.error(`bench: the baseline needs the system interpreter ${PYTHON}`);
    return 2;
  }
  const home = join(tmp, "home");
  mkdirSync(home, { recursive: true });
  const contract = join(tmp, "contract.md");
  writeFileSync(contract, CONTRACT_TEXT);
  const policy = join(tmp, "policy.json");
  writeFileSync(policy, JSON.stringify({ version: 2, tiers: { top: ["claude-opus-5"], efficient: ["gpt-5.6-luna", "claude-sonnet-5", "grok-4.5"] }, fanout_caps: { efficient: 1_000_000_000, unknown: 8 }, window_seconds: 86_400 }));
  const nowSec = Date.now() / 1000;
  const benchSha = sha(CONTRACT_TEXT);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, MOGUI_HOME: home, NO_COLOR: "1" };
  const ledgers: [string, number][] = [
    ["empty", 0],
    ["100k", 100_000],
    ["1M", 1_000_000],
  ];
  const check = (ledger: string): Cmd => ({
    argv: [bin, "dispatch-gate", "--ledger", ledger, "check", "--runtime", "codex", "--model", "gpt-5.6-luna", "--contract", contract, "--agents", "1", "--completion-channel", "orchestration", "--tier-policy", policy],
    env,
  });
  const colds: number[] = [];
  const paths: string[] = [];
  for (const [label, n] of ledgers) {
    const ledger = join(tmp, `ledger-${label}.jsonl`);
    const t0 = performance.now();
    generateLedger(ledger, n, nowSec, benchSha, policy);
    if (n) console.error(`bench: generated ${n} rows (${(statSync(ledger).size / 1e6).toFixed(0)} MB) in ${fmt(performance.now() - t0)}`);
    rmSync(`${ledger}.idx`, { recursive: true, force: true });
    colds.push(timeOnce(check(ledger))); // the first check builds the sidecar caches
    paths.push(ledger);
  }
  // The caches are safe to delete; a check that rebuilds them from scratch must stay inside the same memory budget.
  rmSync(`${paths[2]!}.idx`, { recursive: true, force: true });
  const coldRss = peakRss(check(paths[2]!));
  const samples = interleaved(paths.map(check), runs);
  const results = ledgers.map(([label], i) => ({ label: `check, ${label} ledger`, s: samples[i]!, cold: colds[i] }));
  const big = paths[2]!;
  const reportRuns = Math.max(3, Math.min(runs, 5));
  const [report, py] = interleaved([{ argv: [bin, "dispatch-gate", "--ledger", big, "report"], env }, { argv: [PYTHON, "-c", "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n", big] }], reportRuns) as [Sample, Sample];

  const empty = results[0]!.s.medianMs;
  const rows: string[][] = [["command", "median", "p95", "ratio", "peak RSS", "first run (index build)"]];
  for (const r of results) rows.push([r.label, fmt(r.s.medianMs), fmt(r.s.p95Ms), `${ratio(r.s.medianMs, empty)} x empty`, mb(r.s.peakRssKb), r.cold === undefined ? "" : fmt(r.cold)]);
  rows.push(["report, 1M ledger", fmt(report.medianMs), fmt(report.p95Ms), `${ratio(report.medianMs, py.medianMs)} x python3`, mb(report.peakRssKb), ""]);
  rows.push(["python3 json.loads every line, 1M (baseline)", fmt(py.medianMs), fmt(py.p95Ms), "1.00", mb(py.peakRssKb), ""]);
  printTable(rows);
  const big1 = results[2]!.s;
  const verdict = (ok: boolean) => (ok ? "MET" : "MISSED");
  const checkRss = results.every((r) => r.s.peakRssKb !== null && r.s.peakRssKb < 100 * 1024);
  console.log(`\nruns: ${runs} rounds of the three checks, ${reportRuns} rounds of report + python3 (interleaved); rows over 365 days, 24 h window`);
  console.log(`1M-row check <= 1.5x empty-ledger check: ${ratio(big1.medianMs, empty)}x ${verdict(big1.medianMs <= 1.5 * empty)}`);
  console.log(`check peak RSS < 100 MB: ${results.map((r) => mb(r.s.peakRssKb)).join(" / ")} ${verdict(checkRss)}`);
  console.log(`check peak RSS < 100 MB with the 1M-row caches rebuilt from scratch: ${mb(coldRss)} ${verdict(coldRss !== null && coldRss < 100 * 1024)}`);
  console.log(`report peak RSS < 150 MB: ${mb(report.peakRssKb)} ${verdict(report.peakRssKb !== null && report.peakRssKb < 150 * 1024)}`);
  console.log(`report over 1M rows <= 0.5x python3 json.loads loop: ${ratio(report.medianMs, py.medianMs)}x ${verdict(report.medianMs <= 0.5 * py.medianMs)}`);
  return 0;
}
