/**
 * spend record / report / watch through main(argv): known token sums from the fixtures, each response counted
 * once (also when its lines straddle two runs), idempotence, torn lines picked up once complete, a replaced
 * transcript, jobs mapped to transcripts through the jobs ledger, the price table, and watch's exit codes.
 */
import { describe, expect, test } from "bun:test";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const FIX = join(ROOT, "fixtures", "transcripts");
const NOW = 1_800_000_000_000;

function home() {
  const dir = tempDir("mogui-spend-");
  const env = { MOGUI_HOME: dir, HOME: dir, PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const run = (argv: string[], now = NOW) => runMain(argv, { env, cwd: dir, now: () => now });
  const rows = () =>
    readFileSync(join(dir, "spend-ledger.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, number | string>);
  return { dir, env, run, rows };
}

const sum = (rows: Record<string, number | string>[], k: string) => rows.reduce((s, r) => s + (r[k] as number), 0);
const assistant = (id: string, model: string, input: number, output: number) =>
  `${JSON.stringify({ type: "assistant", timestamp: "2026-11-30T10:00:00Z", message: { id, role: "assistant", model, content: [], usage: { input_tokens: input, output_tokens: output } } })}\n`;

describe("spend record", () => {
  test("Claude Code fixture: known sums, split responses counted once, malformed counted, torn last line left", async () => {
    const h = home();
    const r = await h.run(["spend", "record", "--job", "j1", "--transcript", join(FIX, "spend-claude.jsonl"), "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).transcripts).toEqual([{ job_id: "j1", transcript: join(FIX, "spend-claude.jsonl"), responses: 3, tokens: 6372, malformed: 1 }]);
    const rows = h.rows();
    expect(rows.map((x) => [x.model, x.input_tokens, x.output_tokens, x.cache_read_tokens, x.cache_creation_tokens, x.tier])).toEqual([
      ["claude-opus-5", 100, 50, 2000, 1000, "top"],
      ["claude-sonnet-5", 10, 200, 3000, 0, "efficient"],
      ["claude-haiku-4-5", 5, 7, 0, 0, "efficient"],
    ]);
    expect(r.stderr).toContain("1 malformed line(s) skipped");
  });

  test("Codex fixture: an unchanged token_count total is not counted again; input excludes the cached part", async () => {
    const h = home();
    expect((await h.run(["spend", "record", "--job", "j2", "--transcript", join(FIX, "spend-codex.jsonl")])).code).toBe(0);
    const rows = h.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: "gpt-5.3-codex", input_tokens: 1100, cache_read_tokens: 1400, output_tokens: 300, responses: 2, format: "codex" });
  });

  test("idempotent: a second run appends nothing; a torn line counts once it is complete; a response straddling runs counts once", async () => {
    const h = home();
    const t = join(h.dir, "s.jsonl");
    copyFileSync(join(FIX, "spend-claude.jsonl"), t);
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    expect(h.rows()).toHaveLength(3);
    // Finish the torn line (msg_4), then write a second line of msg_4 and a new response in the next run.
    appendFileSync(t, `,"output_tokens":1}}}\n`);
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    appendFileSync(t, assistant("msg_4", "claude-opus-5", 99, 1) + assistant("msg_5", "claude-opus-5", 1, 1));
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    const rows = h.rows();
    expect(sum(rows, "responses")).toBe(5);
    expect(sum(rows, "input_tokens")).toBe(115 + 99 + 1);
  });

  test("a crash between saving offsets and appending rows neither loses nor double-counts a response", async () => {
    const h = home();
    const t = join(h.dir, "s.jsonl");
    const ledger = join(h.dir, "spend-ledger.jsonl");
    const statePath = `${ledger}.state.json`;
    writeFileSync(t, assistant("a", "m", 1, 0));
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    const s1 = JSON.parse(readFileSync(statePath, "utf8"));
    const l1 = readFileSync(ledger, "utf8");
    appendFileSync(t, assistant("b", "m", 10, 0));
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    const s2 = JSON.parse(readFileSync(statePath, "utf8"));
    const l2 = readFileSync(ledger, "utf8");
    const crashed = JSON.stringify({ ...s2, pending: { ledger_size: Buffer.byteLength(l1), before: s1.transcripts } });
    // Died before the append: the rows never landed, so the old offsets come back and "b" is counted once.
    writeFileSync(ledger, l1);
    writeFileSync(statePath, crashed);
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    expect(sum(h.rows(), "input_tokens")).toBe(11);
    // Died after the append: the rows landed, so nothing is counted again.
    writeFileSync(ledger, l2);
    writeFileSync(statePath, crashed);
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    expect(sum(h.rows(), "input_tokens")).toBe(11);
    expect(JSON.parse(readFileSync(statePath, "utf8")).pending).toBeUndefined();
  });

  test("a replaced transcript (another inode) is read from the start", async () => {
    const h = home();
    const t = join(h.dir, "s.jsonl");
    writeFileSync(t, assistant("a", "m", 1, 1));
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    writeFileSync(`${t}.new`, assistant("b", "m", 2, 2) + assistant("c", "m", 3, 3));
    renameSync(`${t}.new`, t);
    await h.run(["spend", "record", "--job", "j1", "--transcript", t]);
    expect(sum(h.rows(), "input_tokens")).toBe(6);
  });

  test("jobs map to transcripts through the jobs ledger: Claude Code project dir and Codex session_meta cwd", async () => {
    const h = home();
    const wt = join(h.dir, "wt.feature_1");
    mkdirSync(wt);
    const proj = join(h.dir, ".claude", "projects", wt.replace(/[^A-Za-z0-9]/g, "-"));
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, "sess.jsonl"), assistant("x1", "claude-opus-5", 10, 1));
    const sessions = join(h.dir, ".codex", "sessions", "2026", "11", "30");
    mkdirSync(sessions, { recursive: true });
    const meta = (cwd: string) => `${JSON.stringify({ type: "session_meta", payload: { cwd } })}\n${JSON.stringify({ type: "turn_context", payload: { model: "gpt-5.5" } })}\n`;
    const tc = `${JSON.stringify({ type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 20, cached_input_tokens: 0, output_tokens: 2 } } } })}\n`;
    writeFileSync(join(sessions, "rollout-a.jsonl"), meta(wt) + tc);
    writeFileSync(join(sessions, "rollout-b.jsonl"), meta("/elsewhere") + tc);
    writeFileSync(join(h.dir, "jobs-ledger.jsonl"), `${JSON.stringify({ event: "job_spawned", ts: 1, job_id: "job-a", worktree: wt })}\n${JSON.stringify({ event: "job_spawned", ts: 1, job_id: "job-b", worktree: join(h.dir, "none") })}\n`);
    const r = await h.run(["spend", "record", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.jobs_without_transcript).toEqual(["job-b"]);
    expect(h.rows().map((x) => [x.job_id, x.model, x.input_tokens])).toEqual([
      ["job-a", "claude-opus-5", 10],
      ["job-a", "gpt-5.5", 20],
    ]);
    expect((await h.run(["spend", "record", "--job", "nope"])).code).toBe(2);
  });
});

describe("spend report", () => {
  test("groups, --since, and cost only where the price table prices every model of a group", async () => {
    const h = home();
    await h.run(["spend", "record", "--job", "j1", "--transcript", join(FIX, "spend-claude.jsonl")], NOW - 3 * 86_400_000);
    await h.run(["spend", "record", "--job", "j2", "--transcript", join(FIX, "spend-codex.jsonl")]);
    mkdirSync(join(h.dir, "config"));
    writeFileSync(join(h.dir, "config", "prices.json"), JSON.stringify({ currency: "USD", models: { "gpt-5.3-codex": { input_per_mtok: 1, output_per_mtok: 10, cache_read_per_mtok: 0.1 } } }));
    const all = JSON.parse((await h.run(["spend", "report", "--by", "job", "--json"])).stdout);
    expect(all.groups.map((g: { key: string; total_tokens: number; cost: number | null }) => [g.key, g.total_tokens, g.cost])).toEqual([
      ["j1", 6372, null],
      ["j2", 2800, (1100 * 1 + 300 * 10 + 1400 * 0.1) / 1e6],
    ]);
    expect(all.groups[0].unpriced_models).toEqual(["claude-opus-5", "claude-sonnet-5", "claude-haiku-4-5"]);
    const recent = JSON.parse((await h.run(["spend", "report", "--since", "1d", "--by", "model", "--json"])).stdout);
    expect(recent.groups.map((g: { key: string }) => g.key)).toEqual(["gpt-5.3-codex"]);
    const text = await h.run(["spend", "report", "--by", "tier"]);
    expect(text.stdout).toMatch(/^group +input .* cost_USD\nefficient .* unpriced\(claude-sonnet-5,claude-haiku-4-5\)\ntop .*\nTOTAL /);
    expect((await h.run(["spend", "report", "--by", "week"])).code).toBe(2);
    writeFileSync(join(h.dir, "config", "prices.json"), JSON.stringify({ models: {} }));
    expect((await h.run(["spend", "report"])).code).toBe(2);
  });
});

describe("spend watch", () => {
  test("0 while under, 3 once over, 2 when the transcript cannot be found", async () => {
    const h = home();
    const t = join(h.dir, "s.jsonl");
    writeFileSync(t, assistant("a", "m", 50, 50));
    const under = await h.run(["spend", "watch", "--job", "j", "--transcript", t, "--max-tokens", "100"]);
    expect(under.code).toBe(0);
    expect(under.stdout).toBe("job=j tokens=100 max_tokens=100 under\n");
    appendFileSync(t, assistant("b", "m", 1, 0));
    expect((await h.run(["spend", "watch", "--job", "j", "--transcript", t, "--max-tokens", "100"])).code).toBe(3);
    writeFileSync(join(h.dir, "jobs-ledger.jsonl"), `${JSON.stringify({ event: "job_spawned", ts: 1, job_id: "lost", worktree: join(h.dir, "gone") })}\n`);
    const lost = await h.run(["spend", "watch", "--job", "lost", "--max-tokens", "100"]);
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain("TRANSCRIPT_NOT_FOUND");
    expect((await h.run(["spend", "watch", "--job", "j", "--transcript", join(h.dir, "missing.jsonl"), "--max-tokens", "1"])).code).toBe(2);
    expect((await h.run(["spend", "watch", "--job", "j", "--max-tokens", "ten"])).code).toBe(2);
  });

  test("--transcript naming a directory is a one-line usage error (exit 2), never an internal EISDIR", async () => {
    const h = home();
    for (const cmd of ["watch", "record"]) {
      const r = await h.run(["spend", cmd, "--job", "j", "--transcript", h.dir, ...(cmd === "watch" ? ["--max-tokens", "10"] : [])]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split("\n")[0]).toContain(`--transcript ${h.dir} is not a file`);
      expect(r.stderr).not.toContain("EISDIR");
    }
  });
});

describe("spend: the declared exits by name", () => {
  test("unknownJob, transcriptNotFound, invalidPrices and a bad --by are exit 2 with one line; nothing appended", async () => {
    const h = home();
    const ledger = join(h.dir, "spend-ledger.jsonl");
    const unknown = await h.run(["spend", "record", "--job", "nobody", "--spend-ledger", ledger]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("spend record: no job nobody in ")]);
    const missing = await h.run(["spend", "record", "--job", "j", "--transcript", join(h.dir, "nope.jsonl"), "--spend-ledger", ledger]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("spend record: TRANSCRIPT_NOT_FOUND: ")]);
    const prices = join(h.dir, "prices.json");
    writeFileSync(prices, "{not json");
    const bad = await h.run(["spend", "report", "--prices", prices]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining(`spend: price table ${prices}: not valid JSON`)]);
    expect((await h.run(["spend", "report", "--by", "week"])).code).toBe(2);
    expect(() => readFileSync(ledger, "utf8")).toThrow();
  });
});
