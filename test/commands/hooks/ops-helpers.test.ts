// The hooks family's ops helpers in process (measure, measure-product-path-guard, orca-wait, orca-surface-check): every documented exit code, with a stub runner for orca.
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner, type StubReply } from "../../helpers/stub-runner.ts";
import { scratchRunner } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("hooks-ops-");
});
const { env, run } = scratchRunner(() => dir);

describe("measure", () => {
  test("exit=<status> first, output, the command's own status; usage, missing, timeout", async () => {
    expect(await run(["measure", "sh", "-c", "echo out; echo err >&2; exit 3"])).toEqual({ code: 3, stdout: "exit=3\nout\nerr\n", stderr: "" });
    expect(await run(["measure", "true"])).toEqual({ code: 0, stdout: "exit=0\n(no output)\n", stderr: "" });
    expect((await run(["measure"])).code).toBe(2);
    const help = await run(["measure", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("USAGE\n  mogui measure");
    expect(await run(["measure", "no-such-command-mogui"])).toEqual({ code: 127, stdout: "exit=127\nno-such-command-mogui: command not found\n", stderr: "" });
    const slow = await run(["measure", "--timeout-ms", "200", "--", "sleep", "5"]);
    expect(slow.code).toBe(124);
    expect(slow.stdout).toStartWith("exit=124\n");
    expect((await run(["measure", "--timeout-ms", "x", "ls"])).code).toBe(2);
  });

  test("--timeout-ms is a bounded whole number; flags after the command name are the command's", async () => {
    const bad = await run(["measure", "--timeout-ms=0", "ls"]);
    expect(bad).toEqual({ code: 2, stdout: "", stderr: "mogui: --timeout-ms must be a whole number from 1 to 86400000 (got '0')\nRun 'mogui measure --help' for usage.\n" });
    expect((await run(["measure", "--timeout-ms"])).stderr).toStartWith("mogui: flag --timeout-ms needs a value\n");
    expect(await run(["measure", "--timeout-ms", "5000", "sh", "-c", "echo $1", "x", "--timeout-ms"])).toEqual({ code: 0, stdout: "exit=0\n--timeout-ms\n", stderr: "" });
    expect((await run(["measure", "--", "--help"])).code).toBe(127);
  });
});

describe("measure-product-path-guard", () => {
  test("counts bash observations and rejections; N/A without; corrupt log exit 2", async () => {
    const log = join(dir, "events.jsonl");
    const row = (outcome: string, tool_kind = "bash") => JSON.stringify({ event: "product_path_guard", outcome, tool_kind });
    writeFileSync(log, `${[row("allow"), row("block"), row("allow"), row("block", "file"), JSON.stringify({ event: "other" })].join("\n")}\n`);
    expect(await run(["measure-product-path-guard", "--log", log])).toEqual({ code: 0, stdout: "bash_command_observations=3\nguard_rejections=1\nrejection_rate=33.3% (1/3)\n", stderr: "" });
    const j = await run(["measure-product-path-guard", "--json"], { env: env({ MOGUI_EVENT_LOG: log }) });
    expect(JSON.parse(j.stdout)).toEqual({ bash_command_observations: 3, guard_rejections: 1, log, rejection_rate: 1 / 3 });
    writeFileSync(log, "{bad\n{}\n");
    expect((await run(["measure-product-path-guard", "--log", log])).code).toBe(2);
  });
});

describe("orca-wait", () => {
  const base = ["orca", "orchestration", "check", "--unread", "--wait", "--timeout-ms"];
  const msg = (id: string, subject: string) => ({ id, type: "worker_done", from_handle: "term_w", subject });
  const reply = (messages: unknown[], extra: object = {}): StubReply => ({ stdout: { ok: true, result: { messages, count: messages.length, ...extra } } });
  const e = () => env({ ORCA_CLI_COMMAND: "orca" });

  test("drains the backlog and returns without blocking when it had messages", async () => {
    const runner = stubRunner([
      [
        [...base, "100", "--json"],
        [reply([msg("msg_1", "a"), msg("msg_2", "b|c")]), reply([])],
      ],
    ]);
    const r = await run(["orca-wait"], { env: e(), runner });
    expect(r).toEqual({ code: 0, stdout: "worker_done|msg_1|term_w|a\nworker_done|msg_2|term_w|b c\n", stderr: "" });
    expect(runner.calls).toHaveLength(2);
  });

  test("an empty backlog blocks once with the timeout and the types; keepalive lines are ignored", async () => {
    const keepalive = `${JSON.stringify({ _keepalive: true })}\n${JSON.stringify({ ok: true, result: { messages: [msg("msg_9", "late")], count: 1 } })}\n`;
    const runner = stubRunner([
      [[...base, "100", "--json", "--types", "worker_done"], reply([], { timedOut: true })],
      [[...base, "5000", "--json", "--types", "worker_done"], { stdout: keepalive }],
    ]);
    const r = await run(["orca-wait", "--timeout-ms", "5000", "--types", "worker_done"], { env: e(), runner });
    expect(r.stdout).toBe("worker_done|msg_9|term_w|late\n");
  });

  test("--once skips the drain; a timeout prints nothing and exits 0", async () => {
    const runner = stubRunner([[[...base, "3300000", "--json"], reply([], { timedOut: true })]]);
    const r = await run(["orca-wait", "--once"], { env: e(), runner });
    expect(r).toEqual({ code: 0, stdout: "", stderr: "orca-wait: no message within 3300000 ms\n" });
    expect(runner.calls).toHaveLength(1);
  });

  test("orca missing 127; orca failing passes its exit code; usage errors 2", async () => {
    expect((await run(["orca-wait", "--once"], { env: e(), runner: stubRunner([[[...base, "3300000", "--json"], { missing: true }]]) })).code).toBe(127);
    const fail = await run(["orca-wait"], { env: e(), runner: stubRunner([[[...base, "100", "--json"], { code: 5, stderr: "boom" }]]) });
    expect(fail).toMatchObject({ code: 5, stderr: expect.stringContaining("boom") });
    const envelope = await run(["orca-wait"], { env: e(), runner: stubRunner([[[...base, "100", "--json"], { code: 0, stdout: { ok: false, error: { code: "run_required", message: "x" } } }]]) });
    expect(envelope.code).toBe(1);
    expect((await run(["orca-wait", "--timeout-ms", "-1"], { env: e() })).stderr).toStartWith("mogui: --timeout-ms must be a whole number of at least 0 (got '-1')\n");
    expect((await run(["orca-wait", "--timeout-ms", "1.5"], { env: e() })).code).toBe(2);
    expect((await run(["orca-wait", "--types", "A B"], { env: e() })).code).toBe(2);
    expect((await run(["orca-wait", "--bogus"], { env: e() })).code).toBe(2);
  });
});

describe("orca-surface-check", () => {
  const ctxDoc = { ok: true, result: { schemaVersion: 1, commands: [{ command: "status", flags: ["json"], usage: "orca status" }] } };
  const status = { ok: true, result: { runtime: { appVersion: "1.4.164" } } };
  const runner = (agent: object = ctxDoc) =>
    stubRunner([
      [["orca", "status", "--json"], { stdout: status }],
      [["orca", "agent-context", "--json"], { stdout: agent }],
    ]);

  test("write a baseline, verify unchanged (0), drift (1), unmeasurable (2)", async () => {
    const e = env({ ORCA_CLI_COMMAND: "orca", BASELINE_FILE: join(dir, "b.json") });
    expect((await run(["orca-surface-check"], { env: e, runner: runner() })).code).toBe(2);
    expect((await run(["orca-surface-check", "--write-baseline"], { env: e, runner: runner() })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "b.json"), "utf8"))).toMatchObject({ appVersion: "1.4.164", schemaVersion: 1, commandCount: 1, watched: { status: expect.stringMatching(/^[0-9a-f]{16}$/) } });
    expect(await run(["orca-surface-check"], { env: e, runner: runner() })).toEqual({ code: 0, stdout: "[orca-surface] 1.4.164 · schema v1 · 1 watched commands verified\n", stderr: "" });
    expect((await run(["orca-surface-check"], { env: { ...e, QUIET: "1" }, runner: runner() })).stdout).toBe("");
    const drift = await run(["orca-surface-check"], { env: e, runner: runner({ ok: true, result: { schemaVersion: 1, commands: [{ command: "status", flags: ["json", "verbose"], usage: "orca status" }] } }) });
    expect(drift).toMatchObject({ code: 1, stderr: expect.stringMatching(/^\[orca-surface\] DRIFT: watched command 'status' changed/) });
    const missing = await run(["orca-surface-check"], { env: e, runner: stubRunner([[["orca", "status", "--json"], { missing: true }]]) });
    expect(missing).toEqual({ code: 2, stdout: "", stderr: "[orca-surface] UNMEASURABLE: orca: command not found\n" });
  });
});
