// Runtime resolution, launch commands, shell quoting and the probe commands of mogui dispatch (§4.2-§4.4).
import { describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkArgv, registerArgv } from "../../../src/dispatch/pipeline/gate-client.ts";
import { estLabel } from "../../../src/dispatch/pipeline/pipeline.ts";
import { contractChars } from "../../../src/dispatch/gate/contract.ts";
import { absoluteWorktree, claudeProjectGlob, jobProbeCommand, modelProbeCommand, newestMatch, probeTarget } from "../../../src/dispatch/pipeline/probe-target.ts";
import { summaryLine, emptyReport } from "../../../src/dispatch/pipeline/report.ts";
import { defaultRuntime, installedRuntimes, runtimeCommand, shellQuote } from "../../../src/dispatch/pipeline/runtime.ts";
import { tempDir } from "../../helpers/paths.ts";

describe("runtimes", () => {
  test("launch command per runtime, model shell-quoted", () => {
    expect(runtimeCommand("claude", "claude-sonnet-5")).toBe("claude --model claude-sonnet-5 --dangerously-skip-permissions");
    expect(runtimeCommand("grok", "grok-4.5")).toBe("grok --model grok-4.5 --always-approve");
    expect(runtimeCommand("cursor", "gpt-5.5")).toBe("cursor-agent --model gpt-5.5 --force --trust");
    expect(runtimeCommand("codex", "gpt 5; rm -rf /")).toBe("codex --model 'gpt 5; rm -rf /'");
    expect(runtimeCommand("gemini", "gemini-3.6-flash")).toBe("gemini");
    expect(runtimeCommand("opencode", "x")).toBe("opencode");
    expect(runtimeCommand("agy", "gemini-3.6-flash")).toBe("agy --model gemini-3.6-flash --dangerously-skip-permissions");
    expect(runtimeCommand("fable", "x")).toBe("fable");
  });

  test("shellQuote is shlex.quote", () => {
    expect(shellQuote("plain-1.2_/x@y%z+=:,")).toBe("plain-1.2_/x@y%z+=:,");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("it's")).toBe(`'it'"'"'s'`);
    expect(shellQuote("$(x)")).toBe("'$(x)'");
  });

  test("installed runtimes in candidate order (cursor is cursor-agent); the default skips the master host", () => {
    const have = new Set(["codex", "cursor-agent", "claude"]);
    expect(installedRuntimes({ env: {}, cwd: "/" }, (exe) => have.has(exe))).toEqual(["claude", "codex", "cursor"]);
    expect(defaultRuntime(["claude", "codex"], "claude")).toBe("codex");
    expect(defaultRuntime(["claude"], "claude")).toBe("claude");
    expect(defaultRuntime([], "codex")).toBe("codex");
  });
});

describe("contract size (D16)", () => {
  test("characters, not bytes; unreadable is null; the est label", () => {
    const d = tempDir("dispatch-rt-");
    writeFileSync(join(d, "c.md"), "한글😀a");
    expect(contractChars(join(d, "c.md"))).toBe(4);
    expect(contractChars(join(d, "none.md"))).toBeNull();
    expect([0, 999, 1000, 3050, 3999, 123456].map(estLabel)).toEqual(["0.0k", "0.9k", "1.0k", "3.0k", "3.9k", "123.4k"]);
  });
});

describe("probe target (§4.4 step 8)", () => {
  test("explicit glob > claude scoped to its worktree > unavailable", () => {
    const ctx = { env: { HOME: "/home/u" } };
    expect(probeTarget(ctx, "codex", "/t/*.jsonl", "/w")).toEqual({ state: "explicit-glob", glob: "/t/*.jsonl" });
    expect(probeTarget(ctx, "claude", undefined, "/work/app.wt/x")).toEqual({ state: "scoped-to-worktree", glob: "/home/u/.claude/projects/-work-app-wt-x/*.jsonl" });
    expect(probeTarget(ctx, "claude", undefined, null)).toEqual({ state: "unavailable", glob: null });
    expect(probeTarget(ctx, "codex", undefined, "/w")).toEqual({ state: "unavailable", glob: null });
    expect(claudeProjectGlob("/h", "/a/b.c")).toBe("/h/.claude/projects/-a-b-c/*.jsonl");
  });

  test("absoluteWorktree accepts path:/abs and /abs only", () => {
    expect(absoluteWorktree("path:/a/b")).toBe("/a/b");
    expect(absoluteWorktree("/a")).toBe("/a");
    expect(absoluteWorktree("branch:x")).toBeNull();
    expect(absoluteWorktree("path:rel")).toBeNull();
    expect(absoluteWorktree(undefined)).toBeNull();
  });

  test("newestMatch: the newest file by mtime; ~ is HOME; no match is null", () => {
    const d = tempDir("dispatch-glob-");
    mkdirSync(join(d, "s", "deep"), { recursive: true });
    for (const [f, age] of [
      ["s/a.jsonl", 30],
      ["s/deep/b.jsonl", 10],
      ["s/c.txt", 0],
    ] as const) {
      writeFileSync(join(d, f), "{}");
      const t = new Date(Date.now() - age * 1000);
      utimesSync(join(d, f), t, t);
    }
    const ctx = { env: { HOME: d }, cwd: "/" };
    expect(newestMatch(ctx, `${d}/s/**/*.jsonl`)).toBe(join(d, "s", "deep", "b.jsonl"));
    expect(newestMatch(ctx, "~/s/*.jsonl")).toBe(join(d, "s", "a.jsonl"));
    expect(newestMatch(ctx, `${d}/s/a.jsonl`)).toBe(join(d, "s", "a.jsonl"));
    expect(newestMatch(ctx, `${d}/nothing/*.jsonl`)).toBeNull();
  });

  test("probe commands quote every supplied piece", () => {
    expect(modelProbeCommand(["/bin/mogui"], "/t/it's.jsonl", "m'x")).toBe(`/bin/mogui model-identity-probe --transcript '/t/it'"'"'s.jsonl' 2>/dev/null | grep -o -F -- 'm'"'"'x' | head -n 1`);
    expect(modelProbeCommand(["/bin/bun", "/src/cli.ts"], null, "m")).toBe("exit 1");
    expect(jobProbeCommand("orca", "task_1", "ctx_1")).toBe("orca orchestration dispatch-show --task task_1 --json 2>/dev/null | grep -o -F -- ctx_1 | head -n 1");
  });
});

describe("gate argv", () => {
  test("check: --est-chars omitted when unmeasured; --no-record only for the dry run; --tier-policy only when given", () => {
    const a = { ledger: "/l", runtime: "codex", model: "m", contract: "/c", estChars: null, record: true };
    expect(checkArgv(["/m"], a)).toEqual(["/m", "dispatch-gate", "check", "--ledger", "/l", "--runtime", "codex", "--model", "m", "--contract", "/c", "--agents", "1", "--completion-channel", "orchestration"]);
    expect(checkArgv(["/m"], { ...a, estChars: 5, record: false, tierPolicy: "/p" })).toEqual([
      "/m",
      "dispatch-gate",
      "check",
      "--ledger",
      "/l",
      "--runtime",
      "codex",
      "--model",
      "m",
      "--tier-policy",
      "/p",
      "--contract",
      "/c",
      "--agents",
      "1",
      "--est-chars",
      "5",
      "--completion-channel",
      "orchestration",
      "--no-record",
    ]);
  });
  test("register", () => {
    expect(registerArgv(["/m"], { ledger: "/l", jobId: "ctx_1", contractSha: "ab", runtime: "codex", probeCmd: "p", task: "task_1", declaredModel: "m", modelProbeCmd: "mp" })).toEqual([
      "/m",
      "dispatch-gate",
      "register",
      "--ledger",
      "/l",
      "--job-id",
      "ctx_1",
      "--contract-sha",
      "ab",
      "--runtime",
      "codex",
      "--probe-cmd",
      "p",
      "--orchestration-task",
      "task_1",
      "--declared-model",
      "m",
      "--model-probe-cmd",
      "mp",
    ]);
  });
});

test("summary line skips unknown fields", () => {
  const r = { ...emptyReport("/l", false), exit: 3, step: "task-create" as const, runtime: "codex", model: "m" };
  expect(summaryLine(r)).toBe("exit=3 step=task-create runtime=codex model=m");
});
