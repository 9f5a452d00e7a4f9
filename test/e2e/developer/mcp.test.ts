/**
 * `mogui mcp` end to end: the compiled binary driven by the official MCP client (Client + StdioClientTransport),
 * against real temp git repositories and the Orca simulator (fixtures/bin first on PATH). The confirm flow checks
 * the bytes on disk and the simulator's call log, not the server's word.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { binaryPath, e2eEnv } from "../../helpers/binary.ts";
import { addWorktree, makeRepo, mergeBranch, sh, squashMerge } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
});

async function connect(env: Record<string, string>, args: string[] = []): Promise<{ client: Client; stderr: () => string; pid: () => number | null }> {
  const transport = new StdioClientTransport({ command: binaryPath(), args: ["mcp", ...args], env, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => void (err += d.toString()));
  const client = new Client({ name: "mogui-e2e", version: "0" });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => err, pid: () => transport.pid };
}

function homeEnv(extra: Record<string, string> = {}): { home: string; env: Record<string, string> } {
  const home = tempDir("mogui-mcp-home-");
  return { home, env: e2eEnv({ MOGUI_HOME: home, HOME: home, ...extra }) };
}

const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as Result;
const text = (r: Result) => r.content.map((c) => c.text ?? "").join("\n");
const ledgerRows = (home: string) =>
  existsSync(join(home, "mcp-ledger.jsonl"))
    ? readFileSync(join(home, "mcp-ledger.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

/** Raw newline-delimited JSON-RPC, the way a pasted walkthrough drives it. */
async function raw(lines: unknown[], env: Record<string, string>, args: string[] = []): Promise<{ messages: Array<Record<string, unknown>>; stderr: string; code: number }> {
  const p = Bun.spawn([binaryPath(), "mcp", ...args], { env, stdin: new TextEncoder().encode(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`), stdout: "pipe", stderr: "pipe" });
  const [out, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return {
    messages: out
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
    stderr,
    code,
  };
}

const init = (version: string) => ({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "0" } } });

describe("mcp: the protocol", () => {
  test("initialize with 2025-06-18 and 2025-11-25; stdout carries only JSON-RPC lines; exit 0 when stdin closes", async () => {
    const { env } = homeEnv();
    const version = JSON.parse((await Bun.$`${binaryPath()} --version --json`.env(env).quiet()).stdout.toString()).version;
    for (const v of ["2025-06-18", "2025-11-25"]) {
      // Two calls whose commands print a lot on their stdout (a text file, a large JSON document): it all lands in
      // the results, never on the protocol stream.
      const calls = [
        { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "config_example", arguments: { name: "pre-push" } } },
        { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "config_schema", arguments: { name: "instance-runtime" } } },
      ];
      const r = await raw([init(v), { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 2, method: "ping" }, { jsonrpc: "2.0", id: 3, method: "tools/list" }, ...calls], env);
      expect(r.messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5]);
      const hook = r.messages.find((m) => m.id === 4)!.result as Result;
      expect(text(hook)).toContain("#!/bin/sh");
      expect(hook.structuredContent).toMatchObject({ exit_code: 0, exit: "ok" });
      const schema = r.messages.find((m) => m.id === 5)!.result as Result;
      expect(schema.structuredContent).toMatchObject({ exit_code: 0 });
      expect(Object.keys(schema.structuredContent!).length).toBeGreaterThan(2);
      expect(r.code).toBe(0);
      for (const m of r.messages) expect(m.jsonrpc).toBe("2.0");
      const first = r.messages.find((m) => m.id === 1)!.result as { protocolVersion: string; serverInfo: { name: string; version: string } };
      expect(first.protocolVersion).toBe(v);
      expect(first.serverInfo).toEqual({ name: "mogui", version });
      expect(r.messages.find((m) => m.id === 2)!.result).toEqual({});
      expect((r.messages.find((m) => m.id === 3)!.result as { tools: unknown[] }).tools.length).toBeGreaterThan(50);
    }
  });

  test("the official client: initialize, ping, list; every tool has all four hints; the schemas follow the flags", async () => {
    const { env } = homeEnv();
    const { client } = await connect(env);
    expect(client.getServerVersion()?.name).toBe("mogui");
    expect(client.getInstructions()).toContain("never acts on a first call");
    await client.ping();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ["dispatch_gate_check", "worker_reap", "fleet_scan", "fleet_reap", "redaction_scan", "tracks_list", "worker_reps_add", "master_succeed_retire", "template_apply"]) expect(names).toContain(n);
    for (const n of ["mcp", "completion", "demo", "sim_orca", "sim_herdr", "sim_install_shims", "hook_product_path_guard", "hook_bash_poll_warn", "master_bootstrap_live"]) expect(names).not.toContain(n);
    for (const t of tools) {
      for (const h of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) expect(typeof t.annotations?.[h]).toBe("boolean");
      expect(t.name).toMatch(/^[a-z0-9_]+$/);
    }
    const scan = tools.find((t) => t.name === "fleet_scan")!;
    const props = scan.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.repo).toMatchObject({ type: "array", items: { type: "string" } });
    expect(props.concurrency).toMatchObject({ type: "integer" });
    expect(props.json).toBeUndefined();
    expect(scan.inputSchema.required).toEqual(["repo"]);
    const close = tools.find((t) => t.name === "tracks_close")!;
    expect(close.inputSchema.required).toEqual(["track-id", "resolution"]);
    expect(tools.find((t) => t.name === "worker_reap")!.inputSchema.properties).toHaveProperty("confirm");
    expect(tools.find((t) => t.name === "fleet_reap")!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });
});

describe("mcp: calls", () => {
  test("read-only tools against a real repository and the work ledger: the document, exit_code and exit", async () => {
    const { home, env } = homeEnv();
    const f = makeRepo();
    addWorktree(f, "feature");
    const { client } = await connect(env);
    const scan = await call(client, "fleet_scan", { repo: [f.repo], host: ["none"] });
    expect(scan.isError).toBeUndefined();
    expect(scan.structuredContent).toMatchObject({ exit_code: 0, exit: "ok" });
    const wts = scan.structuredContent!.worktrees as Array<{ path: string; state: string }>;
    expect(wts.map((w) => w.state)).toEqual(["main", "orphaned"]);
    const ledger = join(home, "work.jsonl");
    const reg = await call(client, "tracks_register", { "track-id": "T-1", title: "first", ledger });
    expect(reg.structuredContent).toMatchObject({ exit_code: 0, exit: "ok" });
    const list = await call(client, "tracks_list", { ledger });
    expect(JSON.stringify(list.structuredContent)).toContain("T-1");
    // A positional that starts with `-` is a value (passed after `--`), never a flag.
    const weird = await call(client, "tracks_register", { "track-id": "-T-2", title: "dash", ledger });
    expect(weird.structuredContent?.exit).toBeDefined();
    expect(text(weird)).not.toContain("unknown flag");
    // The simulator: worker_reap's listing form is not destructive and needs no token.
    const unreaped = await call(client, "worker_reap", { unreaped: true });
    expect(unreaped.structuredContent).toMatchObject({ exit_code: 0, exit: "ok", count: 0 });
  });

  test("bad arguments are isError results naming the problem; the server keeps serving", async () => {
    const { env } = homeEnv();
    const { client } = await connect(env);
    const missing = await call(client, "tracks_close", { "track-id": "T-1" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("missing required flag --resolution");
    expect(missing.structuredContent).toMatchObject({ exit_code: 2, exit: "usage" });
    const unknown = await call(client, "tracks_list", { bogus: true });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain("unknown argument 'bogus'");
    const type = await call(client, "tracks_list", { all: "yes" });
    expect(text(type)).toContain("argument 'all' must be a boolean");
    const bound = await call(client, "fleet_scan", { repo: ["/nonexistent"], concurrency: 100000 });
    expect(bound.isError).toBe(true);
    expect(text(bound)).toMatch(/--concurrency must be a whole number from \d+ to \d+ \(got '100000'\)/);
    const stdin = await call(client, "lineage_append", { ledger: "/tmp/x.md", entry: "-" });
    expect(stdin.isError).toBe(true);
    expect(text(stdin)).toContain("reads stdin");
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/unknown tool/);
    await client.ping();
    expect((await call(client, "approval_classify", { "read-only": true })).structuredContent).toMatchObject({ exit_code: 0 });
  });

  test("--read-only lists and serves only read-only tools", async () => {
    const { env } = homeEnv();
    const { client } = await connect(env, ["--read-only"]);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true);
    const names = tools.map((t) => t.name);
    expect(names).toContain("fleet_scan");
    expect(names).not.toContain("fleet_reap");
    const r = await call(client, "tracks_register", { "track-id": "T-1", title: "x", ledger: join(tempDir(), "w.jsonl") });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("--read-only");
  });

  test("the ledger: one row per call with tool, exit, duration, confirm state and an argument hash; never the values", async () => {
    const { home, env } = homeEnv();
    const { client } = await connect(env);
    const planted = "PLANTED-c0ffee-9f3e";
    await call(client, "tracks_register", { "track-id": "T-9", title: planted, ledger: join(home, `${planted}.jsonl`) });
    await call(client, "tracks_close", { "track-id": planted });
    await client.close();
    const text = readFileSync(join(home, "mcp-ledger.jsonl"), "utf8");
    expect(text).not.toContain(planted);
    expect(text).not.toContain("c0ffee");
    const rows = ledgerRows(home);
    expect(rows.length).toBe(2);
    expect(rows[0]).toMatchObject({ event: "mcp_call", tool: "tracks_register", exit_code: 0, exit: "ok", confirm: "none" });
    expect(rows[1]).toMatchObject({ tool: "tracks_close", exit_code: 2, exit: "usage" });
    for (const r of rows) {
      expect(r.args_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(typeof r.duration_ms).toBe("number");
    }
  });
});

describe("mcp: destructive tools need the server's confirm token", () => {
  test("fleet_reap: the first call changes nothing; the token acts once; forged, reused and stale tokens are refused", async () => {
    const { home, env } = homeEnv();
    const f = makeRepo();
    const a = addWorktree(f, "a");
    mergeBranch(f, "a");
    const { client } = await connect(env);
    const args = { repo: [f.repo], execute: true, host: ["none"], "grace-ms": 100 };
    const first = await call(client, "fleet_reap", args);
    expect(first.isError).toBeUndefined();
    const plan = first.structuredContent!.plan as { dry_run: boolean; worktrees: Array<{ path: string; outcome: string }> };
    expect(plan.dry_run).toBe(true);
    expect(plan.worktrees.find((w) => w.path === a)!.outcome).toBe("would_remove");
    const token = first.structuredContent!.confirm as string;
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(existsSync(a)).toBe(true);

    const forged = await call(client, "fleet_reap", { ...args, confirm: `${token.split(".")[0]}.AAAA${token.split(".")[1]!.slice(4)}` });
    expect(forged.isError).toBe(true);
    expect(text(forged)).toContain("not issued by this server");
    const other = await call(client, "fleet_reap", { ...args, "grace-ms": 200, confirm: token });
    expect(other.isError).toBe(true);
    expect(text(other)).toContain("other arguments");
    expect(existsSync(a)).toBe(true);

    const acted = await call(client, "fleet_reap", { ...args, confirm: token });
    expect(acted.isError).toBeUndefined();
    expect(acted.structuredContent).toMatchObject({ exit_code: 0, exit: "ok", dry_run: false });
    expect(existsSync(a)).toBe(false);
    const reused = await call(client, "fleet_reap", { ...args, confirm: token });
    expect(reused.isError).toBe(true);
    expect(text(reused)).toContain("already used");

    // Stale: the plan changes between the token and its use (the worktree gets uncommitted work): nothing happens.
    const b = addWorktree(f, "b");
    mergeBranch(f, "b");
    const second = await call(client, "fleet_reap", args);
    expect((second.structuredContent!.plan as typeof plan).worktrees.find((w) => w.path === b)!.outcome).toBe("would_remove");
    writeFileSync(join(b, "unsaved.txt"), "work in progress\n");
    const stale = await call(client, "fleet_reap", { ...args, confirm: second.structuredContent!.confirm });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toContain("plan changed");
    expect(readFileSync(join(b, "unsaved.txt"), "utf8")).toBe("work in progress\n");
    expect(sh(f.repo, "worktree", "list")).toContain(b);
    await client.close();
    const confirms = ledgerRows(home).map((r) => r.confirm);
    expect(confirms).toEqual(["issued", "refused:forged", "refused:mismatch", "accepted", "refused:reused", "issued", "refused:stale"]);
  });

  test("worker_reap against the Orca simulator: the plan closes nothing; the token call closes and removes", async () => {
    const root = tempDir("mogui-mcp-reap-");
    const f = makeRepo(root);
    const wt = addWorktree(f, "feature");
    squashMerge(f, "feature");
    const callLog = join(root, "orca-calls.jsonl");
    const home = join(root, "home");
    const env = e2eEnv({ ORCA_SIM_STATE: join(root, "orca-state.json"), ORCA_SIM_SCENARIO: "settled", ORCA_SIM_ROOT: root, ORCA_SIM_CALL_LOG: callLog, MOGUI_HOME: home });
    const closes = () =>
      existsSync(callLog)
        ? readFileSync(callLog, "utf8")
            .split("\n")
            .filter((l) => l.includes('"close"')).length
        : 0;
    const { client } = await connect(env);
    const args = { "task-id": "task_1a2b3c4d5e6f" };
    const first = await call(client, "worker_reap", args);
    expect(first.isError).toBeUndefined();
    expect(first.structuredContent!.plan).toMatchObject({ dry_run: true });
    expect(existsSync(wt)).toBe(true);
    expect(closes()).toBe(0);
    expect(existsSync(join(home, "dispatch-ledger.jsonl")) ? readFileSync(join(home, "dispatch-ledger.jsonl"), "utf8") : "").not.toContain('"event":"reap"');
    const bad = await call(client, "worker_reap", { ...args, confirm: "bm90LmEudG9rZW4" });
    expect(bad.isError).toBe(true);
    expect(closes()).toBe(0);
    const acted = await call(client, "worker_reap", { ...args, confirm: first.structuredContent!.confirm });
    expect(acted.isError).toBeUndefined();
    expect(acted.structuredContent).toMatchObject({ exit_code: 0, exit: "ok", dry_run: false });
    expect(existsSync(wt)).toBe(false);
    expect(closes()).toBe(1);
    expect(readFileSync(join(home, "dispatch-ledger.jsonl"), "utf8")).toContain('"event":"reap"');
  });
});

describe("mcp: a destructive command without a dry run", () => {
  test("acceptance_loop_run: a bad call is a usage error with no token; a good one's plan is the call itself", async () => {
    const { env } = homeEnv();
    const { client } = await connect(env);
    const bad = await call(client, "acceptance_loop_run", { config: "c.json", "max-iterations": 0 });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/--max-iterations must be a whole number .*\(got .0.\)/);
    expect(bad.structuredContent?.confirm).toBeUndefined();
    const first = await call(client, "acceptance_loop_run", { config: "c.json", "max-iterations": 2 });
    expect(first.structuredContent).toMatchObject({ plan: { tool: "acceptance_loop_run", arguments: { config: "c.json", "max-iterations": 2 } }, confirm_required: true });
  });
});

describe("mcp: a typed confirmation is the server's token", () => {
  test("template_apply with write: the first call writes nothing; the token call writes without reading stdin", async () => {
    const { env } = homeEnv();
    const ops = tempDir("mogui-mcp-ops-");
    const { client } = await connect(env);
    const args = { ops, write: true, "allow-unfilled": true };
    const first = await call(client, "template_apply", args);
    expect(first.isError).toBeUndefined();
    expect((first.structuredContent!.plan as { actions: unknown[] }).actions.length).toBeGreaterThan(3);
    expect(readdirSync(ops)).toEqual([]);
    const acted = await call(client, "template_apply", { ...args, confirm: first.structuredContent!.confirm });
    expect(acted.isError).toBeUndefined();
    expect(acted.structuredContent).toMatchObject({ exit_code: 0, exit: "ok" });
    expect(readdirSync(ops)).toContain("AGENTS.md");
    await client.ping();
  });
});

describe("mcp: long tools", () => {
  test("progress notifications for a call with a progress token", async () => {
    const { env } = homeEnv();
    const f = makeRepo();
    for (const n of ["a", "b", "c"]) addWorktree(f, n);
    const { client } = await connect(env);
    const seen: Array<{ progress: number; message?: string }> = [];
    const r = (await client.callTool({ name: "fleet_scan", arguments: { repo: [f.repo], host: ["none"] } }, undefined, { onprogress: (p) => void seen.push(p) })) as Result;
    expect(r.structuredContent).toMatchObject({ exit_code: 0 });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen[0]!.message).toContain("started");
    expect(seen.at(-1)!.message).toContain("exit 0");
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
  });

  test("redaction_scan: its JSON report as the document, its verdict exit, progress notifications", async () => {
    const { env } = homeEnv();
    const dir = tempDir("mogui-mcp-scan-");
    // Assembled at run time, so this file itself passes the repository's own redaction gate.
    writeFileSync(join(dir, "leak.txt"), `id = ${["AKIA", "IOSFODNN7EXAMPLQ"].join("")}\n`);
    writeFileSync(join(dir, "clean.txt"), "nothing here\n");
    const { client } = await connect(env);
    const seen: Array<{ progress: number; message?: string }> = [];
    const r = (await client.callTool({ name: "redaction_scan", arguments: { dir, paths: true, operands: ["leak.txt", "clean.txt"] } }, undefined, { onprogress: (p) => void seen.push(p) })) as Result;
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toMatchObject({ exit_code: 1, exit: "findings", verdict: "findings", files: 2 });
    // Start and end always; the scan's own file-batch steps in between when it reports them (timing-dependent).
    expect(seen[0]!.message).toContain("started");
    expect(seen.at(-1)!.message).toContain("exit 1");
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
  });

  /** The processes of a blocking `orca orchestration check` against this state file (the simulator's). */
  const orcaChildren = (state: string) =>
    readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return readFileSync(`/proc/${p}/environ`, "utf8").includes(`ORCA_SIM_STATE=${state}\0`) && readFileSync(`/proc/${p}/cmdline`, "utf8").includes("orchestration");
        } catch {
          return false;
        }
      });

  test("SIGTERM while a call runs: its children are killed and the server exits", async () => {
    const state = join(tempDir("mogui-mcp-term-"), "orca-state.json");
    const { env } = homeEnv({ ORCA_SIM_STATE: state, ORCA_TERMINAL_HANDLE: "term_self" });
    const { client, pid } = await connect(env);
    const pending = client.callTool({ name: "orca_wait", arguments: { once: true, "timeout-ms": 60000 } }).catch((e: Error) => e);
    for (let i = 0; i < 50 && orcaChildren(state).length === 0; i++) await Bun.sleep(100);
    expect(orcaChildren(state).length).toBeGreaterThan(0);
    const server = pid()!;
    process.kill(server, "SIGTERM");
    // The call ends as a cancelled isError result (sent before the server goes) or with the connection closed.
    const end = (await pending) as Result | Error;
    if (!(end instanceof Error)) expect(end).toMatchObject({ isError: true, structuredContent: { exit: "cancelled" } });
    for (let i = 0; i < 50 && orcaChildren(state).length > 0; i++) await Bun.sleep(100);
    expect(orcaChildren(state)).toEqual([]);
    const running = () => {
      try {
        return !/\) [ZX] /.test(readFileSync(`/proc/${server}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && running(); i++) await Bun.sleep(100);
    expect(running()).toBe(false);
  });

  test("cancellation stops the call: the orca child is killed, the ledger says cancelled, the server keeps serving", async () => {
    const root = tempDir("mogui-mcp-cancel-");
    const state = join(root, "orca-state.json");
    const { home, env } = homeEnv({ ORCA_SIM_STATE: state, ORCA_TERMINAL_HANDLE: "term_self" });
    const { client } = await connect(env);
    const ac = new AbortController();
    const started = Date.now();
    const pending = client.callTool({ name: "orca_wait", arguments: { once: true, "timeout-ms": 60000 } }, undefined, { signal: ac.signal });
    const children = () => orcaChildren(state);
    for (let i = 0; i < 50 && children().length === 0; i++) await Bun.sleep(100);
    expect(children().length).toBeGreaterThan(0);
    ac.abort();
    await expect(pending).rejects.toThrow();
    for (let i = 0; i < 50 && children().length > 0; i++) await Bun.sleep(100);
    expect(children()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(30000);
    await client.ping();
    for (let i = 0; i < 50 && !ledgerRows(home).some((r) => r.tool === "orca_wait"); i++) await Bun.sleep(100);
    expect(ledgerRows(home).find((r) => r.tool === "orca_wait")).toMatchObject({ exit: "cancelled" });
  });
});
