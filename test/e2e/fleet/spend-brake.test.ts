// The spend brake (D44, issue 29) through the compiled binary: `hook spend-brake` on a real Claude Code transcript
// that grows between hook calls (several content blocks per response, a torn last line), the wiring that
// `worker spawn --max-tokens` and `mogui dispatch --max-tokens` write, `spend watch --follow` on a growing Codex
// rollout interrupting the agent through the herdr and Orca simulators, and the quota windows.
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary, binaryPath } from "../../helpers/binary.ts";
import { sh } from "../../helpers/git.ts";
import { dispatchEnv } from "../../helpers/dispatch.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";
import { spawnOk, world } from "../cases/workers.ts";

const rows = (p: string): Record<string, any>[] =>
  existsSync(p)
    ? readFileSync(p, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

/** One Claude Code response written as one line per content block, each carrying the same id and usage. */
function claudeResponse(id: string, usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number }, blocks = 3): string {
  const u = { input_tokens: usage.input, output_tokens: usage.output, cache_read_input_tokens: usage.cacheRead ?? 0, cache_creation_input_tokens: usage.cacheWrite ?? 0 };
  const kinds = [
    { type: "thinking", thinking: "..." },
    { type: "text", text: "Looking." },
    { type: "tool_use", id: `t-${id}`, name: "Bash", input: { command: "ls" } },
  ];
  let out = "";
  for (let i = 0; i < blocks; i++) {
    out += `${JSON.stringify({ type: "assistant", requestId: `req-${id}`, timestamp: "2026-12-03T10:00:00Z", message: { id, role: "assistant", model: "claude-sonnet-5", content: [kinds[i % 3]], usage: u } })}\n`;
    out += `${JSON.stringify({ type: "user", timestamp: "2026-12-03T10:00:01Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t-${id}`, content: "ok" }] } })}\n`;
  }
  return out;
}

function brakeWorld() {
  const dir = tempDir("mogui-brake-");
  const home = join(dir, "home");
  const transcript = join(dir, "projects", "-wt-fix", "session.jsonl");
  mkdirSync(join(dir, "projects", "-wt-fix"), { recursive: true });
  writeFileSync(transcript, "");
  const env = e2eEnv({ MOGUI_HOME: home });
  const input = JSON.stringify({ session_id: "s1", transcript_path: transcript, cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
  const call = (max = 10_000, job = "job-7") => runBinary(["hook", "spend-brake", "--job", job, "--max-tokens", String(max)], { env, stdin: input });
  return { dir, home, transcript, env, call, ledger: join(home, "spend-ledger.jsonl") };
}

describe("hook spend-brake", () => {
  test("silent under 80%, one warning at 80%, every call denied past the cap; each response counted once", async () => {
    const w = brakeWorld();
    // 1 response (3 content-block lines, one usage) = 1000 + 2000 + 1500 + 500 = 5000 tokens.
    appendFileSync(w.transcript, claudeResponse("msg_1", { input: 1000, output: 2000, cacheRead: 1500, cacheWrite: 500 }));
    const a = await w.call();
    expect(a).toEqual({ code: 0, stdout: "", stderr: "" });
    // The second response arrives in two writes: the first one tears its last line.
    const second = claudeResponse("msg_2", { input: 1000, output: 2000 });
    const cut = 50; // inside the response's first line (the one whose usage counts)
    appendFileSync(w.transcript, second.slice(0, cut));
    const b = await w.call();
    expect(b).toEqual({ code: 0, stdout: "", stderr: "" }); // the torn line is not read yet: the total stays 5000 + 3000
    appendFileSync(w.transcript, second.slice(cut));
    const c = await w.call();
    expect(c.code).toBe(0); // 8000 of 10000: the one warning
    const warn = JSON.parse(c.stdout);
    expect(warn.hookSpecificOutput).toMatchObject({ hookEventName: "PreToolUse" });
    expect(warn.hookSpecificOutput.additionalContext).toContain("8000 of its 10000 tokens (80%)");
    expect(warn.systemMessage).toBe(warn.hookSpecificOutput.additionalContext);
    expect(await w.call()).toEqual({ code: 0, stdout: "", stderr: "" }); // warned once only
    appendFileSync(w.transcript, claudeResponse("msg_3", { input: 2000, output: 1000 }));
    for (let i = 0; i < 2; i++) {
      const d = await w.call();
      expect(d.code).toBe(2);
      expect(d.stdout).toBe("");
      expect(d.stderr).toContain("DENIED: job job-7 used 11000 tokens, over its cap of 10000 (110%)");
      expect(d.stderr).toContain("write your report");
      expect(d.stderr).toContain("the operator must raise the cap");
    }
    const brake = rows(w.ledger).filter((r) => r.event === "spend_brake");
    expect(brake.map((r) => [r.action, r.tokens, r.max_tokens])).toEqual([
      ["warn", 8000, 10000],
      ["deny", 11000, 10000],
      ["deny", 11000, 10000],
    ]);
    // A raised cap lets the job go on (the same state: nothing re-read or re-counted).
    expect(await w.call(20_000)).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("reads only the new bytes: the state's offset is the transcript's size after each call", async () => {
    const w = brakeWorld();
    const big = claudeResponse("m0", { input: 1, output: 1 }).repeat(1);
    appendFileSync(w.transcript, big);
    for (let i = 1; i <= 5; i++) {
      appendFileSync(w.transcript, claudeResponse(`m${i}`, { input: 10, output: 10 }));
      expect((await w.call()).code).toBe(0);
      const [state] = [...new Bun.Glob("spend-brake/*.json").scanSync({ cwd: w.home })].map((f) => JSON.parse(readFileSync(join(w.home, f), "utf8")));
      expect(state.transcripts[w.transcript].cursor.offset).toBe(Bun.file(w.transcript).size);
      expect(state.transcripts[w.transcript].tokens).toBe(2 + 20 * i);
    }
  });

  test("16 concurrent hook calls of one session: every response counted once, one warning", async () => {
    const w = brakeWorld();
    for (let i = 0; i < 17; i++) appendFileSync(w.transcript, claudeResponse(`c${i}`, { input: 250, output: 250 })); // 8500
    const all = await Promise.all(Array.from({ length: 16 }, () => w.call()));
    expect(all.map((r) => r.code)).toEqual(Array(16).fill(0));
    expect(all.filter((r) => r.stdout.includes("systemMessage"))).toHaveLength(1);
    expect(
      rows(w.ledger)
        .filter((r) => r.action === "warn")
        .map((r) => r.tokens),
    ).toEqual([8500]);
    appendFileSync(w.transcript, claudeResponse("c-last", { input: 2000, output: 0 }));
    const denied = await Promise.all(Array.from({ length: 16 }, () => w.call()));
    expect(denied.map((r) => r.code)).toEqual(Array(16).fill(2));
    expect(new Set(denied.map((r) => /used (\d+) tokens/.exec(r.stderr)?.[1]))).toEqual(new Set(["10500"]));
  });

  test("never blocks a call it cannot measure; every exit is 0 or 2 without a stack trace", async () => {
    const w = brakeWorld();
    const inputs = ["", "not json", "[1,2]", JSON.stringify({ transcript_path: 7 }), JSON.stringify({ transcript_path: join(w.dir, "missing.jsonl") }), JSON.stringify({ transcript_path: w.dir })];
    for (const stdin of inputs) {
      const r = await runBinary(["hook", "spend-brake", "--job", "j", "--max-tokens", "10"], { env: w.env, stdin });
      expect({ stdin, code: r.code }).toEqual({ stdin, code: 0 });
      expect(r.stderr).not.toMatch(/\n\s+at |TypeError|Error:/);
    }
    const usage = await runBinary(["hook", "spend-brake", "--job", "j"], { env: w.env, stdin: "{}" });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--max-tokens");
  });
});

describe("wiring the brake", () => {
  test("worker spawn --max-tokens: the hook in the worktree's .claude/settings.local.json, kept out of git, the cap on the job row", async () => {
    const w = await world("herdr");
    const s = await spawnOk(w, { name: "brake-fix", extra: ["--max-tokens", "50000"] });
    expect(s).toMatchObject({ spawned: true, max_tokens: 50000 });
    const settings = JSON.parse(readFileSync(join(s.worktree, ".claude", "settings.local.json"), "utf8"));
    expect(settings).toEqual({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `${binaryPath()} hook spend-brake --job ${s.job_id} --max-tokens 50000` }] }] } });
    expect(sh(s.worktree, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(w.ledger()[0]).toMatchObject({ event: "job_spawned", max_tokens: 50000, max_tokens_source: "flag" });
    // The wired command is the brake itself: it runs and allows (nothing spent yet).
    const cmd = settings.hooks.PreToolUse[0].hooks[0].command as string;
    const p = Bun.spawnSync(["sh", "-c", cmd], { env: w.env, stdin: new TextEncoder().encode(JSON.stringify({ transcript_path: join(w.dir, "none.jsonl") })) });
    expect(p.exitCode).toBe(0);
  });

  test("worker spawn without a cap wires nothing", async () => {
    const w = await world("herdr");
    const s = await spawnOk(w, { name: "nobrake-fix" });
    expect(existsSync(join(s.worktree, ".claude", "settings.local.json"))).toBe(false);
    expect(w.ledger()[0]!.max_tokens).toBeUndefined();
  });
});

/** A Codex rollout at a cumulative total (the watcher's transcript). */
function codexTotal(input: number, cached: number, output: number): string {
  return `${JSON.stringify({ type: "event_msg", timestamp: "2026-12-03T10:00:00Z", payload: { type: "token_count", info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, total_tokens: input + output } } } })}\n`;
}
const CODEX_HEAD = `${JSON.stringify({ type: "session_meta", timestamp: "2026-12-03T10:00:00Z", payload: { id: "r1", cwd: "/w" } })}\n${JSON.stringify({ type: "turn_context", timestamp: "2026-12-03T10:00:00Z", payload: { model: "gpt-5.3-codex" } })}\n`;

async function waitFor(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await Bun.sleep(50);
  }
}

describe("spend watch --follow", () => {
  test("herdr: a growing Codex rollout, a warning at 80%, the agent interrupted past the cap, the job escalated, exit 3", async () => {
    const w = await world("herdr");
    const s = await spawnOk(w, { name: "watch-fix", model: "gpt-5.3-codex", extra: ["--kind", "codex", "--max-tokens", "10000"] });
    expect(existsSync(join(s.worktree, ".claude"))).toBe(false); // codex: no hook, the watcher is its brake
    const rollout = join(w.dir, "rollout.jsonl");
    writeFileSync(rollout, CODEX_HEAD + codexTotal(3000, 1000, 1000)); // 4000
    const log = join(w.dir, "herdr-calls.jsonl");
    const env = { ...w.env, HERDR_SIM_CALL_LOG: log };
    const p = Bun.spawn([binaryPath(), "spend", "watch", "--follow", "--job", s.job_id, "--transcript", rollout, "--interval-s", "1"], { env, cwd: w.dir, stdout: "pipe", stderr: "pipe" });
    const errText = new Response(p.stderr).text();
    await Bun.sleep(300);
    appendFileSync(rollout, codexTotal(7000, 2000, 1500)); // 8500: 85%
    await waitFor(() => rows(join(w.home, "spend-ledger.jsonl")).some((r) => r.action === "warn"));
    appendFileSync(rollout, codexTotal(9000, 3000, 2000)); // 11000: over
    const code = await p.exited;
    const out = await new Response(p.stdout).text();
    expect(code).toBe(3);
    expect(out).toContain(`job=${s.job_id} tokens=11000 max_tokens=10000 OVER: interrupted (herdr pane send-keys ${s.pane_id} esc); marked escalated`);
    expect(await errText).toContain("8500 of its 10000 tokens (85%)");
    const calls = rows(log).map((c) => c.argv.join(" "));
    expect(calls).toContain(`pane send-keys ${s.pane_id} esc`);
    const brake = rows(join(w.home, "spend-ledger.jsonl")).filter((r) => r.event === "spend_brake");
    expect(brake.map((r) => [r.action, r.tokens])).toEqual([
      ["warn", 8500],
      ["interrupt", 11000],
    ]);
    expect(brake[1]).toMatchObject({ host: "herdr", pane: s.pane_id, delivered: true, source: "watch" });
    expect(w.ledger().at(-1)).toMatchObject({ event: "job_decision", job_id: s.job_id, state: "escalated", by: "spend watch --follow" });
    // The agent was interrupted, not killed: the pane and its agent are still there.
    expect((await w.herdr("pane", "get", s.pane_id)).code).toBe(0);
  });

  test("orca: past the cap the terminal gets `terminal send --interrupt`", async () => {
    const w = await world("orca");
    const s = await spawnOk(w, { name: "orca-watch", model: "gpt-5.3-codex", extra: ["--kind", "codex", "--max-tokens", "1000"] });
    const rollout = join(w.dir, "rollout.jsonl");
    writeFileSync(rollout, CODEX_HEAD + codexTotal(3000, 1000, 500));
    const log = join(w.dir, "orca-calls.jsonl");
    const r = await w.run(["spend", "watch", "--follow", "--job", s.job_id, "--transcript", rollout, "--json"], { ORCA_SIM_CALL_LOG: log });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ job_id: s.job_id, tokens: 3500, max_tokens: 1000, over: true, interrupted: true, escalated: true });
    const sends = rows(log)
      .filter((c) => c.argv[0] === "terminal" && c.argv[1] === "send")
      .map((c) => c.argv.join(" "));
    expect(sends.at(-1)).toBe(`terminal send --terminal ${s.pane_id} --interrupt --json`);
  });

  test("settles under the cap: exit 0 once the transcript stops growing (--idle-s); no transcript is exit 2", async () => {
    const w = brakeWorld();
    writeFileSync(w.transcript, CODEX_HEAD + codexTotal(100, 0, 100));
    const env = { ...w.env, MOGUI_WORKER_TIME_SCALE: "0.01" };
    const r = await runBinary(["spend", "watch", "--follow", "--job", "j1", "--max-tokens", "1000", "--transcript", w.transcript, "--idle-s", "2", "--interval-s", "1"], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("job=j1 tokens=200 max_tokens=1000 under (settled: idle for 2 s)\n");
    const none = await runBinary(["spend", "watch", "--follow", "--job", "nojob", "--max-tokens", "10", "--wait-transcript-s", "0", "--jobs-ledger", join(w.dir, "jobs.jsonl")], { env });
    expect(none.code).toBe(2);
    const capless = await runBinary(["spend", "watch", "--job", "j1", "--transcript", w.transcript], { env });
    expect(capless.code).toBe(2);
    expect(capless.stderr).toContain("--max-tokens is required");
  });
});

describe("quota windows", () => {
  test("spend report --window 5h|7d per provider; the gate's spend caps count over spend_window", async () => {
    const dir = tempDir("mogui-quota-");
    const home = join(dir, "home");
    mkdirSync(join(home, "config"), { recursive: true });
    const now = Math.floor(Date.now() / 1000);
    const row = (ts: number, model: string, format: string, tokens: number) =>
      JSON.stringify({ event: "spend", ts, model, format, job_id: "j", input_tokens: tokens, output_tokens: 0, cache_read_tokens: 0, cache_creation_tokens: 0, responses: 1, tier: "efficient" });
    writeFileSync(join(home, "spend-ledger.jsonl"), `${[row(now - 8 * 86_400, "claude-sonnet-5", "claude-code", 9), row(now - 6 * 3600, "gpt-5.3-codex", "codex", 500), row(now - 3600, "claude-sonnet-5", "claude-code", 700)].join("\n")}\n`);
    const env = e2eEnv({ MOGUI_HOME: home });
    const five = JSON.parse((await runBinary(["spend", "report", "--window", "5h", "--json"], { env })).stdout);
    expect(five).toMatchObject({ window: "5h", window_seconds: 18_000, by: "provider" });
    expect(five.groups.map((g: { key: string; total_tokens: number }) => [g.key, g.total_tokens])).toEqual([["anthropic", 700]]);
    const week = JSON.parse((await runBinary(["spend", "report", "--window", "7d", "--json"], { env })).stdout);
    expect(week.groups.map((g: { key: string; total_tokens: number }) => [g.key, g.total_tokens])).toEqual([
      ["anthropic", 700],
      ["openai", 500],
    ]);
    const text = await runBinary(["spend", "report", "--window", "5h"], { env });
    expect(text.stdout).toMatch(/^window 5h: since \d{4}-/);
    expect((await runBinary(["spend", "report", "--window", "5h", "--since", "1h"], { env })).code).toBe(2);

    const policy = (window: string) =>
      writeFileSync(join(home, "config", "model-tier-policy.json"), JSON.stringify({ version: 2, tiers: { top: ["claude-opus-5"], efficient: ["claude-sonnet-5", "gpt-5.3-codex"] }, fanout_caps: {}, spend_caps: { efficient: 1000 }, spend_window: window }));
    writeFileSync(join(dir, "c.md"), "- Goal: x\n- Scope: `a.ts`\n- Acceptance: tests pass\n");
    const check = () => runBinary(["dispatch-gate", "check", "--runtime", "claude", "--model", "claude-sonnet-5", "--contract", join(dir, "c.md"), "--agents", "1", "--completion-channel", "orchestration", "--no-record"], { env, cwd: dir });
    policy("5h");
    expect((await check()).code).toBe(0); // 700 in the last 5 h: under 1000
    policy("7d");
    const denied = await check();
    expect(denied.code).toBe(2); // 1200 in the last 7 days
    expect(denied.stdout).toContain("SPEND_CAP_EXCEEDED");
    expect(denied.stdout).toContain("window_seconds=604800");
  });
});

describe("mogui dispatch --max-tokens", () => {
  const setup = () => {
    const root = tempDir("mogui-brake-dispatch-");
    const home = join(root, "home");
    const s = JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "basic.json"), "utf8"));
    writeFileSync(join(root, "scenario.json"), JSON.stringify(s));
    mkdirSync(join(root, "wt-feature"), { recursive: true });
    writeFileSync(join(root, "c.md"), "- Goal: fix the login bug\n- Scope: `src/login.ts`\n- Acceptance: tests pass\n");
    const run = (...more: string[]) =>
      runBinary(["dispatch", "--contract", join(root, "c.md"), "--spec", "Fix it", "--delivery-poll-ms", "20", "--json", "--runtime", "claude", "--model", "claude-sonnet-5", "--same-host-reason", "only runtime here", ...more], {
        env: dispatchEnv(root, home),
        cwd: root,
      });
    return { root, run };
  };

  test("a claude worker's new terminal: the brake is in its worktree's settings before the terminal starts (job = the task id)", async () => {
    const d = setup();
    const settingsPath = join(d.root, "wt-feature", ".claude", "settings.local.json");
    writeFileSync(join(d.root, "wt-feature", ".keep"), "");
    mkdirSync(join(d.root, "wt-feature", ".claude"));
    writeFileSync(settingsPath, JSON.stringify({ permissions: { allow: ["Bash(ls)"] }, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] }] } }));
    const r = await d.run("--worktree", `path:${join(d.root, "wt-feature")}`, "--max-tokens", "40000");
    const report = JSON.parse(r.stdout);
    expect(report.spend_brake).toEqual({ job: report.task_id, max_tokens: 40000, source: "flag", settings: settingsPath });
    const settings = JSON.parse(readFileSync(settingsPath, "utf8"));
    // Merged, never clobbered: the user's permission and hook are still there.
    expect(settings.permissions).toEqual({ allow: ["Bash(ls)"] });
    expect(settings.hooks.PreToolUse[0]).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] });
    expect(settings.hooks.PreToolUse[1].hooks[0].command).toBe(`${binaryPath()} hook spend-brake --job ${report.task_id} --max-tokens 40000`);
    expect(r.stderr).toContain(`spend brake: added in ${settingsPath} (job ${report.task_id}, max 40000 tokens)`);
  });

  test("a flag cap that cannot be wired stops the run before any worker starts", async () => {
    const d = setup();
    const r = await d.run("--terminal", "term_0d0d0d0d-0000-4000-8000-00000000ffff", "--max-tokens", "40000");
    expect(r.code).toBe(JSON.parse(r.stdout).exit);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("✗ spend brake not wired: --terminal reuses a running session");
    expect(JSON.parse(r.stdout)).toMatchObject({ step: "task-create", task_id: null, spend_brake: null });
    const seeded = JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "basic.json"), "utf8")).tasks ?? [];
    expect(JSON.parse(readFileSync(join(d.root, "orca-state.json"), "utf8")).tasks ?? []).toHaveLength(seeded.length); // no task created
  });
});
