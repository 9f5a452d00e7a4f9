// The lifecycle commands in-process: exit codes, stdout/stderr split, the router, usage errors.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { runMain } from "../../helpers/ctx.ts";
import { LIST, listReply } from "../../helpers/lifecycle.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const FX = join(ROOT, "fixtures", "lifecycle");
const env = (extra: Record<string, string> = {}) => ({ ORCA_CLI_COMMAND: "orca", PATH: "/usr/bin:/bin", MOGUI_HOME: tempDir(), ...extra });

describe("master-succeed", () => {
  test("--json before or after the subcommand: compact; without: indented", async () => {
    const a = await runMain(["master-succeed", "--json", "detect", "succession now"]);
    const b = await runMain(["master-succeed", "detect", "succession now", "--json"]);
    expect(a).toEqual(b);
    expect(a.stdout).toBe('{"message":"","reason":"explicit succession instruction","status":"IMMEDIATE"}\n');
    const c = await runMain(["master-succeed", "detect", "hi"]);
    expect(c.stdout).toBe('{\n  "message": "",\n  "reason": "no succession trigger",\n  "status": "NONE"\n}\n');
  });
  test("router usage errors", async () => {
    expect((await runMain(["master-succeed"])).stderr).toStartWith("mogui: 'mogui master-succeed' needs a subcommand: one of detect, handoff");
    expect((await runMain(["master-succeed", "--json", "nope"])).code).toBe(2);
    expect((await runMain(["master-succeed", "--bogus", "detect", "x"])).stderr).toStartWith("mogui: unknown flag --bogus for 'mogui master-succeed'");
    expect((await runMain(["master-succeed", "--help"])).stdout).toContain("USAGE\n  mogui master-succeed <detect|handoff");
    expect((await runMain(["master-succeed", "--json", "detect", "--help"])).stdout).toContain("USAGE\n  mogui master-succeed detect <text>");
  });
  test("router: a lifted --json goes before a `--` (not after it), --debug anywhere, --help after `--` is text", async () => {
    const direct = await runMain(["master-succeed", "detect", "--json", "--", "succession now"]);
    expect(direct.stdout).toBe('{"message":"","reason":"explicit succession instruction","status":"IMMEDIATE"}\n');
    expect(await runMain(["master-succeed", "--json", "detect", "--", "succession now"])).toEqual(direct);
    expect(await runMain(["master-succeed", "--json", "detect", "succession now", "--debug"])).toEqual(direct);
    const text = await runMain(["master-succeed", "--json", "detect", "--", "--help"]);
    expect(text).toEqual({ code: 0, stdout: '{"message":"","reason":"no succession trigger","status":"NONE"}\n', stderr: "" });
  });
  test("detect: a non-numeric ratio is a usage error; milestone is plumbed (D22)", async () => {
    expect((await runMain(["master-succeed", "detect", "x", "--context-ratio", "lots"])).code).toBe(2);
    expect((await runMain(["master-succeed", "detect", "x", "--milestone", "v1", "--json"])).stdout).toContain('"status":"ADVISORY"');
  });
  test("handoff and verify-successor: bad inputs are exit 2 with one line", async () => {
    const d = tempDir();
    writeFileSync(join(d, "bad.json"), "[1]");
    writeFileSync(join(d, "role.json"), '{"current_role":"Janitor"}');
    const bad = await runMain(["master-succeed", "handoff", "--spec", join(d, "bad.json")]);
    expect(bad).toEqual({ code: 2, stdout: "", stderr: "master-succeed handoff: the spec must be a JSON object\n" });
    expect((await runMain(["master-succeed", "handoff", "--spec", join(d, "role.json")])).stderr).toStartWith("Unknown role: Janitor");
    expect((await runMain(["master-succeed", "handoff", "--spec", join(d, "missing.json")])).code).toBe(2);
    expect((await runMain(["master-succeed", "verify-successor", "--report", join(d, "bad.json")])).code).toBe(2);
    const ok = await runMain(["master-succeed", "verify-successor", "--report", join(FX, "recovery-report.json"), "--json"]);
    expect(ok.stdout).toBe('{"checks":["open tracks recited","baseline matched","monitors rearmed"],"evidence":"checks=open tracks recited,baseline matched,monitors rearmed","status":"PASS"}\n');
  });
  test("retire: REFUSED exits 3 (D20), DRY_RUN 0, self is exit 2", async () => {
    const runner = stubRunner([[LIST, listReply({ handle: "me", title: "m" }, { handle: "old", title: "o" })]]);
    const refused = await runMain(["master-succeed", "retire", "--self-handle", "me", "--expected", "zzz", "--json"], { runner, env: env() });
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stdout).status).toBe("REFUSED");
    expect((await runMain(["master-succeed", "retire", "--self-handle", "me", "--target-handle", "old"], { runner, env: env() })).code).toBe(0);
    const self = await runMain(["master-succeed", "retire", "--self-handle", "me", "--expected", "m"], { runner, env: env() });
    expect(self).toEqual({ code: 2, stdout: "", stderr: "self_handle matched retirement candidate; refusing to close self\n" });
    expect((await runMain(["master-succeed", "retire", "--self-handle", "me", "--target-handle", "old", "--target-pid", "-3"], { runner, env: env() })).stderr).toStartWith("mogui: --target-pid must be a whole number of at least 1 (got '-3')\n");
    expect((await runMain(["master-succeed", "retire", "--self-handle", "me", "--target-pid", "abc"], { runner, env: env() })).code).toBe(2);
    // Inside an Orca terminal the caller's own handle is the default self handle.
    const inside = await runMain(["master-succeed", "retire", "--expected", "m"], { runner, env: env({ ORCA_TERMINAL_HANDLE: "me" }) });
    expect(inside.stderr).toBe("self_handle matched retirement candidate; refusing to close self\n");
    expect((await runMain(["master-succeed", "retire", "--expected", "m"], { runner, env: env() })).stderr).toStartWith("mogui: missing required flag --self-handle");
  });
  test("spawn: dry run calls nothing; --model required beyond the defaults; exactly one kickoff", async () => {
    const runner = stubRunner([]);
    const base = ["master-succeed", "spawn", "--workspace-selector", "id:folder:f", "--root", "/w", "--title", "T", "--dry-run"];
    const dry = await runMain([...base, "--kickoff-text", "go", "--json"], { runner, env: env() });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).command).toEqual(["orca", "terminal", "create", "--worktree", "id:folder:f", "--title", "T", "--command", "cd /w && exec claude --model claude-fable-5 --dangerously-skip-permissions go", "--json"]);
    expect(runner.calls).toEqual([]);
    expect(await runMain([...base, "--kickoff-text", "go", "--agent", "cursor"], { runner, env: env() })).toEqual({ code: 2, stdout: "", stderr: "--model is required for agent cursor\n" });
    expect((await runMain([...base, "--kickoff-text", "go", "--kickoff-file", "x"], { runner, env: env() })).code).toBe(2);
    expect((await runMain(base, { runner, env: env() })).stderr).toStartWith("mogui: one of --kickoff-text, --kickoff-file is required");
    const f = join(tempDir(), "k.txt");
    writeFileSync(f, "from a file");
    expect(JSON.parse((await runMain([...base, "--kickoff-file", f, "--json"], { runner, env: env() })).stdout).startup_command).toEndWith("'from a file'");
  });
  test("check-duplicates: an orca failure is exit 2 with its message", async () => {
    const runner = stubRunner([[LIST, { code: 1, stdout: '{"ok":false,"error":{"code":"runtime_unavailable","message":"Orca is not running"}}' }]]);
    expect(await runMain(["master-succeed", "check-duplicates", "--self-handle", "me", "--marker", "S"], { runner, env: env() })).toEqual({ code: 2, stdout: "", stderr: "Orca is not running\n" });
  });
});

describe("master-bootstrap, master-recover", () => {
  test("bootstrap: plain lines, compact JSON, exit 2 for a missing charter and a strict-lease dual", async () => {
    const argv = ["master-bootstrap", "--charter", join(FX, "charter.md"), "--handoff", join(FX, "handoffs", "2026-02-01-gen2.md")];
    const plain = await runMain(argv, { env: env() });
    expect(plain.stdout).toMatch(/^role=Feature Implementation\nbudget_used=\d+\nwarnings=\n$/);
    const j = JSON.parse((await runMain([...argv, "--json", "--budget", "10"], { env: env() })).stdout);
    expect(Object.keys(j)).toEqual(["budget_used", "l0_text", "l1_text", "role_state", "warnings"]);
    expect(j).toMatchObject({ budget_used: 10, l1_text: "", warnings: ["BUDGET_TRUNCATED:L0"] });
    expect((await runMain(["master-bootstrap", "--charter", "/nope.md"], { env: env() })).stderr).toBe("master-bootstrap: Charter missing: /nope.md\n");
    const ps = stubRunner([[["ps", "-axo", "pid=,ppid=,command="], { stdout: "999999 1 claude --resume SESS\n" }]]);
    const strict = await runMain([...argv, "--session-id", "SESS", "--strict-lease"], { env: env(), runner: ps });
    expect(strict).toEqual({ code: 2, stdout: "", stderr: "master-bootstrap: DUAL_INSTANCE:999999\n" });
    expect((await runMain([...argv, "--budget", "-1"], { env: env() })).stderr).toStartWith("mogui: --budget must be a whole number of at least 0 (got '-1')\n");
  });
  test("recover: exit 0 whatever the verdict; --json report shape", async () => {
    const r = await runMain(["master-recover", "--charter", "/nope.md", "--handoff", "/nope-h.md", "--json"], { env: env() });
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(["active_tracks", "manual_actions", "monitors", "repositories", "steps"]);
  });
});

describe("lineage and tracks", () => {
  test("lineage: exit 2 for a duplicate generation or a bad entry; show parses it back", async () => {
    const d = tempDir();
    const ledger = join(d, "L.md");
    const ok = await runMain(["lineage", "append", "--ledger", ledger, "--entry", join(FX, "lineage-entry.json"), "--json"]);
    expect(ok.code).toBe(0);
    const dup = await runMain(["lineage", "append", "--ledger", ledger, "--entry", join(FX, "lineage-entry.json")]);
    expect(dup).toEqual({ code: 2, stdout: "", stderr: "lineage append: generation already exists: 2\n" });
    writeFileSync(join(d, "bad.json"), '{"generation": 3}');
    expect((await runMain(["lineage", "append", "--ledger", ledger, "--entry", join(d, "bad.json")])).stderr).toBe("lineage append: missing lineage field: parent_session\n");
    const nodir = join(d, "missing", "L.md");
    expect(await runMain(["lineage", "append", "--ledger", nodir, "--entry", join(FX, "lineage-entry.json")])).toEqual({
      code: 3,
      stdout: "",
      stderr: `lineage append: cannot lock ${nodir}: ENOENT: no such file or directory, open '${nodir}.lock'\n`,
    });
    const show = await runMain(["lineage", "--json", "show", "--ledger", ledger]);
    expect(JSON.parse(show.stdout).entries[0]).toMatchObject({ generation: 2, verification: "PASS" });
  });
  test("tracks: the ledger rules are exit 3; the MOGUI_HOME default (D2) and --ledger", async () => {
    const e = env();
    expect((await runMain(["tracks", "register", "T1", "--title", "Parser", "--ref", "a", "--ref", "b", "--json"], { env: e })).code).toBe(0);
    expect(await runMain(["tracks", "register", "T1", "--title", "again"], { env: e })).toEqual({ code: 3, stdout: "", stderr: "tracks: track already active: T1\n" });
    expect((await runMain(["tracks", "update", "T1", "--status", "BLOCKED", "--note", "review"], { env: e })).code).toBe(0);
    expect((await runMain(["tracks", "list"], { env: e })).stdout).toBe("T1\tBLOCKED\tParser\t(review)\n");
    expect((await runMain(["tracks", "close", "T1", "--resolution", "merged"], { env: e })).code).toBe(0);
    expect((await runMain(["tracks", "close", "T1", "--resolution", "again"], { env: e })).code).toBe(3);
    const all = JSON.parse((await runMain(["tracks", "--json", "list", "--all"], { env: e })).stdout);
    expect(all.ledger).toBe(join(e.MOGUI_HOME, "work-ledger.jsonl"));
    expect(all.tracks[0]).toMatchObject({ track_id: "T1", status: "CLOSED", resolution: "merged", refs: ["a", "b"] });
    const other = join(tempDir(), "w.jsonl");
    expect((await runMain(["tracks", "list", "--json", "--ledger", other], { env: e })).stdout).toContain(`"ledger":"${other}"`);
  });
});
