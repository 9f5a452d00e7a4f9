// The T1 path end to end through the compiled binary, on BOTH fakes: spawned, landed, pushed (temp bare remote),
// verified, merged and collected; and a brief that never lands (exit 76, still recorded).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sh, squashMerge } from "../../helpers/git.ts";
import { spawnArgs, spawnOk, world, type World } from "../cases/workers.ts";

/** Set the Orca simulator's agent status for a terminal (a simulation-only state field, fixtures/scenarios/README.md). */
function orcaAgent(w: World, handle: string, agentStatus: string): void {
  const file = w.env.ORCA_SIM_STATE!;
  const st = JSON.parse(readFileSync(file, "utf8"));
  Object.assign(
    st.terminals.find((t: { handle: string }) => t.handle === handle),
    { agentStatus },
  );
  writeFileSync(file, JSON.stringify(st));
}

for (const host of ["herdr", "orca"] as const) {
  describe(`workers on ${host}`, () => {
    test("a T1 job: spawned, landed, pushed, verified, merged, collected", async () => {
      const w = await world(host);
      const s = await spawnOk(w, { name: "rob1-fix" });
      expect(s).toMatchObject({ spawned: true, tier: "T1", spawn_mode: "worker+self-check", host, owner: "orch-a", provider: "anthropic" });
      expect(s.job_id).toMatch(/^rob1fix-impl-\d{8}-\d{4}$/);
      expect(s.landing).toMatchObject({ landed: true, attempts: 1, reinjected: false });
      expect(existsSync(join(s.inbox, "brief.md"))).toBe(true);
      expect(sh(s.worktree, "rev-parse", "HEAD")).toBe(sh(w.f.repo, "rev-parse", "origin/main"));

      // The worker's side: commit, push, report.
      writeFileSync(join(s.worktree, "a.txt"), "work\n");
      sh(s.worktree, "add", ".");
      sh(s.worktree, "commit", "-q", "-m", "work");
      sh(s.worktree, "push", "-q", "origin", "HEAD");
      const sha = sh(s.worktree, "rev-parse", "HEAD");

      const early = await w.run(["worker", "collect", "--owner", "orch-a", "--json"]);
      expect(JSON.parse(early.stdout).jobs[0]).toMatchObject({ action: "keep", state: "running" });

      const wrong = await w.run(["worker", "verify-push", "--job", s.job_id, "--sha", "0123456789abcdef"]);
      expect(wrong.code).toBe(3);
      expect(wrong.stderr).toContain(sha);
      expect(wrong.stderr).toContain("0123456789abcdef");
      expect((await w.run(["worker", "decide", "--job", s.job_id, "--state", "merged"])).code).toBe(3);

      writeFileSync(join(s.inbox, "report.md"), `all ACs hold\nPush SHA: ${sha}\n`);
      expect((await w.run(["worker", "verify-push", "--job", s.job_id])).code).toBe(0);
      expect((await w.run(["worker", "decide", "--job", s.job_id, "--state", "merged"])).code).toBe(0);

      // The brief made the agent work (on Orca: the simulated agent status); a working pane is never collected.
      if (host === "orca") orcaAgent(w, s.pane_id, "working");
      const busy = JSON.parse((await w.run(["worker", "collect", "--owner", "orch-a", "--json"])).stdout);
      expect(busy.jobs[0]).toMatchObject({ action: "keep", status: "working" });
      if (host === "herdr") expect((await w.herdr("pane", "report-agent", s.pane_id, "--source", "t", "--agent", "claude", "--state", "idle")).code).toBe(0);
      else orcaAgent(w, s.pane_id, "idle");
      const dry = JSON.parse((await w.run(["worker", "collect", "--owner", "orch-a", "--json"])).stdout);
      expect(dry.jobs[0]).toMatchObject({ action: "close", reasons: [] });

      squashMerge(w.f, s.branch);
      const done = await w.run(["worker", "collect", "--owner", "orch-a", "--execute", "--json"]);
      expect(done.code).toBe(0);
      expect(JSON.parse(done.stdout).jobs[0]).toMatchObject({ action: "closed", worktree: "removed" });
      expect(existsSync(s.worktree)).toBe(false);
      const panes = host === "herdr" ? (await w.herdr("pane", "list")).stdout : (await w.orca("terminal", "list", "--json")).stdout;
      expect(panes).not.toContain(s.pane_id);
      expect(w.ledger().map((r) => r.event)).toEqual(["job_spawned", "job_landing", "push_verified", "push_verified", "job_decision", "job_collected"]);
      const again = await w.run(["worker", "collect", "--owner", "orch-a"]);
      expect(again.stdout).toContain("No uncollected jobs for owner orch-a");
    });

    test("a brief that never lands: exit 76 with --landing-strict, one re-injection, the job still recorded", async () => {
      // Both fakes accept the send, and the text never shows up in the pane.
      const fault: Record<string, string> = host === "herdr" ? { HERDR_SIM_FAULT: "agent prompt=swallow" } : { ORCA_SIM_FAULT: "terminal send=swallow" };
      const w = await world(host, fault);
      const r = await w.run(spawnArgs(w, { name: "lost-brief", extra: ["--landing-strict"] }));
      expect(r.code).toBe(76);
      expect(r.stderr).toContain("did not land");
      const doc = JSON.parse(r.stdout);
      expect(doc.landing).toMatchObject({ landed: false, attempts: 2, reinjected: true });
      const rows = w.ledger();
      expect(rows.map((x) => x.event)).toEqual(["job_spawned", "job_landing"]);
      expect(rows[1]).toMatchObject({ landed: false, attempts: 2 });
      // Without --landing-strict the same miss is a warning, exit 0.
      const soft = await w.run(spawnArgs(w, { name: "lost-brief2", issue: "other" }));
      expect(soft.code).toBe(0);
      expect(JSON.parse(soft.stdout).landing.landed).toBe(false);
    });
  });
}

test("herdr: a cold-start loss is re-injected once and then lands", async () => {
  const w = await world("herdr");
  const state = JSON.parse((await w.herdr("workspace", "list")).stdout);
  expect(state.result.workspaces).toHaveLength(1);
  // One swallowed send (state fault with times: 1), like a cold-start loss.
  const file = w.env.HERDR_SIM_STATE!;
  const s = JSON.parse(await Bun.file(file).text());
  s.faults = [{ command: "agent prompt", mode: "swallow", times: 1 }];
  await Bun.write(file, JSON.stringify(s));
  const out = await spawnOk(w, { name: "cold-start" });
  expect(out.landing).toMatchObject({ landed: true, attempts: 2, reinjected: true });
});

test("herdr: codex gets the longer landing window (policy: 2 s default, 4 s codex in these tests)", async () => {
  const w = await world("herdr", { HERDR_SIM_FAULT: "agent prompt=swallow" });
  const claude = JSON.parse((await w.run(spawnArgs(w, { name: "w-claude" }))).stdout);
  const codex = JSON.parse((await w.run(spawnArgs(w, { name: "w-codex", issue: "cx", model: "gpt-5.4" }))).stdout);
  // Backoff 0.5, 1, then 2 s steps (the last one cut to the window): 2 s -> 3 reads, 4 s -> 4 reads, per injection.
  expect(claude.landing.reads).toBe(6);
  expect(codex.landing.reads).toBe(8);
});

test("herdr: an agent that fails to start leaves no pane, worktree, branch or job behind; a retry succeeds", async () => {
  const w = await world("herdr", { MOGUI_WORKER_NOW: String(Date.UTC(2026, 7, 1, 9, 30)) });
  const fail = await w.run(spawnArgs(w, { name: "nostart" }), { HERDR_SIM_FAULT: "agent start=error:agent_start_failed" });
  expect(fail.code).toBe(1);
  expect(fail.stderr).toMatch(/^worker spawn: herdr could not start the agent: .*agent_start_failed.* \(worktree removed\)\n$/);
  expect(w.ledger()).toEqual([]);
  const panes = JSON.parse((await w.herdr("pane", "list")).stdout).result.panes.map((p: { pane_id: string }) => p.pane_id);
  expect(panes).toEqual(["w1:p1"]);
  expect(sh(w.f.repo, "branch", "--list", "worker/*")).toBe("");
  // Same minute, same job id, same branch: the retry must be able to create it again.
  const ok = await spawnOk(w, { name: "nostart" });
  expect(ok.branch).toBe("worker/nostart-impl-20260801-0930");
});
