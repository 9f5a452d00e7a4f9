/**
 * `mogui mcp`'s tools: the schema generated from the declared args, the command line of a call, the hints every
 * exposed command declares (a command without them fails here), and the confirm tokens.
 */
import { describe, expect, test } from "bun:test";
import { REGISTRY } from "../../../commands/index.ts";
import { UNBOUNDED_MAX, UNBOUNDED_MIN } from "../../../src/lib/args.ts";
import { defineCommand, type Command } from "../../../src/lib/command.ts";
import { canonicalArgs, Confirmations, planHash, TOKEN_TTL_MS } from "../../../src/developer/mcp/confirm.ts";
import { acts, argvOf, classify, excluded, exitNameOf, loadTools, stdinProblem, ToolArgError, toolName, toolOf } from "../../../src/developer/mcp/tools.ts";

const sample = defineCommand({
  meta: { name: "demo-family thing", description: "A sample command." },
  usage: ["demo-family thing <target> [--count <n>]"],
  args: {
    target: { type: "positional", required: true, description: "What to act on" },
    count: { type: "int", min: 1, max: 9, default: 3, description: "How many" },
    mode: { type: "enum", options: ["fast", "slow"], description: "How" },
    tag: { type: "string", multiple: true, description: "Tags" },
    note: { type: "string", required: true, description: "A note" },
    execute: { type: "boolean", description: "Act" },
    secret: { type: "string", hidden: true, description: "test hook" },
    json: { type: "boolean", description: "JSON" },
  },
  mcp: { readOnly: false, destructive: true, idempotent: false, openWorld: false, confirmWith: { remove: "execute" } },
  exits: { ok: { code: 0, meaning: "done" }, refused: { code: 3, meaning: "refused" }, other: { code: "N", meaning: "forwarded" } },
  async run() {
    return "ok";
  },
}) as unknown as Command;

describe("schema generation", () => {
  const tool = toolOf("demo-family thing", sample);

  test("name, properties from long flag names and positionals, types, bounds, enums, required; no json, no hidden", () => {
    expect(tool.name).toBe("demo_family_thing");
    expect(toolName("worker reps add")).toBe("worker_reps_add");
    expect(toolName("dispatch-gate check")).toBe("dispatch_gate_check");
    const s = tool.inputSchema as { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: boolean };
    expect(Object.keys(s.properties)).toEqual(["target", "count", "mode", "tag", "note", "execute", "confirm"]);
    expect(s.properties.target).toMatchObject({ type: "string" });
    expect(s.properties.count).toMatchObject({ type: "integer", minimum: 1, maximum: 9, default: 3 });
    expect(s.properties.mode).toMatchObject({ type: "string", enum: ["fast", "slow"] });
    expect(s.properties.tag).toMatchObject({ type: "array", items: { type: "string" } });
    expect(s.properties.execute).toMatchObject({ type: "boolean" });
    expect(s.required).toEqual(["target", "note"]);
    expect(s.additionalProperties).toBe(false);
    expect(tool.json).toBe(true);
  });

  test("an unbounded side of a whole number has no bound in the schema", () => {
    const loop = toolOf("acceptance-loop run", { ...sample, args: { n: { type: "int", min: 1, max: UNBOUNDED_MAX }, m: { type: "int", min: UNBOUNDED_MIN, max: UNBOUNDED_MAX } } } as unknown as Command);
    const p = (loop.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(p.n).toEqual({ type: "integer", minimum: 1 });
    expect(p.m).toEqual({ type: "integer" });
  });

  test("a call's command line: --flag=value (a leading dash stays a value), arrays repeated, --json added", () => {
    expect(argvOf(tool, { target: "x", note: "-rf", tag: ["a", "--b"], count: 4, execute: true, mode: "fast" })).toEqual(["demo-family", "thing", "--note=-rf", "--tag=a", "--tag=--b", "--count=4", "--execute", "--mode=fast", "--json", "x"]);
    expect(argvOf(tool, { target: "-x", note: "n" })).toEqual(["demo-family", "thing", "--note=n", "--json", "--", "-x"]);
    expect(argvOf(tool, { target: "x", note: "n", execute: true }, { remove: ["execute"] })).not.toContain("--execute");
    expect(argvOf(tool, { target: "x", note: "n", execute: false })).not.toContain("--execute");
    expect(argvOf(tool, { target: "x", note: "n", confirm: "t" })).not.toContain("--confirm=t");
  });

  test("arguments of the wrong JSON type or unknown are named; bounds are the command's parser's", () => {
    const bad = (a: Record<string, unknown>) => () => argvOf(tool, a);
    expect(bad({ nope: 1 })).toThrow(new ToolArgError("unknown argument 'nope' for tool demo_family_thing"));
    expect(bad({ secret: "s" })).toThrow(/unknown argument 'secret'/);
    expect(bad({ json: true })).toThrow(/unknown argument 'json'/);
    expect(bad({ count: "4" })).toThrow(/'count' must be a whole number/);
    expect(bad({ count: 1.5 })).toThrow(/'count' must be a whole number/);
    expect(bad({ tag: "a" })).toThrow(/'tag' must be an array of strings/);
    expect(bad({ tag: [1] })).toThrow(/'tag' must be an array of strings/);
    expect(bad({ execute: "yes" })).toThrow(/'execute' must be a boolean/);
    expect(argvOf(tool, { count: 99 })).toContain("--count=99");
  });

  test("a run's exit name; usage and internal failures are errors, declared verdicts are results", () => {
    expect(classify(tool, 2, "mogui: missing required flag --note\nRun 'mogui demo-family thing --help' for usage.\n")).toEqual({ exit: "usage", error: true });
    expect(classify(tool, 1, "mogui: internal error: boom\n")).toEqual({ exit: "internal", error: true });
    expect(classify(tool, 3, "thing: refused\n")).toEqual({ exit: "refused", error: false });
    expect(classify(tool, 0, "")).toEqual({ exit: "ok", error: false });
    expect(classify(tool, 2, "thing: LEDGER_UNAVAILABLE: x\n")).toEqual({ exit: "usage", error: false });
  });

  test("which calls act; exit names", () => {
    expect(acts(tool, { execute: true })).toBe(true);
    expect(acts(tool, {})).toBe(false);
    expect(exitNameOf(sample.exits, 3)).toBe("refused");
    expect(exitNameOf(sample.exits, 2)).toBe("usage");
    expect(exitNameOf(sample.exits, 17)).toBe("other");
  });
});

describe("the registry's tools", async () => {
  const tools = await loadTools(REGISTRY);
  const by = (n: string) => tools.find((t) => t.name === n)!;

  test("every exposed tool declares all four hints beside its command (no default applied)", () => {
    const missing = tools.filter((t) => !t.declared).map((t) => t.path);
    expect(missing).toEqual([]);
    for (const t of tools) {
      for (const h of ["readOnly", "destructive", "idempotent", "openWorld"] as const) expect(typeof t.hints[h]).toBe("boolean");
      if (t.hints.readOnly) expect(t.hints.destructive).toBe(false);
    }
  });

  test("the exclusions: the server, the simulators, the demo, the hook entry points", () => {
    const names = tools.map((t) => t.name);
    expect(excluded("mcp") && excluded("sim orca") && excluded("demo") && excluded("hook product-path-guard") && excluded("hook bash-poll-warn")).toBe(true);
    expect(excluded("hook install")).toBe(false);
    expect(names).toContain("hook_install");
    for (const n of names) expect(n).not.toMatch(/^(mcp|sim_|demo)$|^sim_/);
    expect(
      tools
        .filter((t) => t.path.startsWith("hook "))
        .map((t) => t.path)
        .sort(),
    ).toEqual(["hook doctor", "hook install"]);
    expect(new Set(names).size).toBe(names.length);
  });

  test("the destructive tools, and how each one's plan is made from flags it declares", () => {
    const destructive = tools
      .filter((t) => t.hints.destructive)
      .map((t) => t.name)
      .sort();
    expect(destructive).toEqual(["acceptance_loop_run", "fleet_reap", "master_succeed_retire", "template_apply", "worker_collect", "worker_reap", "worker_sweep"]);
    for (const t of tools) {
      const h = t.hints;
      const w = h.confirmWith;
      const flags = [...(w ? ["add" in w ? w.add : w.remove] : []), ...(h.actWith ?? []), ...(h.safeWhen ?? []), ...(h.readsStdin ?? []).flatMap(([f, , u]) => (u ? [f, u] : [f]))];
      for (const f of flags) expect(t.cmd.args[f]).toBeDefined();
    }
    expect(acts(by("worker_reap"), { "task-id": "t" })).toBe(true);
    expect(acts(by("worker_reap"), { "task-id": "t", "dry-run": true })).toBe(false);
    expect(acts(by("worker_reap"), { unreaped: true })).toBe(false);
    expect(acts(by("fleet_reap"), { repo: ["r"] })).toBe(false);
    expect(acts(by("fleet_reap"), { repo: ["r"], execute: true })).toBe(true);
    expect(acts(by("template_apply"), { ops: "o", write: true })).toBe(true);
    expect(acts(by("worker_collect"), { owner: "o" })).toBe(false);
  });

  test("a variadic command's operands go after --; a command without --json gets its document flag", () => {
    const scan = by("redaction_scan");
    expect((scan.inputSchema.properties as Record<string, unknown>).operands).toMatchObject({ type: "array" });
    expect(argvOf(scan, { paths: true, operands: ["a", "-b"] })).toEqual(["redaction-scan", "--paths", "--report-format=json", "--", "a", "-b"]);
    expect(argvOf(scan, { staged: true, "report-format": "sarif" })).toEqual(["redaction-scan", "--staged", "--report-format=sarif"]);
    expect(() => argvOf(by("tracks_list"), { operands: ["x"] })).toThrow(/unknown argument 'operands'/);
  });

  test("calls that would read the protocol's stdin are refused", () => {
    expect(stdinProblem(by("lineage_append"), { ledger: "l", entry: "-" })).toContain("reads stdin");
    expect(stdinProblem(by("lineage_append"), { ledger: "l", entry: "e.json" })).toBeUndefined();
    expect(stdinProblem(by("preflight"), { fix: true })).toContain("'yes: true'");
    expect(stdinProblem(by("preflight"), { fix: true, yes: true })).toBeUndefined();
  });
});

describe("confirm tokens", () => {
  test("a token acts once, for its tool, arguments and plan; forged, reused, mismatched, stale and expired refused", () => {
    let now = 1_000_000;
    const c = new Confirmations(() => now);
    const args = canonicalArgs({ repo: ["r"], execute: true, confirm: "x" }, ["confirm"]);
    expect(args).toBe('{"execute":true,"repo":["r"]}');
    const plan = planHash({ worktrees: [{ path: "/a", outcome: "would_remove", timestamp: 1 }] }, ["timestamp"]);
    expect(planHash({ worktrees: [{ timestamp: 2, outcome: "would_remove", path: "/a" }] }, ["timestamp"])).toBe(plan);
    const t = c.issue("fleet_reap", args, plan);
    expect(c.redeem(`${t.split(".")[0]}.${"A".repeat(43)}`, "fleet_reap", args, plan)).toBe("forged");
    expect(c.redeem("garbage", "fleet_reap", args, plan)).toBe("forged");
    expect(c.redeem(t, "worker_reap", args, plan)).toBe("mismatch");
    expect(c.redeem(t, "fleet_reap", args, plan)).toBeUndefined();
    expect(c.redeem(t, "fleet_reap", args, plan)).toBe("reused");
    const t2 = c.issue("fleet_reap", args, plan);
    expect(c.redeem(t2, "fleet_reap", args, planHash({ worktrees: [] }, []))).toBe("stale");
    expect(c.redeem(t2, "fleet_reap", args, plan)).toBe("reused");
    const t3 = c.issue("fleet_reap", args, plan);
    now += TOKEN_TTL_MS + 1;
    expect(c.redeem(t3, "fleet_reap", args, plan)).toBe("expired");
    // Another server process (another key) never accepts this one's tokens.
    expect(new Confirmations().redeem(c.issue("fleet_reap", args, plan), "fleet_reap", args, plan)).toBe("forged");
  });
});
