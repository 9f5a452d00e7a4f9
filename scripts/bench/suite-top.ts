// `bun run bench top` (issue 28): (1) one frame of `mogui top` for 200 rows renders in under 50 ms: the renderer
// alone (200 rows, 160x50 and a full --once frame, in this process) and the compiled binary printing a 200-row
// frame (`top --once` over a jobs ledger of 200 running workers, no git), both against `mogui --version` measured
// in the same run; (2) `top --once --json` over 50 and 200 worktrees is linear in rows, with one host query per
// refresh: the fake herdr and orca count their calls (HERDR_SIM_CALL_LOG, ORCA_SIM_CALL_LOG).
//   bun run bench top [--runs N]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GROUPS } from "../../src/fleet/top/classify.ts";
import { initialView, renderOnce, renderScreen } from "../../src/fleet/top/render.ts";
import type { TopFrame, TopRow } from "../../src/fleet/top/row.ts";
import { fmt, interleaved, printTable, ratio, type Cmd } from "./measure.ts";

const GIT_ENV = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@mogui.invalid", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@mogui.invalid" };
const FIXTURES_BIN = join(import.meta.dir, "..", "..", "fixtures", "bin");

function git(cwd: string, ...args: string[]): void {
  const p = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr.toString()}`);
}

function syntheticFrame(n: number): TopFrame {
  const states = ["working", "blocked", "done", "idle", "dead", "unknown"] as const;
  const rows: TopRow[] = Array.from({ length: n }, (_, i) => ({
    id: `job-${i}-impl-20261203`,
    source: "job",
    host: "herdr",
    pane: `w${(i % 9) + 1}:p${i}`,
    agent: "claude",
    model: "claude-sonnet-5",
    model_claimed: i % 7 ? "claude-sonnet-5" : "claude-opus-5",
    model_observed: "claude-sonnet-5",
    tier: "efficient",
    job_tier: "T2",
    state: states[i % 6]!,
    stuck: i % 13 === 0,
    escalated: i % 17 === 0,
    verdict_pending: false,
    group: GROUPS[i % 5]!,
    age_seconds: 60 * i,
    idle_seconds: i,
    tokens: 1000 * i,
    spend: i * 0.01,
    burn_tokens_per_hour: 100 * i,
    burn_spend_per_hour: 0.1,
    pushed: i % 3 === 0 ? true : i % 3 === 1 ? false : null,
    claimed_sha: null,
    verdict: i % 4 ? "pass" : null,
    reap: i % 2 ? { safe: true } : { safe: false, reason: "Worktree has uncommitted changes" },
    repo: "/src/app",
    worktree: `/src/wt-${i}`,
    branch: `b${i}`,
    brief: null,
    transcripts: [],
    binding_source: null,
    drift: null,
  }));
  const groups = Object.fromEntries(GROUPS.map((g) => [g, rows.filter((r) => r.group === g).length])) as TopFrame["totals"]["groups"];
  return { rows, totals: { rows: n, groups, tokens: 0, spend: 1, currency: "USD", burn_tokens_per_hour: 0, tiers: [{ tier: "top", agents: 3, cap: 4, spent_tokens: 9e6, spend_cap: 2e7 }], window_seconds: 86_400, warnings: [], at: Date.now() } };
}

function inProcess(fn: () => void, runs: number): { median: number; p95: number } {
  fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return { median: xs[Math.floor(xs.length / 2)]!, p95: xs[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]! };
}

function fleet(root: string, n: number): string {
  const repo = join(root, "repo");
  mkdirSync(repo, { recursive: true });
  git(root, "init", "-q", "--bare", "-b", "main", "origin.git");
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "bench\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "init");
  git(repo, "remote", "add", "origin", "../origin.git");
  git(repo, "push", "-q", "origin", "main");
  for (let i = 0; i < n; i++) git(repo, "worktree", "add", "-q", "-b", `b${i}`, join(root, `wt-${i}`), "main");
  return repo;
}

export default async function topSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string; args: string[] }): Promise<number> {
  // (1) The renderer, in this process.
  const frame = syntheticFrame(200);
  const screen = inProcess(() => void renderScreen(frame, initialView(false), 160, 50, true), runs * 4);
  const full = inProcess(() => void renderOnce(frame, 160, true), runs * 4);

  // (1) The binary: a 200-row frame from a jobs ledger (no repository, no git, hosts none) against --version.
  const home = join(tmp, "home");
  mkdirSync(home, { recursive: true });
  const now = Math.floor(Date.now() / 1000);
  writeFileSync(
    join(home, "jobs-ledger.jsonl"),
    `${Array.from({ length: 200 }, (_, i) => JSON.stringify({ event: "job_spawned", ts: now - i * 60, job_id: `job-${i}`, worktree: join(tmp, `gone-${i}`), repo: join(tmp, "no-repo"), branch: `b${i}`, host: "herdr", pane_id: `w1:p${i}`, kind: "claude", model: "claude-sonnet-5", tier: "T2", inbox: join(home, "inbox", `job-${i}`) })).join("\n")}\n`,
  );
  const env = { ...GIT_ENV, PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, MOGUI_HOME: home, NO_COLOR: "1", COLUMNS: "160" };
  const version: Cmd = { argv: [bin, "--version"], env };
  const once200: Cmd = { argv: [bin, "top", "--once", "--host", "none"], env };

  // (2) --once --json over 50 and 200 worktrees, the fake hosts counting their calls.
  const sizes = [50, 200];
  const scans: Cmd[] = [];
  const logs: { herdr: string; orca: string }[] = [];
  for (const n of sizes) {
    const root = join(tmp, `fleet-${n}`);
    mkdirSync(root, { recursive: true });
    const t0 = performance.now();
    const repo = fleet(root, n);
    console.error(`bench: ${n} worktrees set up in ${fmt(performance.now() - t0)}`);
    const herdrState = join(root, "herdr-state.json");
    writeFileSync(herdrState, JSON.stringify({ workspaces: [{ workspace_id: "w1", label: "workers", focused: false }], panes: Array.from({ length: Math.min(n, 20) }, (_, i) => ({ pane_id: `w1:p${i + 1}`, tab_id: "w1:t1", cwd: join(root, `wt-${i}`) })) }));
    const log = { herdr: join(root, "herdr-calls.jsonl"), orca: join(root, "orca-calls.jsonl") };
    logs.push(log);
    scans.push({
      argv: [bin, "top", "--repo", repo, "--once", "--json"],
      env: { ...env, PATH: `${FIXTURES_BIN}:${env.PATH}`, MOGUI_BIN: bin, HERDR_SIM_STATE: herdrState, HERDR_SIM_CALL_LOG: log.herdr, ORCA_SIM_STATE: join(root, "orca-state.json"), ORCA_SIM_CALL_LOG: log.orca, ORCA_CLI_COMMAND: "orca" },
    });
  }
  const rounds = Math.max(3, Math.min(runs, 7));
  const [v, o, s50, s200] = interleaved([version, once200, ...scans], rounds);
  // Host calls of ONE refresh: clear the logs, run once more, count.
  const calls = scans.map((c, i) => {
    for (const p of Object.values(logs[i]!)) rmSync(p, { force: true });
    Bun.spawnSync(c.argv, { env: c.env, stdout: "ignore", stderr: "ignore" });
    const count = (p: string) => {
      try {
        return readFileSync(p, "utf8").split("\n").filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    return { herdr: count(logs[i]!.herdr), orca: count(logs[i]!.orca) };
  });

  printTable([
    ["what", "median", "p95", "vs --version"],
    ["mogui --version (baseline)", fmt(v!.medianMs), fmt(v!.p95Ms), "1x"],
    ["render 200 rows, 160x50 screen (in process)", fmt(screen.median), fmt(screen.p95), `${ratio(screen.median, v!.medianMs)}x`],
    ["render 200 rows, whole --once frame (in process)", fmt(full.median), fmt(full.p95), `${ratio(full.median, v!.medianMs)}x`],
    ["top --once, 200 rows (binary: read + render)", fmt(o!.medianMs), fmt(o!.p95Ms), `${ratio(o!.medianMs, v!.medianMs)}x`],
  ]);
  console.log("");
  printTable([
    ["worktrees", "top --once --json median", "per worktree", "herdr calls / refresh", "orca calls / refresh"],
    ...sizes.map((n, i) => [String(n), fmt([s50, s200][i]!.medianMs), fmt([s50, s200][i]!.medianMs / n), String(calls[i]!.herdr), String(calls[i]!.orca)]),
  ]);
  const frameMs = o!.medianMs - v!.medianMs;
  const per = [s50!.medianMs / 50, s200!.medianMs / 200];
  console.log(`\nruns: ${rounds} interleaved rounds (binary), ${runs * 4} (in process)`);
  console.log(`a 200-row frame renders under 50 ms (160x50 screen ${fmt(screen.median)}, whole frame ${fmt(full.median)}): ${screen.median < 50 && full.median < 50 ? "MET" : "MISSED"}`);
  console.log(`(informational) a one-shot --once of the binary, 200 rows, minus --version: ${fmt(frameMs)} (start-up of the command, the ledgers, a cold JIT)`);
  console.log(`O(rows): per-worktree time at 200 within 1.5x of that at 50: ${ratio(per[1]!, per[0]!)}x ${per[1]! <= 1.5 * per[0]! ? "MET" : "MISSED"}; one host query per refresh: ${calls.every((c) => c.herdr === 1 && c.orca === 1) ? "MET" : "MISSED"}`);
  return 0;
}
