// The refusals of the spawn-worker standard, end to end through the compiled binary: flapping status never
// triggers collection (herdr's `fake flap`, the Orca simulator's agentStatusCycle), dead tabs are swept, a 4th
// verdict round is escalated, a T3 job refuses a same-family verifier, a downgrade is refused.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sh } from "../../helpers/git.ts";
import { spawnArgs, spawnOk, world } from "../cases/workers.ts";

function findings(dir: string, name: string, lines: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, `${lines.join("\n")}\n`);
  return p;
}

/** A spawned job with unmerged work, its report filed and its decision recorded: only the pane's status decides. */
async function decidedWithUnmergedWork(w: Awaited<ReturnType<typeof world>>): Promise<Awaited<ReturnType<typeof spawnOk>>> {
  const s = await spawnOk(w, { name: "flappy" });
  writeFileSync(join(s.worktree, "unmerged.txt"), "work\n");
  sh(s.worktree, "add", ".");
  sh(s.worktree, "commit", "-q", "-m", "unmerged work");
  writeFileSync(join(s.inbox, "report.md"), "done\n");
  expect((await w.run(["worker", "decide", "--job", s.job_id, "--state", "closed"])).code).toBe(0);
  return s;
}

test("herdr: flapping status never triggers collection", async () => {
  const w = await world("herdr");
  const s = await decidedWithUnmergedWork(w);
  // idle, idle, working, ...: the first two readings say idle, the third says working.
  expect((await w.herdr("fake", "flap", s.pane_id, "idle,idle,working")).code).toBe(0);
  const r = await w.run(["worker", "collect", "--owner", "orch-a", "--execute", "--json"]);
  expect(r.code).toBe(0);
  const item = JSON.parse(r.stdout).jobs[0];
  expect(item).toMatchObject({ action: "keep", status: "working" });
  expect(item.readings).toEqual(["idle", "idle", "working"]);
  expect((await w.herdr("pane", "get", s.pane_id)).code).toBe(0);
  expect(w.ledger().some((x) => x.event === "job_collected")).toBe(false);
  // A single idle reading would have been trusted with --readings 1: the default never is.
  expect((await w.herdr("fake", "flap", s.pane_id)).code).toBe(0);
  expect((await w.herdr("pane", "report-agent", s.pane_id, "--source", "t", "--agent", "claude", "--state", "idle")).code).toBe(0);
  const ok = JSON.parse((await w.run(["worker", "collect", "--owner", "orch-a", "--execute", "--json"])).stdout).jobs[0];
  expect(ok.action).toBe("closed");
  // The branch is not in origin/main: the reaper's rules leave the worktree.
  expect(ok.worktree).toMatch(/^left: /);
  expect(existsSync(s.worktree)).toBe(true);
});

test("orca: flapping status never triggers collection", async () => {
  const w = await world("orca");
  const s = await decidedWithUnmergedWork(w);
  // The simulated agent flaps: each `terminal wait --for tui-idle` takes the next reading (idle, idle, working).
  const setAgent = (fields: Record<string, unknown>) => {
    const file = w.env.ORCA_SIM_STATE!;
    const st = JSON.parse(readFileSync(file, "utf8"));
    const t = st.terminals.find((x: { handle: string }) => x.handle === s.pane_id);
    delete t.agentStatusCycle;
    delete t.agentStatusStep;
    Object.assign(t, fields);
    writeFileSync(file, JSON.stringify(st));
  };
  setAgent({ agentStatusCycle: ["idle", "idle", "working"] });
  const r = await w.run(["worker", "collect", "--owner", "orch-a", "--execute", "--json"]);
  expect(r.code).toBe(0);
  const item = JSON.parse(r.stdout).jobs[0];
  expect(item).toMatchObject({ action: "keep", status: "working" });
  // Orca's raw readings: two satisfied tui-idle waits, then the wait's own timeout (working).
  expect(item.readings).toEqual(["tui-idle", "tui-idle", "timeout"]);
  expect((await w.orca("terminal", "show", "--terminal", s.pane_id, "--json")).code).toBe(0);
  expect(w.ledger().some((x) => x.event === "job_collected")).toBe(false);
  // Steadily idle: collected; the branch is not in origin/main, so the reaper's rules leave the worktree.
  setAgent({ agentStatus: "idle" });
  const ok = JSON.parse((await w.run(["worker", "collect", "--owner", "orch-a", "--execute", "--json"])).stdout).jobs[0];
  expect(ok.action).toBe("closed");
  expect(ok.worktree).toMatch(/^left: /);
  expect((await w.orca("terminal", "show", "--terminal", s.pane_id, "--json")).code).toBe(1);
});

describe("sweep", () => {
  test("herdr: a dead tab is closed, a live agent without a job and an unknown pane are listed", async () => {
    const w = await world("herdr");
    const s = await spawnOk(w, { name: "live-one" });
    // w1:p1 (workspace root) is a bare shell prompt: a dead tab. Add a `vim` pane and an unnamed agent.
    await w.herdr("pane", "split", "w1:p1", "--direction", "right");
    await w.herdr("pane", "split", "w1:p1", "--direction", "down");
    const panes = JSON.parse((await w.herdr("pane", "list")).stdout).result.panes.map((p: { pane_id: string }) => p.pane_id);
    const [vim, agent] = panes.filter((p: string) => p !== "w1:p1" && p !== s.pane_id);
    await w.herdr("fake", "title", vim, "vim", "notes.md");
    await w.herdr("pane", "report-agent", agent, "--source", "x", "--agent", "codex", "--state", "working");
    const dry = JSON.parse((await w.run(["worker", "sweep", "--workspace", "w1", "--json"])).stdout);
    const kinds = Object.fromEntries(dry.panes.map((p: { pane_id: string; kind: string; action: string }) => [p.pane_id, `${p.kind}:${p.action}`]));
    expect(kinds).toEqual({ "w1:p1": "dead_tab:close", [s.pane_id]: "job:keep", [vim]: "read:list", [agent]: "unknown_agent:list" });
    expect((await w.herdr("pane", "get", "w1:p1")).code).toBe(0);
    const r = await w.run(["worker", "sweep", "--workspace", "w1", "--execute", "--json"]);
    expect(r.code).toBe(0);
    expect((await w.herdr("pane", "get", "w1:p1")).code).toBe(1);
    for (const p of [s.pane_id, vim, agent]) expect((await w.herdr("pane", "get", p)).code).toBe(0);
    expect(
      w
        .ledger()
        .filter((x) => x.event === "sweep_closed")
        .map((x) => x.pane_id),
    ).toEqual(["w1:p1"]);
  });

  test("orca: an exited terminal is a dead tab and is closed; a running one is listed", async () => {
    const w = await world("orca");
    await w.orca("repo", "add", "--path", w.f.repo, "--json");
    const mk = async (title: string) => JSON.parse((await w.orca("terminal", "create", "--worktree", `path:${w.f.repo}`, "--title", title, "--json")).stdout).result.terminal.handle as string;
    const dead = await mk("shell");
    const busy = await mk("htop");
    await w.orca("terminal", "send", "--terminal", dead, "--text", "exit", "--enter", "--json");
    const r = await w.run(["worker", "sweep", "--workspace", `path:${w.f.repo}`, "--execute", "--json"]);
    expect(r.code).toBe(0);
    const by = Object.fromEntries(JSON.parse(r.stdout).panes.map((p: { pane_id: string; action: string }) => [p.pane_id, p.action]));
    expect(by).toEqual({ [dead]: "closed", [busy]: "list" });
    const left = (await w.orca("terminal", "list", "--json")).stdout;
    expect(left).not.toContain(dead);
    expect(left).toContain(busy);
  });
});

for (const host of ["herdr", "orca"] as const) {
  test(`${host}: BLOCKERs open rounds; the 4th round is refused and the job escalated`, async () => {
    const w = await world(host);
    const s = await spawnOk(w, { name: "rounds" });
    const blk = findings(w.dir, "f.md", ["- [BLOCKER] test X fails", "- [SHOULD] rename y", "- [NICE] typo"]);
    const v = (file: string) => w.run(["worker", "verdict", "--job", s.job_id, "--findings", file, "--verifier-model", "gpt-5.4", "--verifier-session", "rounds-verify", "--json"]);
    for (const round of [1, 2, 3]) {
      const r = await v(blk);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({
        outcome: "rework",
        round,
        blockers: ["test X fails"],
        followups: [
          { severity: "SHOULD", title: "rename y" },
          { severity: "NICE", title: "typo" },
        ],
      });
    }
    const fourth = await v(blk);
    expect(fourth.code).toBe(4);
    expect(JSON.parse(fourth.stdout)).toMatchObject({ outcome: "escalated", round: 4 });
    expect(
      w
        .ledger()
        .filter((x) => x.event === "job_decision")
        .map((x) => x.state),
    ).toEqual(["escalated"]);
    expect((await w.run(["worker", "decide", "--job", s.job_id, "--state", "merged"])).code).toBe(5);
    expect((await v(blk)).code).toBe(5);
    // Only BLOCKERs count: a SHOULD-only verdict on another job passes.
    const t = await spawnOk(w, { name: "shoulds", issue: "other" });
    const soft = await w.run(["worker", "verdict", "--job", t.job_id, "--findings", findings(w.dir, "s.md", ["- [SHOULD] later"]), "--verifier-model", "gpt-5.4", "--verifier-session", "v2", "--json"]);
    expect(JSON.parse(soft.stdout)).toMatchObject({ outcome: "pass", followups: [{ severity: "SHOULD", title: "later" }] });
  });

  test(`${host}: a T3 job refuses a verifier of the implementer's provider family`, async () => {
    const w = await world(host);
    const s = await spawnOk(w, { name: "t3-job", tier: "T3", path: "deploy/prod.yaml" });
    expect(s).toMatchObject({ tier: "T3", spawn_mode: "worker+cross-family-verifier", provider: "anthropic" });
    const clean = findings(w.dir, "none.md", ["no findings"]);
    const same = await w.run(["worker", "verdict", "--job", s.job_id, "--findings", clean, "--verifier-model", "claude-sonnet-5", "--verifier-session", "t3-verify"]);
    expect(same.code).toBe(3);
    expect(same.stderr).toContain("implementer's provider family");
    const self = await w.run(["worker", "verdict", "--job", s.job_id, "--findings", clean, "--verifier-model", "claude-opus-5", "--verifier-session", "t3-job", "--json"]);
    expect(JSON.parse(self.stdout)).toMatchObject({ outcome: "self_check", independent: false });
    const other = await w.run(["worker", "verdict", "--job", s.job_id, "--findings", clean, "--verifier-model", "gpt-5.4", "--verifier-session", "t3-verify", "--json"]);
    expect(other.code).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ outcome: "pass", independent: true, verifier_provider: "openai" });
  });
}

for (const host of ["herdr", "orca"] as const) {
  test(`${host}: a downgrade is refused and nothing is created; NEEDS_CLASSIFICATION, T0 and a taken name refuse too`, async () => {
    const w = await world(host);
    const down = await w.run(spawnArgs(w, { name: "down", tier: "T1", path: "deploy/prod.yaml" }));
    expect(down.code).toBe(4);
    expect(down.stderr).toContain("downgrade refused");
    expect(JSON.parse(down.stdout).classification).toMatchObject({ verdict: "DOWNGRADE_REFUSED", floor: "T3", tier: "T3" });
    expect(w.ledger()).toEqual([]);
    expect(existsSync(join(w.home, "worktrees"))).toBe(false);
    const cls = await w.run(["worker", "classify", "--path", "deploy/prod.yaml", "--proposed", "T1"]);
    expect(cls.code).toBe(4);
    expect(cls.stdout).toContain("downgrade refused");
    expect((await w.run(spawnArgs(w, { name: "nowhere", path: "unlisted/file.c" }))).code).toBe(3);
    expect((await w.run(spawnArgs(w, { name: "tiny", tier: "T0", path: ".gitignore", extra: ["--diff-lines", "3"] }))).code).toBe(7);
    await spawnOk(w, { name: "taken" });
    const again = await w.run(spawnArgs(w, { name: "taken", issue: "second" }));
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/agent name taken is taken by job taken-impl-/);
  });
}

test("herdr: status records observations, detects stuck, and holds not-working for 2 minutes", async () => {
  const t0 = Date.UTC(2026, 7, 1, 9, 30);
  const w = await world("herdr", { MOGUI_WORKER_NOW: String(t0) });
  const s = await spawnOk(w, { name: "watch" });
  const at = (min: number) => ({ MOGUI_WORKER_NOW: String(t0 + min * 60_000) });
  const st = async (min: number) => JSON.parse((await w.run(["worker", "status", "--owner", "orch-a", "--json"], at(min))).stdout).jobs[0];
  expect(await st(1)).toMatchObject({ status: "working", stuck: false });
  expect(await st(6)).toMatchObject({ stuck: true });
  await w.herdr("fake", "output", s.pane_id, "editing files");
  await w.herdr("pane", "report-agent", s.pane_id, "--source", "t", "--agent", "claude", "--state", "idle");
  expect(await st(7)).toMatchObject({ status: "idle", stuck: false, held: false });
  expect(await st(8)).toMatchObject({ held: false });
  expect(await st(9.5)).toMatchObject({ held: true });
  // A flap back to working resets the hold.
  await w.herdr("pane", "report-agent", s.pane_id, "--source", "t", "--agent", "claude", "--state", "working");
  expect(await st(10)).toMatchObject({ status: "working", held: false });
  await w.herdr("pane", "report-agent", s.pane_id, "--source", "t", "--agent", "claude", "--state", "idle");
  expect(await st(11)).toMatchObject({ held: false });
});

test("classify --repo: paths with Hangul or a tab are read verbatim from the diff (git would quote them otherwise)", async () => {
  const w = await world("herdr");
  const repo = w.f.repo;
  mkdirSync(join(repo, "docs"), { recursive: true });
  writeFileSync(join(repo, "docs", "한글 노트.md"), "one\ntwo\n");
  writeFileSync(join(repo, "docs", "a\tb.md"), "x\n");
  sh(repo, "add", ".");
  sh(repo, "commit", "-q", "-m", "docs");
  writeFileSync(join(repo, "docs", "새.txt"), "new\n");
  const r = await w.run(["worker", "classify", "--repo", repo, "--json"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const c = JSON.parse(r.stdout);
  expect(c.paths.map((p: { path: string }) => p.path).sort()).toEqual(["docs/a\tb.md", "docs/새.txt", "docs/한글 노트.md"].sort());
  expect(c).toMatchObject({ verdict: "CLASSIFIED", tier: "T1", diff_lines: 4, unmatched: [] });
});
