/**
 * fleet scan / fleet reap for real: a temp repository with worktrees in mixed states, real `sleep` processes
 * started inside some of them (and one outside), the herdr and Orca simulators holding bound panes. After
 * `--execute`, the bytes on disk and the processes are checked, not the report.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { addWorktree, gitEnv, makeRepo, mergeBranch, sh, type Fixture } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";

interface World {
  f: Fixture;
  home: string;
  wt: Record<string, string>;
  procs: Record<string, Bun.Subprocess>;
  env: Record<string, string>;
}

let w: World;

function alive(p: Bun.Subprocess): boolean {
  if (p.exitCode !== null || p.signalCode !== null) return false;
  try {
    process.kill(p.pid, 0);
    const stat = readFileSync(`/proc/${p.pid}/stat`, "utf8");
    return !/\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

function startIn(cwd: string, argv = ["sleep", "300"]): Bun.Subprocess {
  return Bun.spawn(argv, { cwd, env: gitEnv(), stdout: "ignore", stderr: "ignore", stdin: "ignore" });
}

beforeAll(() => {
  const f = makeRepo();
  const home = tempDir("mogui-fleet-home-");
  const names = ["orphan", "dirty", "open", "herdrlive", "settled", "unmerged", "orcalive", "stubborn", "visited", "dispatched"];
  const wt: Record<string, string> = {};
  for (const n of names) wt[n] = addWorktree(f, n);
  for (const n of names) if (n !== "unmerged") mergeBranch(f, n);
  writeFileSync(join(wt.dirty!, "notes.txt"), "unsaved work\n");
  const spawned = (id: string, worktree: string, extra: Record<string, unknown> = {}) => JSON.stringify({ event: "job_spawned", ts: 1, job_id: id, worktree, host: "herdr", pane_id: "", ...extra });
  writeFileSync(
    join(home, "jobs-ledger.jsonl"),
    `${[
      spawned("job-dirty", wt.dirty!),
      JSON.stringify({ event: "job_decision", ts: 2, job_id: "job-dirty", state: "merged" }),
      spawned("job-open", wt.open!),
      spawned("job-settled", wt.settled!, { pane_id: "w1:p2" }),
      JSON.stringify({ event: "job_decision", ts: 2, job_id: "job-settled", state: "closed" }),
    ].join("\n")}\n`,
  );
  writeFileSync(
    join(home, "herdr-scenario.json"),
    JSON.stringify({
      workspaces: [{ workspace_id: "w1", label: "workers", focused: false }],
      panes: [
        { pane_id: "w1:p1", tab_id: "w1:t1", cwd: wt.herdrlive },
        { pane_id: "w1:p2", tab_id: "w1:t1", cwd: wt.settled },
      ],
    }),
  );
  writeFileSync(
    join(home, "orca-state.json"),
    JSON.stringify({
      terminals: [
        { handle: "term_live1", worktreePath: wt.orcalive },
        { handle: "term_rec1", worktreePath: wt.dispatched },
      ],
    }),
  );
  // A settled dispatch whose lifecycle rows name its worktree and terminal (the Orca terminal is still open).
  writeFileSync(
    join(home, "dispatch-ledger.jsonl"),
    `${[
      JSON.stringify({ event: "dispatch_submitted", ts: 1, dispatch_id: "ctx_1", task_id: "task_1", status: "dispatched", worktree_path: wt.dispatched, terminal_id: "term_rec1" }),
      JSON.stringify({ event: "dispatch_completed", ts: 2, dispatch_id: "ctx_1", task_id: "task_1", status: "completed" }),
    ].join("\n")}\n`,
  );
  const procs: Record<string, Bun.Subprocess> = {};
  for (const n of ["orphan", "dirty", "open", "herdrlive", "settled", "unmerged"]) procs[n] = startIn(wt[n]!);
  procs.stubborn = startIn(wt.stubborn!, ["sh", "-c", "trap '' TERM; sleep 300"]);
  procs.outside = startIn(f.dir);
  // Works elsewhere, holds a file of `visited` open (an editor, a watcher): not a leftover of that worktree.
  procs.visitor = startIn(f.dir, ["sh", "-c", 'exec 3< "$0"; exec sleep 300', join(wt.visited!, "visited.txt")]);
  const env = e2eEnv({
    MOGUI_HOME: home,
    HOME: home,
    HERDR_SIM_STATE: join(home, "herdr-state.json"),
    HERDR_SIM_SCENARIO: join(home, "herdr-scenario.json"),
    ORCA_SIM_STATE: join(home, "orca-state.json"),
  });
  w = { f, home, wt, procs, env };
});

afterAll(() => {
  for (const p of Object.values(w?.procs ?? {})) if (alive(p)) p.kill("SIGKILL");
});

describe("fleet scan", () => {
  test("every worktree with its record state, safety verdict, size, processes and panes", async () => {
    const r = await runBinary(["fleet", "scan", "--repo", w.f.repo, "--json"], { env: w.env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const scan = JSON.parse(r.stdout) as { worktrees: Array<{ path: string; state: string; safety: { safe: boolean; reason: string }; size_bytes: number; processes: Array<{ pid: number }>; panes: Array<{ id: string }> }> };
    const by = (n: string) => scan.worktrees.find((x) => x.path === w.wt[n])!;
    expect(scan.worktrees.length).toBe(11);
    expect(by("dispatched")).toMatchObject({ state: "settled", safety: { safe: true }, panes: [{ id: "term_rec1" }] });
    expect(scan.worktrees[0]!.state).toBe("main");
    expect(by("orphan")).toMatchObject({ state: "orphaned", safety: { safe: true } });
    expect(by("dirty")).toMatchObject({ state: "settled", safety: { safe: false, reason: "Worktree has uncommitted changes" } });
    expect(by("open").state).toBe("open");
    expect(by("unmerged").safety.safe).toBe(false);
    expect(by("orphan").processes.map((p) => p.pid)).toEqual([w.procs.orphan!.pid]);
    expect(by("herdrlive").panes.map((p) => p.id)).toEqual(["w1:p1"]);
    expect(by("orcalive").panes.map((p) => p.id)).toEqual(["term_live1"]);
    expect(by("orphan").size_bytes).toBeGreaterThan(0);
  });
});

describe("fleet reap", () => {
  test("a dry run changes nothing; --execute removes only safe settled/orphaned worktrees and stops only their processes", async () => {
    const dry = await runBinary(["fleet", "reap", "--repo", w.f.repo, "--json"], { env: w.env });
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.stdout) as { worktrees: Array<{ path: string; outcome: string }> };
    expect(
      plan.worktrees
        .filter((x) => x.outcome === "would_remove")
        .map((x) => x.path)
        .sort(),
    ).toEqual([w.wt.orphan!, w.wt.settled!, w.wt.stubborn!, w.wt.dispatched!].sort());
    for (const p of Object.values(w.procs)) expect(alive(p)).toBe(true);
    for (const p of Object.values(w.wt)) expect(existsSync(p)).toBe(true);

    const r = await runBinary(["fleet", "reap", "--repo", w.f.repo, "--execute", "--grace-ms", "300", "--json"], { env: w.env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      worktrees: Array<{ path: string; outcome: string; reason: string | null; killed: Array<{ pid: number; command: string; signal: string }>; terminal_closed: string | null; bytes_reclaimed: number }>;
      bytes_reclaimed: number;
    };
    const by = (n: string) => out.worktrees.find((x) => x.path === w.wt[n])!;
    for (const n of ["orphan", "settled", "stubborn", "dispatched"]) {
      expect(by(n).outcome).toBe("removed");
      expect(existsSync(w.wt[n]!)).toBe(false);
    }
    expect(by("settled").terminal_closed).toBe("herdr:w1:p2");
    expect(by("dispatched").terminal_closed).toBe("orca:term_rec1");
    expect(by("orphan").killed).toEqual([{ pid: w.procs.orphan!.pid, command: "sleep 300", signal: "SIGTERM" }]);
    expect(by("stubborn").killed.some((k) => k.signal === "SIGKILL")).toBe(true);
    expect(out.bytes_reclaimed).toBe(["orphan", "settled", "stubborn", "dispatched"].reduce((t, n) => t + by(n).bytes_reclaimed, 0));
    expect(by("dirty").reason).toBe("Worktree has uncommitted changes");
    expect(by("open").reason).toContain("bound to open job job-open");
    expect(by("herdrlive").reason).toBe("live herdr pane w1:p1 works in it");
    expect(by("orcalive").reason).toBe("live orca pane term_live1 works in it");
    expect(by("visited").reason).toBe(`process ${w.procs.visitor!.pid} (sleep 300) works elsewhere but holds files open in it`);
    // The bytes: work that was there is still there, and processes outside the reaped worktrees live on.
    expect(readFileSync(join(w.wt.dirty!, "notes.txt"), "utf8")).toBe("unsaved work\n");
    for (const n of ["dirty", "open", "herdrlive", "unmerged", "outside", "visitor"]) expect(alive(w.procs[n]!)).toBe(true);
    expect(existsSync(w.wt.visited!)).toBe(true);
    await Bun.sleep(100);
    for (const n of ["orphan", "stubborn"]) expect(alive(w.procs[n]!)).toBe(false);
    const rows = readFileSync(join(w.home, "dispatch-ledger.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((x) => x.event)).toEqual(["dispatch_submitted", "dispatch_completed", "fleet_reap", "fleet_reap", "fleet_reap", "fleet_reap"]);
    expect(
      rows
        .slice(2)
        .map((x) => x.worktree_path)
        .sort(),
    ).toEqual([w.wt.orphan, w.wt.settled, w.wt.stubborn, w.wt.dispatched].sort());
    expect(rows.find((x) => x.event === "fleet_reap" && x.worktree_path === w.wt.dispatched)).toMatchObject({ binding: "dispatch:ctx_1", outcome: "removed", terminal_closed: "orca:term_rec1" });
    const orca = JSON.parse(readFileSync(join(w.home, "orca-state.json"), "utf8")) as { terminals: Array<{ handle: string }> };
    expect(orca.terminals.map((t) => t.handle)).not.toContain("term_rec1");
    expect(sh(w.f.repo, "worktree", "list", "--porcelain")).not.toContain(w.wt.orphan!);
  });

  test("a repository that is not a git repository is exit 2, one line", async () => {
    const r = await runBinary(["fleet", "scan", "--repo", tempDir("mogui-notgit-")], { env: w.env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n").length).toBe(1);
  });
});
