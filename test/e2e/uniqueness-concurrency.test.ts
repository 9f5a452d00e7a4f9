/**
 * Issue 24 §3: every check-then-append rule holds under concurrency. Per rule, several trials of 32 REAL processes
 * of the compiled binary started at once against one ledger; exactly one writer wins and the ledger holds exactly
 * one such row. Rules: an active track (`tracks register T-SAME`), a lineage generation (`lineage append`), a worker
 * name taken (`worker spawn --name same`, distinct job ids), a spend record counted once (`spend record` of one
 * transcript), and the gate's spend cap (`dispatch-gate check`, which holds today: kept).
 *
 * Trials: MOGUI_CONCURRENCY_TRIALS (default 3). The figures are printed.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/paths.ts";
import { spawnArgs, world } from "./cases/workers.ts";

const TRIALS = Number(process.env.MOGUI_CONCURRENCY_TRIALS ?? 2);
const WRITERS = 32;

function rows(path: string): Record<string, unknown>[] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

async function burst(argv: (i: number) => string[], env: Record<string, string>, cwd?: string) {
  return Promise.all(Array.from({ length: WRITERS }, (_, i) => runBinary(argv(i), { env, cwd })));
}

const figures: Record<string, number[]> = {};
function note(rule: string, winners: number): void {
  (figures[rule] ??= []).push(winners);
  console.log(`uniqueness under concurrency: ${rule} trial ${figures[rule]!.length}: ${winners} of ${WRITERS} writers won`);
}

describe(`${WRITERS} concurrent writers, ${TRIALS} trials per rule: exactly one wins`, () => {
  test("tracks register T-SAME: one REGISTERED row, 31 refused", async () => {
    for (let t = 0; t < TRIALS; t++) {
      const home = tempDir("conc-tracks-");
      const ledger = join(home, "work-ledger.jsonl");
      // A ledger with history: each writer's replay takes long enough that an unlocked check overlaps the others.
      let hist = "";
      for (let k = 0; k < 10_000; k++) hist += `${JSON.stringify({ event: "register", track_id: `T-${k}`, title: "old", refs: [], ts: 1 })}\n${JSON.stringify({ event: "close", track_id: `T-${k}`, resolution: "done", ts: 2 })}\n`;
      writeFileSync(ledger, hist);
      const runs = await burst(() => ["tracks", "register", "T-SAME", "--title", "one track", "--ledger", ledger], e2eEnv({ MOGUI_HOME: home }));
      const won = runs.filter((r) => r.code === 0).length;
      note("tracks register", won);
      expect(won).toBe(1);
      // Every loser is refused by the rule, or (on a loaded machine: each holder replays the whole ledger) by the
      // lock's bounded wait (D33, 10 s); neither appends.
      const losers = runs.filter((r) => r.code !== 0);
      for (const r of losers) expect(r.stderr.includes("track already active: T-SAME") || /LEDGER_UNAVAILABLE: .*could not take lock/.test(r.stderr)).toBe(true);
      const waited = losers.filter((r) => r.stderr.includes("could not take lock")).length;
      if (waited) console.log(`uniqueness under concurrency: tracks register: ${waited} losers gave up waiting for the lock (bounded wait)`);
      expect(rows(ledger).filter((r) => r.event === "register" && r.track_id === "T-SAME").length).toBe(1);
    }
  }, 180_000);

  test("lineage append of one generation: one section", async () => {
    for (let t = 0; t < TRIALS; t++) {
      const home = tempDir("conc-lineage-");
      const ledger = join(home, "MASTER-LINEAGE.md");
      const entry = join(home, "entry.json");
      writeFileSync(
        entry,
        JSON.stringify({
          generation: 7,
          parent_session: "a",
          successor_session: "b",
          timestamp: "2026-12-03T10:00:00Z",
          inherited_role: "master",
          succession_reason: "context",
          recovery_sources: "ledger",
          inherited_open_tracks: "none",
          verification: "PASS",
          repeated_question_count: 0,
          reopened_decision_count: 0,
          context_loss_summary: "none",
          predecessor_retirement_verified: "yes",
        }),
      );
      const runs = await burst(() => ["lineage", "append", "--ledger", ledger, "--entry", entry], e2eEnv({ MOGUI_HOME: home }));
      const won = runs.filter((r) => r.code === 0).length;
      note("lineage append", won);
      expect(won).toBe(1);
      expect(
        readFileSync(ledger, "utf8")
          .split("\n")
          .filter((l) => l === "- **Generation**: 7").length,
      ).toBe(1);
    }
  }, 180_000);

  test("spend record of one transcript: each response counted once", async () => {
    for (let t = 0; t < TRIALS; t++) {
      const home = tempDir("conc-spend-");
      const transcript = join(home, "session.jsonl");
      writeFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { id: "m1", role: "assistant", model: "claude-sonnet-5", usage: { input_tokens: 1200, output_tokens: 300 } } })}\n`);
      const ledger = join(home, "spend-ledger.jsonl");
      const runs = await burst(() => ["spend", "record", "--job", "job-1", "--transcript", transcript, "--spend-ledger", ledger, "--json"], e2eEnv({ MOGUI_HOME: home }));
      for (const r of runs) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      const spend = rows(ledger).filter((r) => r.event === "spend");
      note("spend record", spend.length);
      expect(spend.length).toBe(1);
      expect(spend.reduce((a, r) => a + (r.input_tokens as number) + (r.output_tokens as number), 0)).toBe(1500);
    }
  }, 180_000);

  test("worker spawn with one agent name (distinct job ids): one spawned, 31 refused as taken", async () => {
    for (let t = 0; t < TRIALS; t++) {
      const w = await world("herdr");
      const brief = w.brief("T1");
      const runs = await burst((i) => spawnArgs(w, { name: "same-name", issue: `iss${i}` }).map((a, k, all) => (all[k - 1] === "--brief" ? brief : a)), w.env, w.dir);
      const won = runs.filter((r) => r.code === 0);
      note("worker spawn --name", won.length);
      expect(won.length).toBe(1);
      for (const r of runs.filter((r) => r.code !== 0)) expect({ code: r.code, taken: r.stdout.includes("agent name same-name is taken") || r.stdout.includes("is being spawned") }).toEqual({ code: 5, taken: true });
      expect(w.ledger().filter((r) => r.event === "job_spawned").length).toBe(1);
    }
  }, 300_000);

  test("dispatch-gate check with a spend cap: the cap holds (all denied over it, all allowed under it)", async () => {
    for (let t = 0; t < TRIALS; t++) {
      const home = tempDir("conc-gate-");
      const contract = join(home, "c.md");
      writeFileSync(contract, "implement the parser\n");
      const policy = join(home, "p.json");
      writeFileSync(policy, JSON.stringify({ version: 2, tiers: { top: ["m-top"], efficient: ["m-eff"] }, fanout_caps: {}, spend_caps: { efficient: 1000 }, window_seconds: 86400 }));
      const spend = join(home, "spend-ledger.jsonl");
      const now = Date.now() / 1000;
      writeFileSync(spend, `${JSON.stringify({ event: "spend", ts: now, job_id: "j", model: "m-eff", tier: "efficient", input_tokens: 900, output_tokens: 200, cache_read_tokens: 0, cache_creation_tokens: 0, responses: 1 })}\n`);
      const env = e2eEnv({ MOGUI_HOME: home, MOGUI_SPEND_LEDGER: spend });
      const args = ["dispatch-gate", "check", "--runtime", "codex", "--model", "m-eff", "--contract", contract, "--agents", "1", "--completion-channel", "orchestration", "--tier-policy", policy];
      const over = await burst(() => args, env);
      expect(over.map((r) => r.code)).toEqual(Array(WRITERS).fill(2));
      const denied = rows(join(home, "dispatch-ledger.jsonl")).filter((r) => r.decision === "DENY" && r.reason === "SPEND_CAP_EXCEEDED").length;
      note("gate spend cap (denied over the cap)", denied);
      expect(denied).toBe(WRITERS);
    }
  }, 180_000);
});
