// collect and status against a scripted host (any host: this is how Orca's side is covered for flapping, which
// the Orca simulator cannot produce).
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Host } from "../../../src/lib/host/types.ts";
import { collectJob } from "../../../src/workers/worker/collect.ts";
import { loadJobs, record, type Job } from "../../../src/workers/worker/jobs.ts";
import { observeJob } from "../../../src/workers/worker/status.ts";
import { tempDir } from "../../helpers/paths.ts";
import { unitCtx } from "../../helpers/unit-ctx.ts";

function scripted(statuses: string[], output: () => string = () => "x") {
  let i = 0;
  const closed: string[] = [];
  const host = {
    kind: "orca" as const,
    closed,
    async status() {
      const s = statuses[Math.min(i++, statuses.length - 1)]!;
      return { status: s as never, raw: s };
    },
    async closePane(p: string) {
      closed.push(p);
    },
    async readRecent() {
      return output();
    },
  };
  return host as unknown as Host & { closed: string[] };
}

async function setup(state: "running" | "merged", report: boolean, env: Record<string, string> = {}) {
  const dir = tempDir("workers-collect-");
  const ledger = join(dir, "jobs.jsonl");
  const inbox = join(dir, "inbox", "j1");
  mkdirSync(inbox, { recursive: true });
  if (report) writeFileSync(join(inbox, "report.md"), "done\n");
  let now = Date.UTC(2026, 7, 1, 9, 0);
  const ctx = unitCtx({ env: { MOGUI_WORKER_TIME_SCALE: "0.0001", ...env }, cwd: dir, now: () => now });
  record(ctx, ledger, "t", { event: "job_spawned", job_id: "j1", owner: "o", pane_id: "term_1", host: "orca", inbox, worktree: join(dir, "gone-wt"), tier: "T1", agent_name: "a" });
  record(ctx, ledger, "t", { event: "job_landing", job_id: "j1", landed: true, output_digest: "2d711642b726b044" });
  if (state === "merged") record(ctx, ledger, "t", { event: "job_decision", job_id: "j1", state: "merged" });
  const job = async (): Promise<Job> => (await loadJobs(ctx, ledger, "t")).get("j1")!;
  return { ctx, ledger, job, advance: (ms: number) => (now += ms) };
}

const opts = (ledger: string, execute: boolean) => ({ execute, readings: 3, intervalMs: 2000, ledger, cmd: "t" });

describe("collect", () => {
  test("a flapping pane (idle, idle, working) is kept even though the job is merged with a report", async () => {
    const s = await setup("merged", true);
    const host = scripted(["idle", "idle", "working"]);
    const item = await collectJob(s.ctx, host, await s.job(), opts(s.ledger, true));
    expect(item).toMatchObject({ action: "keep", status: "working", readings: ["idle", "idle", "working"] });
    expect(host.closed).toEqual([]);
  });

  test("all three conditions: only then is the pane closed (and never in a dry run)", async () => {
    const s = await setup("merged", true);
    expect(await collectJob(s.ctx, scripted(["idle"]), await s.job(), opts(s.ledger, false))).toMatchObject({ action: "close", reasons: [] });
    const host = scripted(["idle"]);
    const done = await collectJob(s.ctx, host, await s.job(), opts(s.ledger, true));
    expect(done).toMatchObject({ action: "closed", worktree: "left: Worktree path does not exist" });
    expect(host.closed).toEqual(["term_1"]);
    expect(readFileSync(s.ledger, "utf8")).toContain('"event":"job_collected"');
  });

  test("a non-working pane whose job awaits a decision is kept, and said so; no report file keeps it too", async () => {
    const a = await setup("running", true);
    expect((await collectJob(a.ctx, scripted(["idle"]), await a.job(), opts(a.ledger, true))).reasons[0]).toContain("awaits a decision");
    const b = await setup("merged", false);
    expect((await collectJob(b.ctx, scripted(["idle"]), await b.job(), opts(b.ledger, true))).reasons[0]).toContain("no final report file");
  });
});

describe("status", () => {
  test("stuck after 5 minutes without an output change; a changed output clears it", async () => {
    const s = await setup("running", false);
    let out = "x";
    const host = scripted(["working"], () => out);
    s.advance(4 * 60_000);
    expect(await observeJob(s.ctx, host, await s.job(), s.ledger)).toMatchObject({ stuck: false, status: "working" });
    s.advance(2 * 60_000);
    expect(await observeJob(s.ctx, host, await s.job(), s.ledger)).toMatchObject({ stuck: true });
    out = "y";
    expect(await observeJob(s.ctx, host, await s.job(), s.ledger)).toMatchObject({ stuck: false });
  });
});
