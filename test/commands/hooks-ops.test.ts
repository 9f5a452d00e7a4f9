// The ops helpers in process: every documented exit code, with a stub runner for orca and gh.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner, type StubReply } from "../helpers/stub-runner.ts";
import { runMain } from "../helpers/ctx.ts";
import { tempDir } from "../helpers/paths.ts";

// Built at run time so the repo's own redaction gate does not read these planted paths as personal home paths.
const MAC_HOME = ["", "Users"].join("/");

let dir: string;
beforeEach(() => {
  dir = tempDir("hooks-ops-");
});
const env = (extra: Record<string, string> = {}) => ({ HOME: dir, MOGUI_HOME: join(dir, "home"), PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra });
const run = (argv: string[], opts: { env?: Record<string, string>; runner?: ReturnType<typeof stubRunner> } = {}) => runMain(argv, { env: opts.env ?? env(), cwd: dir, runner: opts.runner });

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

describe("workstream-render", () => {
  test("the day's rows as a markdown table; other days skipped; bad dates are usage errors", async () => {
    const ledger = join(dir, "ledger.jsonl");
    const at = (h: number, d = 14) => new Date(2026, 2, d, h, 5, 9).getTime() / 1000;
    writeFileSync(
      ledger,
      `${[
        { ts: at(9), runtime: "codex", model: "gpt-5.5", tier: "efficient", decision: "ALLOW", reason: "OK", n_agents: 2, cost_proxy: 40, warnings: ["MODEL_MISMATCH"] },
        { ts: at(10), runtime: "codex", decision: "DENY", reason: "TIER_FANOUT_CAP", model: "m|x" },
        { ts: at(11), decision: "ALLOW", reason: "OK", job_id: "ctx_abc", runtime: "codex", n_agents: 1 },
        { ts: at(12, 15), decision: "ALLOW" },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n")}\n`,
    );
    const r = await run(["workstream-render", "2026-03-14", "--ledger", ledger]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").slice(2, 5)).toEqual([
      "| 09:05:09 | check | ALLOW | codex | gpt-5.5 (efficient) | 2 | 40 | - | warn: MODEL_MISMATCH |",
      "| 10:05:09 | check | DENY | codex | m\\|x | - | - | - | TIER_FANOUT_CAP |",
      "| 11:05:09 | register | ALLOW | codex | - | 1 | - | ctx_abc | - |",
    ]);
    expect(r.stdout.split("\n")).toHaveLength(6);
    const empty = await run(["workstream-render", "2026-03-16", "--ledger", ledger]);
    expect(empty.stderr).toContain("no ledger rows on 2026-03-16");
    for (const bad of ["2026-02-30", "14-03-2026", "yesterday"]) expect((await run(["workstream-render", bad, "--ledger", ledger])).code).toBe(2);
  });
});

describe("test-tool-naming", () => {
  test("findings exit 1 with path:line: name; clean exit 0; self-test", async () => {
    mkdirSync(join(dir, "docs", "a"), { recursive: true });
    mkdirSync(join(dir, "skills"), { recursive: true });
    writeFileSync(join(dir, "docs", "a", "x.md"), "fine\nuse ctx.search here and ctx.sqlite there\n");
    writeFileSync(join(dir, "skills", "s.md"), "ctx.status\n");
    const r = await run(["test-tool-naming"]);
    expect(r).toMatchObject({ code: 1, stdout: "docs/a/x.md:2: ctx.search\nskills/s.md:1: ctx.status\n" });
    writeFileSync(join(dir, "docs", "a", "x.md"), "fine\n");
    writeFileSync(join(dir, "skills", "s.md"), "fine\n");
    expect((await run(["test-tool-naming", "--root", dir])).code).toBe(0);
    expect((await run(["test-tool-naming", "--self-test"])).code).toBe(0);
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

describe("gh-based checks", () => {
  const auth: [string[], StubReply] = [["gh", "auth", "status"], { stdout: "ok" }];
  const body = `## Problem\nSlow.\n## Why this approach\n<!-- explain -->\n## What this changes\nDescribe what this PR changes.\n\nSee ${MAC_HOME}/alice/x\n`;
  const template = "## Problem\n<!-- what hurts -->\n## Why this approach\n## What this changes\nDescribe what this PR changes.\n## Expected effect\n";

  test("pr-body-check: each state, home paths by line only, exit 1; all filled exit 0", async () => {
    writeFileSync(join(dir, "body.md"), body);
    writeFileSync(join(dir, "t.md"), template);
    const r = await run(["pr-body-check", "--body-file", "body.md", "--template-file", "t.md"]);
    expect(r).toEqual({
      code: 1,
      stdout: "Problem: filled\nWhy this approach: present but empty\nWhat this changes: present but unmodified template guidance\nExpected effect: missing heading\nLine 8: [home_path] absolute path detected\n",
      stderr: "",
    });
    expect(r.stdout).not.toContain("alice");
    const runner = stubRunner([auth, [["gh", "pr", "view", "12", "--json", "body", "--repo", "a/b"], { stdout: { body: "# Problem\nx\n# Why this approach\ny\n# What this changes\nz\n# Expected effect\nw\n" } }]]);
    expect(await run(["pr-body-check", "12", "--repo", "a/b"], { runner })).toMatchObject({ code: 0 });
    expect((await run(["pr-body-check"])).code).toBe(2);
    expect((await run(["pr-body-check", "x12"])).code).toBe(2);
  });

  test("gh missing or not authenticated: exit 2 with a clear message", async () => {
    const missing = await run(["pr-body-check", "3"], { runner: stubRunner([[["gh", "auth", "status"], { missing: true }]]) });
    expect(missing).toEqual({ code: 2, stdout: "", stderr: "pr-body-check: gh (the GitHub CLI) is not installed or not on PATH\n" });
    const unauth = await run(["conversation-redaction-scan", "--repo", "a/b"], { runner: stubRunner([[["gh", "auth", "status"], { code: 1, stderr: "not logged in" }]]) });
    expect(unauth).toEqual({ code: 2, stdout: "", stderr: "conversation-redaction-scan: gh is not authenticated: run 'gh auth login' (or set GH_TOKEN)\n" });
    const steward = await run(["pr-steward-status", "4", "--repo", "a/b"], { runner: stubRunner([[["gh", "auth", "status"], { missing: true }]]) });
    expect(steward.code).toBe(2);
  });

  test("conversation-redaction-scan: surface|number|author|locator|pattern, never the value", async () => {
    const common = ["--state", "all", "--limit", "5", "--repo", "acme/w"];
    const prs = [
      { number: 3, author: { login: "bob" }, body: "fine", comments: [{ author: { login: "eve" }, body: "see /home/mallory/x", url: "https://github.com/acme/w/pull/3#issuecomment-77" }], reviews: [{ author: { login: "rev" }, body: `${MAC_HOME}/zed/y` }] },
    ];
    const issues = [{ number: 9, author: { login: "ann" }, body: `${MAC_HOME}/kim and /home/lee`, comments: [] }];
    const runner = stubRunner([auth, [["gh", "pr", "list", ...common, "--json", "number,author,body,comments,reviews"], { stdout: prs }], [["gh", "issue", "list", ...common, "--json", "number,author,body,comments"], { stdout: issues }]]);
    const r = await run(["conversation-redaction-scan", "--limit", "5"], { env: env({ MOGUI_PRODUCT_GITHUB: "acme/w" }), runner });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`pr_comment|3|eve|comment:issuecomment-77|/home/<x>\npr_review|3|rev|review#1|${MAC_HOME}/<x>\nissue_body|9|ann|body|${MAC_HOME}/<x>\nissue_body|9|ann|body|/home/<x>\n`);
    for (const secret of ["mallory", "zed", "kim", "lee"]) expect(r.stdout + r.stderr).not.toContain(secret);
    expect((await run(["conversation-redaction-scan"], { env: env({ MOGUI_PRODUCT_REPO: "/src/x" }) })).code).toBe(2);
    expect((await run(["conversation-redaction-scan", "--repo", "nope"])).code).toBe(2);
    expect((await run(["conversation-redaction-scan", "--repo", "a/b", "--limit", "0"])).code).toBe(2);
  });

  test("pr-steward-status: four conditions, NOT READY exit 1 (gates always unverified)", async () => {
    const view = { number: 4, headRefOid: "abc", baseRefName: "main", mergeable: "MERGEABLE", statusCheckRollup: [{ status: "COMPLETED", conclusion: "SUCCESS" }, { state: "PENDING" }] };
    const threads = {
      data: {
        repository: {
          pullRequest: {
            reviewThreads: {
              nodes: [
                { isResolved: true, comments: { totalCount: 1 } },
                { isResolved: false, comments: { totalCount: 3 } },
              ],
            },
          },
        },
      },
    };
    const r2 = await run(["pr-steward-status", "4"], {
      runner: stubRunner([
        auth,
        [["gh", "repo", "view", "--json", "nameWithOwner"], { stdout: { nameWithOwner: "acme/w" } }],
        [["gh", "pr", "view", "4", "--repo", "acme/w", "--json", "number,headRefOid,baseRefName,mergeable,statusCheckRollup"], { stdout: view }],
        [
          [
            "gh",
            "api",
            "graphql",
            "-f",
            `query=${"query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){nodes{isResolved comments{totalCount}}}}}}"}`,
            "-F",
            "owner=acme",
            "-F",
            "name=w",
            "-F",
            "number=4",
          ],
          { stdout: threads },
        ],
        [["gh", "api", "repos/acme/w/compare/main...abc"], { stdout: { behind_by: 2 } }],
      ]),
    });
    expect(r2).toEqual({
      code: 1,
      stdout: [
        "pr: acme/w#4",
        "checks concluded: FAIL (2 check(s), 1 pending, 0 failing)",
        "review threads resolved and replied: FAIL (2 thread(s), 1 unresolved, 1 without a reply)",
        "mergeable and head contains base: FAIL (mergeable=MERGEABLE, behind main by 2)",
        "gates re-run: UNVERIFIED (not visible from the API; confirm the gates by hand)",
        "overall: NOT READY (checks concluded; review threads resolved and replied; mergeable and head contains base; gates re-run)",
        "",
      ].join("\n"),
      stderr: "",
    });
    expect((await run(["pr-steward-status", "abc"])).code).toBe(2);
    expect((await run(["pr-steward-status"])).code).toBe(2);
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

describe("spawn-test (command level)", () => {
  test("bad scenario or driver is a usage error; orca missing is exit 2", async () => {
    expect((await run(["spawn-test", "nope"])).code).toBe(2);
    expect((await run(["spawn-test"], { env: env({ SPAWN_TEST_DRIVER: "x" }) })).code).toBe(2);
    expect((await run(["spawn-test"], { env: env({ SPAWN_TEST_ROUND_TRIP_TIMEOUT_MS: "soon" }) })).code).toBe(2);
    const r = await run(["spawn-test"], { env: env({ ORCA_CLI_COMMAND: "orca" }), runner: stubRunner([[["orca", "status", "--json"], { missing: true }]]) });
    expect(r).toEqual({ code: 2, stdout: "", stderr: "spawn-test: orca: command not found\n" });
  });
});
