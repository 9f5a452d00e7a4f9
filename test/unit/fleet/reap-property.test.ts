/**
 * Property test for `fleet reap` over random fleets: 0 removals of a worktree holding work, 0 processes signalled
 * outside a reaped worktree (nor a reused pid, nor a process in a worktree that is left). Git, Orca and herdr are a
 * stub runner answering from a random model of each fleet; the process table is a fake with stubborn processes,
 * unkillable ones and pids reused between the scan and the signal. The real scanFleet/reapFleet and the real
 * worktree-safety module run against them; an independent oracle (below) says what may happen.
 *
 * Seed: printed; set MOGUI_FLEET_SEED to replay, MOGUI_FLEET_RUNS to change the number of fleets (default 300).
 * The oracle is `holdsWork`/`eligible`: written from the rules (D7, D31, issue 18), not from the code. The shared
 * reap oracle (test/helpers/reap-oracle.ts) reads real repositories, so it judges the real-git property run of
 * `fleet reap --execute` (test/e2e/fleet/reap-property.test.ts); this model-based run keeps the cases real git
 * cannot stage cheaply (stubborn and unkillable processes, reused pids, failing hosts and removals).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResult, Runner } from "../../../src/lib/runner.ts";
import { reapFleet } from "../../../src/fleet/fleet/reap.ts";
import { scanFleet } from "../../../src/fleet/fleet/scan.ts";
import type { ProcInfo, ProcTable } from "../../../src/fleet/fleet/procs.ts";
import { tempDir } from "../../helpers/paths.ts";
import { unitCtx } from "../../helpers/unit-ctx.ts";

// ------------------------------------------------------------------------------------------------ random model

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
  return { p: (x: number) => next() < x, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
}

interface ModelWt {
  path: string;
  branch: string;
  exists: boolean;
  dirty: boolean;
  untracked: boolean;
  detached: boolean;
  locked: boolean;
  merged: boolean;
  squashEqual: boolean;
  /** D31: an index entry with skip-worktree ("S") or assume-unchanged (lowercase tag). */
  hidden: "S" | "h" | null;
  /** D31: an ignored file: precious (`.env`), regenerable (`dist/app.js`) or none. */
  ignored: "precious" | "regenerable" | null;
  binding: "none" | "open" | "settled";
  recorded: string | null; // recorded herdr pane
  recordedLive: boolean;
  foreignPane: string | null;
  removeFails: boolean;
}

interface ModelProc {
  pid: number;
  start: string;
  dir: string; // its cwd: a worktree, a main worktree or an outside dir
  file: string | null; // a file it holds open (a visitor: cwd outside, a file inside a worktree)
  stubborn: boolean; // ignores TERM
  unkillable: boolean; // survives KILL too
  reused: boolean; // its pid belongs to another process by the time we signal
  alive: boolean;
}

interface Fleet {
  repos: { path: string; wts: ModelWt[] }[];
  procs: ModelProc[];
  procsUnmeasured: boolean;
  herdrFails: boolean;
}

function makeFleet(r: ReturnType<typeof rng>, root: string, n: number): Fleet {
  const repos: Fleet["repos"] = [];
  const procs: ModelProc[] = [];
  let pid = 1000;
  const outside = join(root, `f${n}-outside`);
  mkdirSync(outside, { recursive: true });
  for (let ri = 0; ri < r.int(1, 2); ri++) {
    const repo = join(root, `f${n}-r${ri}`);
    mkdirSync(repo, { recursive: true });
    const wts: ModelWt[] = [];
    for (let wi = 0; wi < r.int(1, 6); wi++) {
      const path = join(root, `f${n}-r${ri}-w${wi}`);
      const exists = !r.p(0.05);
      if (exists) mkdirSync(path, { recursive: true });
      const binding = r.p(0.35) ? "none" : r.p(0.35) ? "open" : "settled";
      const recorded = binding !== "none" && r.p(0.5) ? `w${n}:p${ri}${wi}` : null;
      wts.push({
        path,
        branch: `b${ri}${wi}`,
        exists,
        dirty: r.p(0.15),
        untracked: r.p(0.1),
        detached: r.p(0.05),
        locked: r.p(0.05),
        merged: r.p(0.5),
        squashEqual: r.p(0.3),
        hidden: r.p(0.08) ? (r.p(0.5) ? "S" : "h") : null,
        ignored: r.p(0.1) ? "precious" : r.p(0.15) ? "regenerable" : null,
        binding,
        recorded,
        recordedLive: recorded !== null && r.p(0.6),
        foreignPane: r.p(0.1) ? `w${n}:x${ri}${wi}` : null,
        removeFails: r.p(0.04),
      });
      for (let k = 0; k < r.int(0, 3); k++) procs.push(proc(r, pid++, path));
    }
    repos.push({ path: repo, wts });
    for (let k = 0; k < r.int(0, 2); k++) procs.push(proc(r, pid++, repo)); // in the main worktree
  }
  for (let k = 0; k < r.int(0, 3); k++) procs.push(proc(r, pid++, outside));
  const wts = repos.flatMap((x) => x.wts);
  if (r.p(0.3)) procs.push({ ...proc(r, pid++, outside), file: join(wts[r.int(0, wts.length - 1)]!.path, "open.txt") });
  return { repos, procs, procsUnmeasured: r.p(0.04), herdrFails: r.p(0.04) };
}

function proc(r: ReturnType<typeof rng>, pid: number, dir: string): ModelProc {
  return { pid, start: `t${pid}`, dir, file: null, stubborn: r.p(0.25), unkillable: r.p(0.04), reused: r.p(0.05), alive: true };
}

// ------------------------------------------------------------------------------------------------ the oracle

/**
 * A worktree holds work unless it exists, is clean (tracked and untracked), carries no hidden index bit (D31), has
 * no precious ignored file (D31), is on a branch, unlocked, and its branch is in origin/main.
 */
function holdsWork(w: ModelWt): boolean {
  return !w.exists || w.dirty || w.untracked || w.hidden !== null || w.ignored === "precious" || w.detached || w.locked || !(w.merged || w.squashEqual);
}

/** May fleet reap act on it at all? */
function eligible(w: ModelWt, f: Fleet): boolean {
  if (holdsWork(w) || w.binding === "open" || f.herdrFails || f.procsUnmeasured) return false;
  if (w.foreignPane) return false;
  // A process working elsewhere with a file open inside is not a leftover: the worktree is left.
  if (f.procs.some((p) => p.file?.startsWith(`${w.path}/`))) return false;
  return true;
}

// ------------------------------------------------------------------------------------------------ stubs

function res(argv: readonly string[], code: number, stdout = "", stderr = ""): RunResult {
  return { argv: [...argv], code, signal: null, stdout, stderr, timedOut: false, missing: false };
}

function porcelain(repo: Fleet["repos"][number]): string {
  const blocks = [`worktree ${repo.path}\nHEAD 1111111111111111111111111111111111111111\nbranch refs/heads/main\n`];
  for (const w of repo.wts) blocks.push(`worktree ${w.path}\nHEAD 2222222222222222222222222222222222222222\n${w.detached ? "detached" : `branch refs/heads/${w.branch}`}\n${w.locked ? "locked\n" : ""}`);
  return blocks.join("\n");
}

function stubRunner(f: Fleet, removed: string[]): Runner {
  const wtOf = new Map<string, { repo: Fleet["repos"][number]; w: ModelWt | null }>();
  for (const repo of f.repos) {
    wtOf.set(repo.path, { repo, w: null });
    for (const w of repo.wts) wtOf.set(w.path, { repo, w });
  }
  return async (argv) => {
    if (argv[0] === "herdr") {
      if (f.herdrFails) return res(argv, 1, "", `${JSON.stringify({ error: { code: "internal_error", message: "boom" } })}\n`);
      const panes = f.repos.flatMap((r) => r.wts).flatMap((w) => [...(w.recorded && w.recordedLive ? [{ pane_id: w.recorded, cwd: w.path }] : []), ...(w.foreignPane ? [{ pane_id: w.foreignPane, cwd: w.path }] : [])]);
      if (argv[1] === "pane" && argv[2] === "list") return res(argv, 0, `${JSON.stringify({ id: "cli:pane:list", result: { type: "pane_list", panes } })}\n`);
      if (argv[1] === "pane" && argv[2] === "close") return res(argv, 0, `${JSON.stringify({ id: "cli:pane:close", result: { type: "ok" } })}\n`);
    }
    if (argv[0] === "orca") return { ...res(argv, null as unknown as number), missing: true };
    if (argv[0] !== "git" || argv[1] !== "-C") throw new Error(`unexpected call ${JSON.stringify(argv)}`);
    const at = wtOf.get(argv[2]!);
    if (!at) return res(argv, 128, "", "fatal: not a git repository");
    const args = argv.slice(3);
    const w = at.w;
    switch (args[0]) {
      case "worktree":
        if (args[1] === "list") return res(argv, 0, porcelain(at.repo));
        if (args[1] === "remove") {
          const target = at.repo.wts.find((x) => x.path === args[2]);
          if (!target || target.removeFails) return res(argv, 1, "", "fatal: cannot remove");
          removed.push(target.path);
          return res(argv, 0);
        }
        break;
      case "status":
        if (!w) return res(argv, 0);
        return res(argv, 0, w.dirty ? " M a.txt\n" : w.untracked ? "?? new.txt\n" : "");
      case "branch":
        if (args[1] === "--show-current") return res(argv, 0, w && !w.detached ? `${w.branch}\n` : w ? "" : "main\n");
        // Repository-wide, like git: every branch merged into origin/main, wherever it is asked from.
        if (args[1] === "-a")
          return res(
            argv,
            0,
            `  main\n${at.repo.wts
              .filter((x) => x.merged)
              .map((x) => `+ ${x.branch}\n`)
              .join("")}`,
          );
        break;
      case "ls-files": {
        // The index (`-v -s`: tag, mode, blob, stage, path) and the ignored files, as git prints them (-z).
        if (args.includes("--ignored")) return res(argv, 0, w?.ignored === "precious" ? ".env\0" : w?.ignored === "regenerable" ? "dist/app.js\0" : "");
        const tag = w?.hidden ?? "H";
        return res(argv, 0, `${tag} 100644 ${"3".repeat(40)} 0\tREADME.md\0H 100644 ${"4".repeat(40)} 0\tsrc/a.ts\0`);
      }
      case "rev-parse":
        return res(argv, 0, "tree-main\n");
      case "merge-tree":
        return res(argv, 0, w?.squashEqual ? "tree-main\n" : "tree-other\n");
    }
    throw new Error(`stub git: unmodelled call ${JSON.stringify(argv)}`);
  };
}

function fakeTable(f: Fleet, signals: { pid: number; sig: string }[]): ProcTable {
  const info = (p: ModelProc): ProcInfo => ({ pid: p.pid, command: `sleep ${p.pid}`, start: p.start, cwd: p.dir, paths: [p.dir, ...(p.file ? [p.file] : [])] });
  return {
    why: f.procsUnmeasured ? "test: unmeasured" : "",
    async list() {
      return f.procsUnmeasured ? null : f.procs.filter((p) => p.alive).map(info);
    },
    async current(pid, start) {
      const p = f.procs.find((x) => x.pid === pid);
      if (!p?.alive) return null;
      if (p.reused) return null; // the pid now belongs to another process: another start time
      return p.start === start ? info(p) : null;
    },
    signal(pid, sig) {
      signals.push({ pid, sig });
      const p = f.procs.find((x) => x.pid === pid);
      if (!p) return false;
      if (sig === "SIGTERM" && !p.stubborn && !p.unkillable) p.alive = false;
      if (sig === "SIGKILL" && !p.unkillable) p.alive = false;
      return true;
    },
    protectedPids: () => new Set<number>(),
  };
}

function ledgers(root: string, n: number, f: Fleet): { jobs: string; dispatch: string } {
  const rows: string[] = [];
  let k = 0;
  for (const w of f.repos.flatMap((r) => r.wts)) {
    if (w.binding === "none") continue;
    const id = `job-${n}-${k++}`;
    rows.push(JSON.stringify({ event: "job_spawned", ts: 1, job_id: id, worktree: w.path, host: "herdr", pane_id: w.recorded ?? "" }));
    if (w.binding === "settled") rows.push(JSON.stringify({ event: "job_decision", ts: 2, job_id: id, state: "closed" }));
  }
  const jobs = join(root, `f${n}-jobs.jsonl`);
  writeFileSync(jobs, rows.length ? `${rows.join("\n")}\n` : "");
  return { jobs, dispatch: join(root, `f${n}-dispatch.jsonl`) };
}

// ------------------------------------------------------------------------------------------------ the property

describe("fleet reap over random fleets", () => {
  const seed = Number(process.env.MOGUI_FLEET_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const runs = Number(process.env.MOGUI_FLEET_RUNS ?? 300);

  test(`${runs} fleets: never removes a worktree holding work, never signals outside a reaped worktree (MOGUI_FLEET_SEED=${seed})`, async () => {
    console.log(`fleet reap property: MOGUI_FLEET_SEED=${seed} MOGUI_FLEET_RUNS=${runs}`);
    const r = rng(seed);
    const root = tempDir("mogui-fleet-prop-");
    const totals = { fleets: 0, worktrees: 0, removed: 0, left: 0, signals: 0, eligible: 0, d31Left: 0 };
    for (let n = 0; n < runs; n++) {
      const f = makeFleet(r, root, n);
      const removed: string[] = [];
      const signals: { pid: number; sig: string }[] = [];
      const ctx = unitCtx({ runner: stubRunner(f, removed), env: { ORCA_CLI_COMMAND: "orca", HERDR_CLI_COMMAND: "herdr" }, now: () => 1_800_000_000_000 });
      const l = ledgers(root, n, f);
      const table = fakeTable(f, signals);
      const req = { repos: f.repos.map((x) => x.path), jobsLedger: l.jobs, dispatchLedger: l.dispatch, hosts: ["orca", "herdr"] as ("orca" | "herdr")[], concurrency: 4, timeoutMs: 1000, safety: {} };
      const scan = await scanFleet(ctx, req, table);
      const results = await reapFleet(ctx, scan, table, { execute: true, graceMs: 100, timeoutMs: 1000, ledger: l.dispatch, safety: {}, sleep: async () => {} });
      const all = f.repos.flatMap((x) => x.wts);
      const ctxMsg = `seed ${seed}, fleet ${n}`;
      // 1. Nothing holding work (or bound to an open record) is ever removed.
      for (const p of removed) {
        const w = all.find((x) => x.path === p)!;
        expect({ fleet: ctxMsg, path: p, holdsWork: holdsWork(w), open: w.binding === "open", eligible: eligible(w, f) }).toEqual({ fleet: ctxMsg, path: p, holdsWork: false, open: false, eligible: true });
      }
      // 2. Every signal went to a live, non-reused process inside a worktree the oracle lets fleet reap act on.
      for (const s of signals) {
        const p = f.procs.find((x) => x.pid === s.pid)!;
        const w = all.find((x) => x.path === p.dir);
        expect({ fleet: ctxMsg, pid: s.pid, inEligibleWorktree: Boolean(w && eligible(w, f)), reused: p.reused }).toEqual({ fleet: ctxMsg, pid: s.pid, inEligibleWorktree: true, reused: false });
      }
      // 3. Not vacuous: an eligible worktree whose processes all die and whose removal works is removed.
      for (const w of all) {
        const stuck = f.procs.some((p) => p.dir === w.path && p.unkillable && !p.reused);
        if (eligible(w, f) && !stuck && !w.removeFails) expect({ fleet: ctxMsg, path: w.path, removed: removed.includes(w.path) }).toEqual({ fleet: ctxMsg, path: w.path, removed: true });
      }
      totals.fleets++;
      totals.worktrees += all.length;
      totals.removed += removed.length;
      totals.left += results.filter((x) => x.outcome === "left").length;
      totals.signals += signals.length;
      totals.eligible += all.filter((w) => eligible(w, f)).length;
      totals.d31Left += results.filter((x) => x.reason === "hidden_index_flags" || x.reason?.startsWith("precious_ignored:")).length;
    }
    console.log(`fleet reap property: ${JSON.stringify(totals)}`);
    expect(totals.removed).toBeGreaterThan(0);
    expect(totals.signals).toBeGreaterThan(0);
    // The D31 checks were reached (not answered by a stub that knows no index).
    expect(totals.d31Left).toBeGreaterThan(0);
  }, 120_000);
});
