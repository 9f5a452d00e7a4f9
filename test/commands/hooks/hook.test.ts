// `mogui hook ...` and hook-coverage-report in process: exit codes, stdout/stderr, the fire log and event log rows.
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stubRunner } from "../../helpers/stub-runner.ts";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

let dir: string;
let home: string;
let product: string;
let ops: string;
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

beforeEach(() => {
  dir = tempDir("hooks-cmd-");
  home = join(dir, "home");
  product = join(dir, "product");
  ops = join(dir, "ops");
  mkdirSync(product, { recursive: true });
  mkdirSync(join(ops, "docs", "runbooks"), { recursive: true });
});

const env = (extra: Record<string, string> = {}) => ({ HOME: dir, MOGUI_HOME: home, MOGUI_PRODUCT_REPO: product, PATH: "/usr/bin:/bin", ...extra });

function input(obj: unknown): string {
  const p = join(dir, `input-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(p, typeof obj === "string" ? obj : JSON.stringify(obj));
  return p;
}

const rows = (file: string) =>
  readFileSync(join(home, file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

function hook(name: string, obj: unknown, opts: { env?: Record<string, string>; runner?: ReturnType<typeof stubRunner>; args?: string[] } = {}) {
  return runMain(["hook", name, "--input-file", input(obj), ...(opts.args ?? [])], { env: opts.env ?? env(), cwd: ops, runner: opts.runner, now: () => NOW });
}

describe("the hook group", () => {
  test("--help lists every hook (exit 0); a bare `hook` is exit 2; flags may come before the hook's name", async () => {
    const help = await runMain(["hook", "--help"], { env: env(), cwd: ops });
    expect(help.code).toBe(0);
    for (const h of ["product-path-guard", "role-state-inject", "tracker-check", "orch-inbox-warn", "bash-poll-warn", "bash-output-trim-warn", "compaction-probe", "install"]) expect(help.stdout).toContain(`  ${h}:`);
    expect((await runMain(["hook"], { env: env(), cwd: ops })).code).toBe(2);
    const p = input({ tool_name: "Bash", tool_input: { command: `rm ${product}/x` } });
    const r = await runMain(["hook", "--input-file", p, "product-path-guard"], { env: env(), cwd: ops, now: () => NOW });
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("[product-path-guard] BLOCKED: ");
  });
});

describe("hook product-path-guard", () => {
  test("allow: exit 0, silent; one fire row and one event row with exactly the documented keys", async () => {
    const r = await hook("product-path-guard", { hook_event_name: "PreToolUse", cwd: ops, tool_name: "Bash", tool_input: { command: `ls ${product}` } });
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(rows("hook-fire-log.jsonl")).toEqual([{ ts: "2026-01-02T03:04:05Z", hook: "product-path-guard", event: "PreToolUse", cwd: ops, runtime_hint: "unknown", session_kind: "unknown" }]);
    const [e] = rows("event-log.jsonl");
    expect(Object.keys(e).sort()).toEqual(["command_class", "component", "event", "evidence", "level", "outcome", "reason", "runtime_hint", "session_kind", "target_scope", "tool_kind", "ts"]);
    expect(e).toMatchObject({ event: "product_path_guard", component: "tool-impl", evidence: "observed", outcome: "allow", level: "info", tool_kind: "bash", target_scope: "product", command_class: "read_only" });
  });

  test("block: exit 2 and '[product-path-guard] BLOCKED: <reason>' on stderr; the event row says block", async () => {
    const r = await hook("product-path-guard", { cwd: ops, tool_name: "Bash", tool_input: { command: `echo x > ${product}/f` } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`[product-path-guard] BLOCKED: redirection '> ${product}/f' writes into the product repo\n`);
    expect(rows("event-log.jsonl")[0]).toMatchObject({ outcome: "block", level: "warn", command_class: "redirection", tool_kind: "bash" });
  });

  test("file tool: blocked inside, tool_kind file; override env allows", async () => {
    const write = { cwd: ops, tool_name: "Write", tool_input: { file_path: `${product}/a.ts`, content: "x" } };
    expect((await hook("product-path-guard", write)).code).toBe(2);
    expect(rows("event-log.jsonl")[0]).toMatchObject({ tool_kind: "file", command_class: "file_tool" });
    expect((await hook("product-path-guard", write, { env: env({ MOGUI_INLINE_EDIT_OVERRIDE: "1" }) })).code).toBe(0);
  });

  test("missing product config, relative product, unreadable input: BLOCK (fail closed)", async () => {
    const bash = { cwd: ops, tool_name: "Bash", tool_input: { command: "ls" } };
    const noConfig = await hook("product-path-guard", bash, { env: { HOME: dir, MOGUI_HOME: home } });
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toStartWith("[product-path-guard] BLOCKED: product repo config missing or invalid: product repo is unconfigured");
    const relative = await hook("product-path-guard", bash, { env: env({ MOGUI_PRODUCT_REPO: "product" }) });
    expect(relative.stderr).toBe("[product-path-guard] BLOCKED: product repo config missing or invalid: product_repo must be an absolute path\n");
    const bad = await hook("product-path-guard", "{not json");
    expect(bad).toEqual({ code: 2, stdout: "", stderr: "[product-path-guard] BLOCKED: unreadable hook input: hook input is not valid JSON\n" });
    const config = join(dir, "instance.json");
    writeFileSync(config, JSON.stringify({ product_repo: product }));
    const viaFile = await hook("product-path-guard", { cwd: ops, tool_name: "Bash", tool_input: { command: `touch ${product}/x` } }, { env: { HOME: dir, MOGUI_HOME: home, MOGUI_INSTANCE_RUNTIME_CONFIG: config } });
    expect(viaFile.code).toBe(2);
  });

  test("an unwritable event log or fire log never changes the decision", async () => {
    const ro = join(dir, "ro");
    mkdirSync(ro);
    writeFileSync(join(ro, "event-log.jsonl"), "");
    chmodSync(ro, 0o500);
    const e = env({ MOGUI_EVENT_LOG: join(dir, "no-such-dir-file", "x", "\0bad"), MOGUI_HOOK_FIRE_LOG: "/proc/mogui-no/fire.jsonl" });
    const allow = await hook("product-path-guard", { cwd: ops, tool_name: "Bash", tool_input: { command: "ls" } }, { env: e });
    expect(allow.code).toBe(0);
    expect(allow.stderr).toContain("warning: hook fire log not written");
    const block = await hook("product-path-guard", { cwd: ops, tool_name: "Bash", tool_input: { command: `rm ${product}/x` } }, { env: e });
    expect(block.code).toBe(2);
    expect(block.stderr).toContain("[product-path-guard] BLOCKED: 'rm' is not read-only");
  });

  test("session_kind and runtime_hint: worker via ORCA_TASK_ID, master via docs/MASTER-OPERATIONS.md", async () => {
    writeFileSync(join(ops, "docs", "MASTER-OPERATIONS.md"), "# ops\n");
    await hook("bash-poll-warn", { cwd: ops, tool_name: "Bash", tool_input: { command: "ls" } }, { env: env({ MOGUI_RUNTIME_HINT: "claude" }) });
    await hook("bash-poll-warn", { cwd: ops, tool_name: "Bash", tool_input: { command: "ls" } }, { env: env({ ORCA_TASK_ID: "task_1" }) });
    expect(rows("hook-fire-log.jsonl").map((r) => [r.runtime_hint, r.session_kind])).toEqual([
      ["claude", "master"],
      ["unknown", "worker"],
    ]);
  });
});

describe("advisory hooks", () => {
  test("bash-poll-warn: warning on stderr for poll loops, nothing otherwise; always 0", async () => {
    const loop = await hook("bash-poll-warn", { tool_name: "Bash", tool_input: { command: "while true; do orca orchestration check; sleep 30; done" } });
    expect(loop).toEqual({ code: 0, stdout: "", stderr: "[bash-poll-warn] hand-rolled poll loop detected - event waits use scripts/orca-wait (charter section 4)\n" });
    expect(await hook("bash-poll-warn", { tool_name: "Bash", tool_input: { command: "sleep 2 && gh pr view 3" } })).toMatchObject({ code: 0, stderr: expect.stringContaining("[bash-poll-warn]") });
    expect(await hook("bash-poll-warn", { tool_name: "Bash", tool_input: { command: "sleep 1; make" } })).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("bash-output-trim-warn: unfiltered large output warns; filtered does not", async () => {
    const w = await hook("bash-output-trim-warn", { tool_name: "Bash", tool_input: { command: "git log -p" } });
    expect(w.code).toBe(0);
    expect(w.stderr).toStartWith("[trim-warn] 'git log/diff/show' ");
    for (const ok of ["git log -p | head -50", "gh api graphql -f query=x --jq .data", "pytest -q | tail -5", "cat <<EOF > x\nhi\nEOF", "ls -la"]) {
      expect(await hook("bash-output-trim-warn", { tool_name: "Bash", tool_input: { command: ok } })).toEqual({ code: 0, stdout: "", stderr: "" });
    }
  });

  test("compaction-probe: only {source: compact} prints the probe JSON", async () => {
    const r = await hook("compaction-probe", { source: "compact", hook_event_name: "SessionStart" });
    const doc = JSON.parse(r.stdout);
    expect(doc.hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect(doc.hookSpecificOutput.additionalContext).toContain(join(home, "monitors", "mg", "context-quality.jsonl"));
    expect((await hook("compaction-probe", { source: "startup" })).stdout).toBe("");
    const custom = await hook("compaction-probe", { source: "compact" }, { env: env({ CONTEXT_QUALITY_LOG: "/x/q.jsonl" }) });
    expect(custom.stdout).toContain("/x/q.jsonl");
  });

  test("role-state-inject: the two lines and the rule; WARNING when unreadable", async () => {
    writeFileSync(join(ops, "docs", "runbooks", "role-state.md"), "# Role\n- **Current Role**: Steering\n- **Role Lock**: held since gen 4\n");
    const r = await hook("role-state-inject", { cwd: ops }, { args: ["--ops", ops] });
    expect(r.stdout).toBe("[role-state] Current Role: Steering | Role Lock: held since gen 4 | Execution rule: Proposal -> Approval -> Execution. No state change without an approved proposal.\n");
    const missing = await hook("role-state-inject", {}, { args: ["--ops", join(dir, "nope")] });
    expect(missing.code).toBe(0);
    expect(missing.stdout).toStartWith("[role-state] WARNING: role state unreadable");
  });
});

describe("hooks that call out (stub runner)", () => {
  test("tracker-check: OK, mismatch, bd missing, BEADS_DIR; the protections line counts", async () => {
    mkdirSync(join(ops, ".beads"));
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "guard-suppressions.jsonl"), '{"a":1}\n{"a":2}\n');
    writeFileSync(join(home, "dispatch-ledger.jsonl"), `{"tier_policy_path":"/x/ops/model-tier-policy.json"}\n{"x":1}\n`);
    const ok = await hook("tracker-check", { cwd: ops }, { runner: stubRunner([[["bd", "where"], { stdout: `database: ${ops}/.beads\n` }]]), args: ["--ops", ops] });
    expect(ok.stdout).toBe(`[tracker] bd resolves to ${ops}/.beads (OK)\n[protections] active: product-path-guard, dispatch-gate; guard-suppressions=2; dispatches under ops/model-tier-policy.json=1\n`);
    const wrong = await hook("tracker-check", { cwd: ops }, { runner: stubRunner([[["bd", "where"], { stdout: `${dir}\n` }]]), args: ["--ops", ops], env: env({ BEADS_DIR: dir }) });
    expect(wrong.stdout).toContain(`[tracker] WARNING: bd resolves to ${dir}, expected ${ops}/.beads\n[tracker] WARNING: BEADS_DIR=${dir} does not point at ${ops}/.beads\n`);
    const none = await hook("tracker-check", { cwd: ops }, { runner: stubRunner([[["bd", "where"], { missing: true }]]), args: ["--ops", ops] });
    expect(none).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\[tracker\] WARNING: bd is not on PATH/) });
  });

  test("orch-inbox-warn: count and first three subjects (48 chars); silent when empty or failing", async () => {
    const long = "x".repeat(60);
    const msgs = [{ subject: "done A" }, { subject: long }, { subject: "c" }, { subject: "d" }];
    const argv = ["orca", "orchestration", "check", "--peek", "--json"];
    const e = env({ ORCA_CLI_COMMAND: "orca" });
    const r = await hook("orch-inbox-warn", {}, { env: e, runner: stubRunner([[argv, { stdout: { ok: true, result: { messages: msgs, count: 4 } } }]]) });
    expect(r).toEqual({ code: 0, stdout: `[orch-inbox] unacked=4 | done A ; ${"x".repeat(48)} ; c\n`, stderr: "" });
    expect((await hook("orch-inbox-warn", {}, { env: e, runner: stubRunner([[argv, { stdout: { ok: true, result: { messages: [], count: 0 } } }]]) })).stdout).toBe("");
    expect(await hook("orch-inbox-warn", {}, { env: e, runner: stubRunner([[argv, { code: 1, stdout: "{}" }]]) })).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("hook install", () => {
  const settingsOf = (p: string) => JSON.parse(readFileSync(p, "utf8"));

  test("merges into existing settings, keeps other hooks and keys, and is idempotent", async () => {
    const p = join(dir, ".claude", "settings.json");
    mkdirSync(join(dir, ".claude"));
    const other = { type: "command", command: "/usr/local/bin/other-hook" };
    writeFileSync(p, JSON.stringify({ model: "x", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [other] }], Stop: [{ hooks: [other] }] } }));
    const r = await runMain(["hook", "install", "--host", "claude", "--bin", "/opt/mogui"], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("added: PreToolUse product-path-guard\n");
    const s = settingsOf(p);
    expect(s.model).toBe("x");
    expect(s.hooks.Stop).toEqual([{ hooks: [other] }]);
    expect(s.hooks.PreToolUse[0].hooks).toEqual([other, { type: "command", command: "/opt/mogui hook bash-poll-warn" }, { type: "command", command: "/opt/mogui hook bash-output-trim-warn" }]);
    expect(s.hooks.PreToolUse[1]).toEqual({ matcher: "Edit|Write|MultiEdit|NotebookEdit|Bash", hooks: [{ type: "command", command: "/opt/mogui hook product-path-guard" }] });
    expect(s.hooks.SessionStart.find((g: { matcher?: string }) => g.matcher === "compact").hooks[0].command).toBe("/opt/mogui hook compaction-probe");
    const again = await runMain(["hook", "install", "--host", "claude", "--bin", "/opt/mogui", "--json"], { env: env(), cwd: dir });
    expect(JSON.parse(again.stdout).changes.every((c: { change: string }) => c.change === "unchanged")).toBe(true);
    expect(settingsOf(p)).toEqual(s);
    const moved = await runMain(["hook", "install", "--host", "claude", "--bin", "/new place/mogui", "--json"], { env: env(), cwd: dir });
    expect(JSON.parse(moved.stdout).changes[0]).toEqual({ event: "PreToolUse", hook: "product-path-guard", change: "updated" });
    expect(settingsOf(p).hooks.PreToolUse[1].hooks[0].command).toBe("'/new place/mogui' hook product-path-guard");
  });

  test("--dry-run writes nothing; bad JSON, a non-object and a symlink refuse with exit 2", async () => {
    const p = join(dir, "s.json");
    const dry = await runMain(["hook", "install", "--host", "claude", "--settings", p, "--dry-run"], { env: env(), cwd: dir });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).hooks.UserPromptSubmit[0].hooks.length).toBe(2);
    expect(existsSync(p)).toBe(false);
    writeFileSync(p, "{oops");
    const bad = await runMain(["hook", "install", "--host", "claude", "--settings", p], { env: env(), cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toStartWith(`hook install: ${p} is not valid JSON`);
    expect(readFileSync(p, "utf8")).toBe("{oops");
    writeFileSync(p, "[]");
    expect((await runMain(["hook", "install", "--host", "claude", "--settings", p], { env: env(), cwd: dir })).code).toBe(2);
    const link = join(dir, "link.json");
    symlinkSync(join(dir, "target.json"), link);
    const sym = await runMain(["hook", "install", "--host", "claude", "--settings", link], { env: env(), cwd: dir });
    expect(sym.stderr).toContain("is a symlink");
    expect((await runMain(["hook", "install"], { env: env(), cwd: dir })).code).toBe(2);
    expect((await runMain(["hook", "install", "--host", "cursor"], { env: env(), cwd: dir })).code).toBe(2);
  });
});

describe("hook-coverage-report", () => {
  test("matrix with counts and last fired; never-fired list includes ops hooks; corrupt line exit 2", async () => {
    mkdirSync(home, { recursive: true });
    const log = join(home, "hook-fire-log.jsonl");
    const row = (hook: string, ts: string, rt = "claude", sk = "master") => JSON.stringify({ ts, hook, event: "PreToolUse", cwd: "/x", runtime_hint: rt, session_kind: sk });
    writeFileSync(
      log,
      `${[row("product-path-guard", "2026-01-01T00:00:00Z"), row("product-path-guard", "2026-01-03T00:00:00Z"), row("product-path-guard", "2026-01-02T00:00:00Z", "codex", "worker"), row("bash-poll-warn", "2026-01-01T00:00:00Z")].join("\n")}\n`,
    );
    mkdirSync(join(ops, "scripts", "hooks"), { recursive: true });
    writeFileSync(join(ops, "scripts", "hooks", "custom-check.sh"), "#!/bin/sh\n");
    const r = await runMain(["hook-coverage-report", "--json", "--ops", ops], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.total).toBe(4);
    expect(doc.rows).toEqual([
      { hook: "bash-poll-warn", runtime: "claude", session: "master", count: 1, last_fired: "2026-01-01T00:00:00Z" },
      { hook: "product-path-guard", runtime: "claude", session: "master", count: 2, last_fired: "2026-01-03T00:00:00Z" },
      { hook: "product-path-guard", runtime: "codex", session: "worker", count: 1, last_fired: "2026-01-02T00:00:00Z" },
    ]);
    expect(doc.never_fired).toEqual(["bash-output-trim-warn", "compaction-probe", "custom-check", "orch-inbox-warn", "role-state-inject", "tracker-check"]);
    const text = await runMain(["hook-coverage-report"], { env: env(), cwd: dir });
    expect(text.stdout).toContain("product-path-guard  claude|master    2      2026-01-03T00:00:00Z\n");
    writeFileSync(log, `${row("a", "x")}\nnot json\n${row("b", "y")}\n`);
    const bad = await runMain(["hook-coverage-report"], { env: env(), cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${log}:2: corrupt line`);
  });
});
