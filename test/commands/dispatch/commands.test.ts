// The dispatch family in process (runMain): exit-code tables for argument handling and the early refusals that
// need no subprocess. (test/unit/dispatch/pipeline.test.ts covers every pipeline step; test/e2e/dispatch/*.test.ts
// the binary against the real gate and the Orca simulator.)
import { beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir("dispatch-cmd-");
  env = { HOME: dir, MOGUI_HOME: join(dir, "home"), PATH: "/nonexistent", MOGUI_MASTER_HOST_RUNTIME: "claude" };
  writeFileSync(join(dir, "c.md"), "- Scope: `a.ts`\n");
});
// Any subprocess here would be a bug: the stub runner throws on every call.
const run = (argv: string[]) => runMain(argv, { env, cwd: dir, runner: stubRunner([]) });

describe("mogui dispatch", () => {
  const table: [string, string[], number, RegExp][] = [
    ["unknown flag", ["dispatch", "--contract", "c.md", "--nope"], 2, /^mogui: unknown flag --nope for 'mogui dispatch'\nRun 'mogui dispatch --help' for usage\.\n$/],
    ["--terminal with --worktree", ["dispatch", "--contract", "c.md", "--spec", "s", "--terminal", "t", "--worktree", "w"], 2, /cannot be used together/],
    ["bad --est-chars", ["dispatch", "--contract", "c.md", "--est-chars", "-1"], 2, /--est-chars must be a whole number/],
    ["--orca-timeout-ms over its bound", ["dispatch", "--contract", "c.md", "--orca-timeout-ms", "600001"], 2, /--orca-timeout-ms must be a whole number from 0 to 600000 \(got '600001'\)/],
    ["--delivery-poll-ms not a number", ["dispatch", "--contract", "c.md", "--delivery-poll-ms", "5s"], 2, /--delivery-poll-ms must be a whole number from 0 to 600000 \(got '5s'\)/],
    ["empty value", ["dispatch", "--contract", ""], 2, /--contract must not be empty/],
    ["no contract", ["dispatch", "--spec", "s"], 1, /✗ contract file missing: \n/],
    ["missing contract file", ["dispatch", "--contract", "nope.md", "--spec", "s"], 1, /✗ contract file missing: .*nope\.md\n/],
    ["no --spec", ["dispatch", "--contract", "c.md", "--runtime", "grok"], 1, /✗ --spec is required unless --check-only\n/],
    ["vendor mismatch", ["dispatch", "--contract", "c.md", "--spec", "s", "--runtime", "codex", "--model", "claude-sonnet-5"], 2, /✗ model\/runtime mismatch · model=claude-sonnet-5 \(vendor claude\) runtime=codex\n/],
    ["top tier unapproved", ["dispatch", "--contract", "c.md", "--spec", "s", "--runtime", "grok", "--model", "grok-4-heavy"], 2, /✗ top tier needs owner approval · model=grok-4-heavy\n {2}Ask the owner, then pass the answer: --top-approved "<reason>"\n$/],
  ];
  for (const [name, argv, code, stderr] of table) {
    test(`${name} -> exit ${code}`, async () => {
      const r = await run(argv);
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(stderr);
      if (code !== 2 || !r.stderr.startsWith("mogui:")) expect(r.stdout).toMatch(new RegExp(`^exit=${code} step=\\S+`));
    });
  }

  test("--json: one compact sorted-key document, the exit code inside", async () => {
    const r = await run(["dispatch", "--contract", "c.md", "--spec", "s", "--runtime", "grok", "--model", "grok-4-heavy", "--json"]);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(r.stdout).toBe(`${JSON.stringify(doc)}\n`);
    expect(Object.keys(doc)).toEqual([...Object.keys(doc)].sort());
    expect(doc).toMatchObject({ exit: 2, step: "top-approval", runtime: "grok", model: "grok-4-heavy", tier: "top", dispatch_id: null, ledger: join(dir, "home", "dispatch-ledger.jsonl") });
  });

  test("D2: --ledger > DISPATCH_GATE_LEDGER > $MOGUI_HOME/dispatch-ledger.jsonl", async () => {
    const argv = ["dispatch", "--contract", "c.md", "--spec", "s", "--runtime", "grok", "--model", "grok-4-heavy", "--json"];
    env.DISPATCH_GATE_LEDGER = join(dir, "env.jsonl");
    expect(JSON.parse((await run(argv)).stdout).ledger).toBe(join(dir, "env.jsonl"));
    expect(JSON.parse((await run([...argv, "--ledger", "flag.jsonl"])).stdout).ledger).toBe(join(dir, "flag.jsonl"));
  });

  test("help names every flag and the exit codes", async () => {
    const r = await run(["dispatch", "--help"]);
    expect(r.code).toBe(0);
    for (const f of ["--contract", "--spec", "--terminal", "--worktree", "--model", "--runtime", "--same-host-reason", "--top-approved", "--tier-policy", "--est-chars", "--transcript-glob", "--check-only", "--ledger", "--json"]) expect(r.stdout).toContain(f);
    expect(r.stdout).not.toContain("--delivery-poll-ms");
    for (const c of ["0  dispatched", "1  contract file missing", "2  refused", "3  an Orca step failed", "4  register denied", "5  delivery FAILED"]) expect(r.stdout).toContain(c);
  });
});

describe("mogui dispatch-collision-check", () => {
  test("usage errors are exit 2; everything else is exit 0", async () => {
    expect((await run(["dispatch-collision-check"])).code).toBe(2);
    expect((await run(["dispatch-collision-check", "a", "b", "c"])).code).toBe(2);
    const gitFails = stubRunner([[["git", "-C", dir, "ls-files", "-z"], { code: 128 }]]);
    const r = await runMain(["dispatch-collision-check", "c.md"], { env, cwd: dir, runner: gitFails });
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await run(["dispatch-collision-check", "missing.md"])).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("pretrust commands", () => {
  test("codex: 1 or 3 arguments; relative path exit 2", async () => {
    expect((await run(["codex-worker-pretrust"])).code).toBe(2);
    expect((await run(["codex-worker-pretrust", "/a", "/b"])).code).toBe(2);
    expect((await run(["codex-worker-pretrust", "/a", "--bogus", "x"])).code).toBe(2);
    const r = await run(["codex-worker-pretrust", "rel", "--accounts-dir", "acc"]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: "ERROR worktree path must be absolute: rel\nUsage: codex-worker-pretrust <worktree-path> [--accounts-dir <dir>]\n" });
    expect(await run(["codex-worker-pretrust", "/a", "--accounts-dir", "acc"])).toEqual({
      code: 0,
      stdout: `INFO accounts directory not found: ${join(dir, "acc")}; nothing to pre-trust\nSummary: 0 added, 0 updated, 0 already trusted\n`,
      stderr: "",
    });
  });
  test("cursor: 1 or 3 arguments; missing worktree exit 2", async () => {
    expect((await run(["cursor-worker-pretrust"])).code).toBe(2);
    expect((await run(["cursor-worker-pretrust", dir, "--projects-dir"])).code).toBe(2);
    expect(await run(["cursor-worker-pretrust", "/no/such/dir"])).toEqual({ code: 2, stdout: "", stderr: "ERROR worktree path does not exist: /no/such/dir\n" });
  });
});

describe("workstream-render", () => {
  test("a corrupt ledger is LEDGER_UNAVAILABLE (exit 2, one line); a day without rows says so on stderr", async () => {
    const ledger = join(dir, "l.jsonl");
    writeFileSync(ledger, "not json\n{}\n");
    const bad = await run(["workstream-render", "2026-03-14", "--ledger", ledger]);
    expect([bad.code, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toMatch(/^workstream-render: LEDGER_UNAVAILABLE: .*l\.jsonl:1: [^\n]+\n$/);
    writeFileSync(ledger, "");
    const empty = await run(["workstream-render", "2026-03-14", "--ledger", ledger]);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toBe(`workstream-render: no ledger rows on 2026-03-14 in ${ledger}\n`);
  });
});
