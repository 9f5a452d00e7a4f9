// `bun run bench fleet`: `fleet scan` over 50, 100 and 200 worktrees (issue 18): time, time per worktree and how it
// grows, against a baseline measured in the same run: a plain sequential loop of `git -C <wt> status --porcelain`
// over the same worktrees (what a shell script would do, and only one of the calls fleet scan makes per worktree).
// Half of the worktrees are merged into origin/main, a quarter hold an uncommitted file; a `sleep` runs in some.
// The hosts are asked too (issue 24 §4): the Orca and herdr simulators (`mogui sim install-shims`) hold a live
// terminal in every 10th worktree and a herdr pane in every 10th (offset 5), the dispatch ledger holds a gate register
// row for every Orca terminal's task; the scan must still be linear, one query per host per scan (counted from the
// simulators' call logs in one untimed scan per size).
//   bun run bench fleet [--runs N] [--concurrency N]
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fmt, interleaved, printTable, ratio, type Cmd, type Sample } from "./measure.ts";

const GIT_ENV = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@mogui.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@mogui.invalid",
};

function git(cwd: string, ...args: string[]): void {
  const p = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr.toString()}`);
}

function fleet(root: string, n: number): { repo: string; wts: string[] } {
  const repo = join(root, "repo");
  mkdirSync(repo, { recursive: true });
  git(root, "init", "-q", "--bare", "-b", "main", "origin.git");
  git(repo, "init", "-q", "-b", "main");
  for (let i = 0; i < 40; i++) writeFileSync(join(repo, `file-${i}.txt`), `content ${i}\n`.repeat(50));
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "init");
  git(repo, "remote", "add", "origin", "../origin.git");
  git(repo, "push", "-q", "origin", "main");
  const wts: string[] = [];
  for (let i = 0; i < n; i++) {
    const wt = join(root, `wt-${i}`);
    git(repo, "worktree", "add", "-q", "-b", `b${i}`, wt, "main");
    if (i % 2 === 1) {
      writeFileSync(join(wt, `work-${i}.txt`), "work\n");
      git(wt, "add", ".");
      git(wt, "commit", "-q", "-m", `work ${i}`);
    }
    if (i % 4 === 2) writeFileSync(join(wt, "draft.txt"), "uncommitted\n");
    wts.push(wt);
  }
  return { repo, wts };
}

export default async function fleetSuite({ runs, bin, tmp, args }: { runs: number; bin: string; tmp: string; args: string[] }): Promise<number> {
  const ci = args.indexOf("--concurrency");
  const concurrency = ci >= 0 ? args[ci + 1]! : "8";
  const sizes = [50, 100, 200];
  const shims = join(tmp, "sim-bin");
  Bun.spawnSync([bin, "sim", "install-shims", shims], { stdout: "ignore", stderr: "inherit" });
  const cmds: Cmd[] = [];
  const hostCalls: string[] = [];
  const sleepers: Bun.Subprocess[] = [];
  for (const n of sizes) {
    const root = join(tmp, `fleet-${n}`);
    mkdirSync(root, { recursive: true });
    const t0 = performance.now();
    const f = fleet(root, n);
    for (let i = 0; i < n; i += 10) sleepers.push(Bun.spawn(["sleep", "3600"], { cwd: f.wts[i], stdout: "ignore", stderr: "ignore" }));
    console.error(`bench: ${n} worktrees set up in ${fmt(performance.now() - t0)}`);
    const home = join(root, "home");
    mkdirSync(home, { recursive: true });
    const term = (i: number) => `term_${i.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
    const task = (i: number) => `task_${i.toString(16).padStart(12, "0")}`;
    const orcaAt = f.wts.map((_, i) => i).filter((i) => i % 10 === 0);
    writeFileSync(
      join(root, "orca-scenario.json"),
      JSON.stringify({
        terminals: [{ handle: term(99999), worktreePath: f.repo, title: "coordinator", alive: true }, ...orcaAt.map((i) => ({ handle: term(i), worktreePath: f.wts[i], title: `w${i}`, agent: "claude", alive: true }))],
        runs: [{ id: "run_000000000001", objective: "bench", coordinator_handle: term(99999) }],
        tasks: orcaAt.map((i) => ({ id: task(i), run_id: "run_000000000001", spec: `t${i}`, status: i % 20 === 0 ? "completed" : "dispatched" })),
        dispatches: orcaAt.map((i) => ({ id: `ctx_${i.toString(16).padStart(12, "0")}`, task_id: task(i), assignee_handle: term(i), status: i % 20 === 0 ? "completed" : "dispatched" })),
      }),
    );
    writeFileSync(join(home, "dispatch-ledger.jsonl"), orcaAt.map((i) => `${JSON.stringify({ ts: 1, decision: "ALLOW", reason: "OK", job_id: `job-${i}`, orchestration_task: task(i), runtime: "codex" })}\n`).join(""));
    writeFileSync(
      join(root, "herdr-scenario.json"),
      JSON.stringify({
        workspaces: [{ workspace_id: "w1", label: "workers", focused: false }],
        panes: f.wts
          .map((w, i) => ({ w, i }))
          .filter((x) => x.i % 10 === 5)
          .map((x, k) => ({ pane_id: `w1:p${k + 1}`, tab_id: "w1:t1", cwd: x.w })),
      }),
    );
    const env = {
      ...GIT_ENV,
      PATH: `${shims}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: home,
      MOGUI_HOME: home,
      NO_COLOR: "1",
      ORCA_SIM_STATE: join(root, "orca.json"),
      ORCA_SIM_SCENARIO: join(root, "orca-scenario.json"),
      HERDR_SIM_STATE: join(root, "herdr.json"),
      HERDR_SIM_SCENARIO: join(root, "herdr-scenario.json"),
    };
    const scan = [bin, "fleet", "scan", "--repo", f.repo, "--concurrency", concurrency, "--json"];
    // One untimed scan with the call logs on: how many times each host was asked.
    const logs = { ORCA_SIM_CALL_LOG: join(root, "orca-calls.jsonl"), HERDR_SIM_CALL_LOG: join(root, "herdr-calls.jsonl") };
    Bun.spawnSync(scan, { env: { ...env, ...logs }, stdout: "ignore", stderr: "inherit" });
    const count = (p: string) => {
      try {
        return readFileSync(p, "utf8").split("\n").filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    hostCalls.push(`${n} worktrees: orca ${count(logs.ORCA_SIM_CALL_LOG)} calls, herdr ${count(logs.HERDR_SIM_CALL_LOG)} calls per scan`);
    cmds.push({ argv: scan, env });
    cmds.push({ argv: ["sh", "-c", 'for w in "$@"; do git -C "$w" status --porcelain >/dev/null; done', "loop", ...f.wts], env });
  }
  const rounds = Math.max(3, Math.min(runs, 7));
  let samples: Sample[];
  try {
    samples = interleaved(cmds, rounds);
  } finally {
    for (const s of sleepers) s.kill("SIGKILL");
  }
  const rows: string[][] = [["worktrees", "fleet scan median", "p95", "per worktree", "growth vs 50", "scan peak RSS", "status loop (baseline)", "scan / loop"]];
  const scan50 = samples[0]!.medianMs;
  sizes.forEach((n, i) => {
    const s = samples[2 * i]!;
    const loop = samples[2 * i + 1]!;
    rows.push([
      String(n),
      fmt(s.medianMs),
      fmt(s.p95Ms),
      fmt(s.medianMs / n),
      `${ratio(s.medianMs, scan50)}x (${n / 50}x worktrees)`,
      s.peakRssKb === null ? "n/a" : `${(s.peakRssKb / 1024).toFixed(1)} MB`,
      fmt(loop.medianMs),
      `${ratio(s.medianMs, loop.medianMs)}x`,
    ]);
  });
  printTable(rows);
  const per = sizes.map((n, i) => samples[2 * i]!.medianMs / n);
  console.log(`\nruns: ${rounds} interleaved rounds; --concurrency ${concurrency}; each scan: safety check (5-7 git calls), size, processes per worktree, Orca (terminal list, task-list) and herdr (pane list) once`);
  for (const h of hostCalls) console.log(`host queries: ${h}`);
  console.log(`linear in worktrees (per-worktree time at 200 within 1.5x of that at 50): ${ratio(per[2]!, per[0]!)}x ${per[2]! <= 1.5 * per[0]! ? "MET" : "MISSED"}`);
  return 0;
}
