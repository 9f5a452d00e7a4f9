// `bun run bench fleet`: `fleet scan` over 50, 100 and 200 worktrees (issue 18): time, time per worktree and how it
// grows, against a baseline measured in the same run: a plain sequential loop of `git -C <wt> status --porcelain`
// over the same worktrees (what a shell script would do, and only one of the calls fleet scan makes per worktree).
// Half of the worktrees are merged into origin/main, a quarter hold an uncommitted file; a `sleep` runs in some.
//   bun run bench fleet [--runs N] [--concurrency N]
import { mkdirSync, writeFileSync } from "node:fs";
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
  const home = join(tmp, "home");
  mkdirSync(home, { recursive: true });
  const env = { ...GIT_ENV, PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, MOGUI_HOME: home, NO_COLOR: "1" };
  const cmds: Cmd[] = [];
  const sleepers: Bun.Subprocess[] = [];
  for (const n of sizes) {
    const root = join(tmp, `fleet-${n}`);
    mkdirSync(root, { recursive: true });
    const t0 = performance.now();
    const f = fleet(root, n);
    for (let i = 0; i < n; i += 10) sleepers.push(Bun.spawn(["sleep", "3600"], { cwd: f.wts[i], stdout: "ignore", stderr: "ignore" }));
    console.error(`bench: ${n} worktrees set up in ${fmt(performance.now() - t0)}`);
    cmds.push({ argv: [bin, "fleet", "scan", "--repo", f.repo, "--host", "none", "--concurrency", concurrency, "--json"], env });
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
  console.log(`\nruns: ${rounds} interleaved rounds; --concurrency ${concurrency}; each scan: safety check (5-7 git calls), size, processes per worktree`);
  console.log(`linear in worktrees (per-worktree time at 200 within 1.5x of that at 50): ${ratio(per[2]!, per[0]!)}x ${per[2]! <= 1.5 * per[0]! ? "MET" : "MISSED"}`);
  return 0;
}
