// Issue 26 §2: the interface a newcomer meets first. Root help starts with a getting-started line and the five
// commands most people need, a command missing several required flags names them all, errors point at the binary
// (never at a clone's files), an unreadable contract is named, --json on config validate and next-version, and an
// unknown subcommand is exit 2 with or without --help.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgv, type MoguiArgsDef } from "../../src/lib/args.ts";
import { runMain } from "../helpers/ctx.ts";
import { sh } from "../helpers/git.ts";
import { tempDir } from "../helpers/paths.ts";

describe("mogui --help", () => {
  test("starts with a getting-started line, then the five commands most people need, then the groups", async () => {
    const r = await runMain(["--help"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toStartWith("Getting started: 'mogui demo' ");
    const start = lines.indexOf("START HERE");
    const groups = lines.indexOf("DISPATCH COMMANDS");
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(groups);
    expect(lines.slice(start + 1, start + 6).map((l) => l.trim().split(":")[0])).toEqual(["config init", "preflight", "dispatch", "worker-reap", "redaction-scan"]);
    expect(lines[start + 6]).toBe("");
  });

  test("an unbounded integer flag shows no made-up range", async () => {
    const r = await runMain(["dispatch-gate", "watch", "--help"]);
    expect(r.stdout).toMatch(/--max-idle <seconds>\s+Idle seconds tolerated before STALLED \(default 360\)\n/);
    expect(r.stdout).not.toContain("9007199254740991");
  });
});

describe("unknown subcommands", () => {
  for (const argv of [
    ["hook", "nosuch", "--help"],
    ["hook", "nosuch"],
    ["tracks", "nosuch", "-h"],
    ["config", "nosuch", "--help"],
    ["worker", "reps", "nosuch", "--help"],
  ]) {
    test(`mogui ${argv.join(" ")} is exit 2 naming it, nothing on stdout`, async () => {
      const r = await runMain(argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toStartWith(`mogui: unknown subcommand 'nosuch' for 'mogui ${argv.slice(0, -2 + (argv.at(-1)!.startsWith("-") ? 0 : 1)).join(" ")}'`);
    });
  }

  test("a group's own --help is still exit 0, also after a flag's value given before the subcommand", async () => {
    expect((await runMain(["hook", "--help"])).code).toBe(0);
    expect((await runMain(["tracks", "--json", "--help"])).code).toBe(0);
    const withValue = await runMain(["dispatch-gate", "--ledger", "/tmp/l.jsonl", "--help"]);
    expect(withValue.code).toBe(0);
    expect(withValue.stdout).toContain("check:");
    const typo = await runMain(["dispatch-gate", "--ledger", "/tmp/l.jsonl", "chek", "--help"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toStartWith("mogui: unknown subcommand 'chek' for 'mogui dispatch-gate' (did you mean");
  });
});

describe("missing required flags are named all at once", () => {
  test("dispatch-gate check with none of them", async () => {
    const r = await runMain(["dispatch-gate", "check"], { env: { MOGUI_HOME: tempDir() } });
    expect(r).toEqual({ code: 2, stdout: "", stderr: "mogui: missing required flags --runtime, --contract, --agents\nRun 'mogui dispatch-gate check --help' for usage.\n" });
  });

  test("a positional and a flag; one alone keeps its message; an exactly-one group joins them", async () => {
    expect((await runMain(["tracks", "close"], { env: { MOGUI_HOME: tempDir() } })).stderr).toStartWith("mogui: missing required argument and flags <track-id>, --resolution\n");
    expect((await runMain(["tracks", "close", "T-1"], { env: { MOGUI_HOME: tempDir() } })).stderr).toStartWith("mogui: missing required flag --resolution\n");
    const defs: MoguiArgsDef = { a: { type: "string", required: true }, b: { type: "string" }, c: { type: "string" }, p: { type: "positional", required: true } };
    expect(() => parseArgv("x", [], defs, { exactlyOne: [["b", "c"]] })).toThrow("missing required argument and flags <p>, --a; one of --b, --c is required");
    expect(() => parseArgv("x", ["v", "--a", "1"], defs, { exactlyOne: [["b", "c"]] })).toThrow(/^one of --b, --c is required$/);
  });
});

describe("errors point at the binary, not at a clone", () => {
  test("a missing surface policy says `mogui config example worker-surface-policy --out <path>`, and that command writes it", async () => {
    const home = tempDir();
    const r = await runMain(["worker", "classify", "--path", "tools/report.py"], { env: { MOGUI_HOME: home } });
    const policy = join(home, "config", "worker-surface-policy.json");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`mogui config example worker-surface-policy --out ${policy}`);
    expect(r.stderr).not.toContain("copy config/");
    expect((await runMain(["config", "example", "worker-surface-policy", "--out", policy], { env: { MOGUI_HOME: home } })).code).toBe(0);
    expect(existsSync(policy)).toBe(true);
    expect((await runMain(["worker", "classify", "--path", "tools/report.py"], { env: { MOGUI_HOME: home } })).code).toBe(0);
  });

  test("an unreadable contract is named under the gate's reason line", async () => {
    const home = tempDir();
    const missing = join(home, "nope.md");
    const argv = ["dispatch-gate", "check", "--runtime", "codex", "--model", "gpt-5.5", "--contract", missing, "--agents", "1", "--completion-channel", "orchestration", "--no-record"];
    const r = await runMain(argv, { env: { MOGUI_HOME: home } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ reason: "CONTRACT_UNREADABLE" });
    expect(r.stderr).toBe(`dispatch-gate: CONTRACT_UNREADABLE\ndispatch-gate: cannot read the contract ${missing}: ENOENT\n`);
    if (process.getuid?.() !== 0) {
      writeFileSync(missing, "x");
      chmodSync(missing, 0);
      expect((await runMain(argv, { env: { MOGUI_HOME: home } })).stderr).toContain(`cannot read the contract ${missing}: EACCES`);
    }
  });
});

describe("--json on config validate and next-version", () => {
  test("config validate --json: one document, valid or not", async () => {
    const home = tempDir();
    expect((await runMain(["config", "init"], { env: { MOGUI_HOME: home } })).code).toBe(0);
    const ok = await runMain(["config", "validate", "model-tier-policy", "--json"], { env: { MOGUI_HOME: home } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ config: "model-tier-policy", path: join(home, "config", "model-tier-policy.json"), valid: true });
    writeFileSync(join(home, "bad.json"), "{");
    const bad = await runMain(["config", "validate", "model-tier-policy", "--file", join(home, "bad.json"), "--json"], { env: { MOGUI_HOME: home } });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ config: "model-tier-policy", valid: false, error: expect.stringContaining("not valid JSON") });
  });

  test("next-version --json", async () => {
    const dir = tempDir();
    const origin = join(dir, "origin.git");
    const repo = join(dir, "repo");
    mkdirSync(repo);
    sh(dir, "init", "-q", "--bare", "-b", "main", origin);
    sh(repo, "init", "-q", "-b", "main");
    sh(repo, "commit", "-q", "--allow-empty", "-m", "one");
    sh(repo, "commit", "-q", "--allow-empty", "-m", "two");
    sh(repo, "remote", "add", "origin", origin);
    sh(repo, "push", "-q", "origin", "main");
    sh(repo, "fetch", "-q", "origin");
    const r = await runMain(["next-version", "-C", repo, "--json"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_GLOBAL: "/dev/null" } });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({ build: 2, tag: `v${doc.version}`, version: expect.stringMatching(/^\d+\.\d+\.2$/) });
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
  });
});

describe("the Orca simulator's settings are in its --help (not only in a file of the repository)", () => {
  test("mogui sim orca --help names ORCA_SIM_STATE, ORCA_SIM_SCENARIO, ORCA_SIM_ROOT, ORCA_TERMINAL_HANDLE and a dispatch", async () => {
    const r = await runMain(["sim", "orca", "--help"], { env: {} });
    expect(r.code).toBe(0);
    for (const v of ["ORCA_SIM_STATE=", "ORCA_SIM_SCENARIO=", "ORCA_SIM_ROOT=", "ORCA_TERMINAL_HANDLE=", "mogui sim install-shims", "mogui dispatch --contract"]) expect(r.stdout).toContain(v);
  });
});
