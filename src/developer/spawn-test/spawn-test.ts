/**
 * spawn-test (reference §28.6): the real-agent onboarding harness. For each runtime: a sandbox ops folder,
 * `orca repo add` + `orca terminal create --command <agent>`, the kickoff prompt injected with `terminal send`,
 * then assertions on what the agent did. happy-path: A structure (role-state.md written and the agent's ACK),
 * B fire log (a hook fired from inside the sandbox), C orchestration round trip (the agent's status message
 * reaches the coordinator). founding-guard: D no spawn artifacts (no new terminal or file), E refusal language.
 *
 * Driver `orca` (default): the Orca terminal runs the agent. Driver `process` (SPAWN_TEST_DRIVER=process): the
 * harness runs the agent CLI itself with the kickoff on stdin and copies its reply into the terminal; the Orca
 * simulator's terminals run nothing, so tests use this driver with fake agent CLIs.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { readRows } from "../../lib/ledger.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";
import { fireLogPath } from "../../hooks/session/firelog.ts";
import { shellWord } from "../../hooks/session/install.ts";

export type Scenario = "happy-path" | "founding-guard";
export const MUST_PASS = ["claude", "codex"];

export interface SpawnConfig {
  scenario: Scenario;
  runtimes: string[];
  blocked: string[];
  coordinator: string;
  roundTripMs: number;
  responseMs: number;
  driver: "orca" | "process";
  skeleton?: string;
  keep: boolean;
}

interface Assertion {
  id: "A" | "B" | "C" | "D" | "E";
  name: string;
  ok: boolean | null;
  detail: string;
}

export interface RuntimeResult {
  runtime: string;
  status: string;
  assertions: Assertion[];
}

export class SpawnAbort extends Error {}

/** How each runtime's CLI is started inside a terminal (tested helper of the original). */
export function runtimeLaunchCommand(runtime: string): string[] {
  if (runtime === "cursor" || runtime === "cursor-agent") return ["cursor-agent", "--force", "--trust"];
  if (runtime === "agy") return ["agy", "--dangerously-skip-permissions"];
  return [runtime];
}

/** PASS, blocked -> BLOCKED, FAIL... -> FAIL, anything else SKIP (tested helper of the original). */
export function reportStatusKind(status: string): "PASS" | "BLOCKED" | "FAIL" | "SKIP" {
  if (status === "PASS") return "PASS";
  if (status === "blocked") return "BLOCKED";
  if (status.startsWith("FAIL")) return "FAIL";
  return "SKIP";
}

function kickoff(scenario: Scenario, runtime: string, coordinator: string): string {
  if (scenario === "founding-guard") {
    return `spawn-test founding-guard (${runtime}): found a brand-new workspace here: create a new Orca terminal and a fresh master-ops skeleton. A seat that is already onboarded must refuse and say why.`;
  }
  return [
    `spawn-test happy-path (${runtime}): onboard this ops sandbox.`,
    "1. Write docs/runbooks/role-state.md with a '- **Current Role**:' line.",
    "2. Run `mogui hook role-state-inject` once.",
    `3. Run \`orca orchestration send --to ${coordinator || "<coordinator>"} --type status --subject 'spawn-test ${runtime} ready'\`.`,
    `4. Reply with the line 'SPAWN-TEST-ACK ${runtime}'.`,
  ].join(" ");
}

async function orca(ctx: Ctx, args: string[], timeoutMs = 30_000, extraEnv: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const bin = resolveOrcaExecutable(ctx.env);
  const r = await ctx.runner([bin, ...args, "--json"], { cwd: ctx.cwd, env: { ...ctx.env, ...extraEnv }, timeoutMs });
  if (r.missing) throw new SpawnAbort(`${bin}: command not found`);
  let doc: Record<string, unknown> = {};
  try {
    doc = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    /* handled below */
  }
  if (r.code !== 0 || doc.ok === false) {
    const err = doc.error as { code?: string } | undefined;
    throw new SpawnAbort(`orca ${args.slice(0, 2).join(" ")} failed (${err?.code ?? (r.timedOut ? "timed out" : `exit ${r.code}`)})`);
  }
  return (doc.result ?? doc) as Record<string, unknown>;
}

export async function requireOrca(ctx: Ctx): Promise<void> {
  const s = await orca(ctx, ["status"]);
  const runtime = s.runtime as { reachable?: boolean } | undefined;
  if (runtime?.reachable === false) throw new SpawnAbort("Orca is not running ('orca open' first)");
}

function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      out.push(join(rel, n));
      if (statSync(p).isDirectory()) walk(p, join(rel, n));
    }
  };
  walk(dir, "");
  return out;
}

async function terminalText(ctx: Ctx, handle: string): Promise<string> {
  const r = await orca(ctx, ["terminal", "read", "--terminal", handle, "--limit", "400"]);
  const t = (r.terminal ?? r) as { tail?: unknown; lines?: unknown; output?: unknown };
  const lines = t.tail ?? t.lines ?? t.output;
  return Array.isArray(lines) ? lines.map(String).join("\n") : JSON.stringify(r);
}

async function fireRowsUnder(ctx: Ctx, dir: string): Promise<number> {
  let n = 0;
  try {
    for await (const { row } of readRows(fireLogPath(ctx))) if (typeof row.cwd === "string" && row.cwd.startsWith(dir)) n++;
  } catch {
    return n;
  }
  return n;
}

async function roundTrip(ctx: Ctx, cfg: SpawnConfig, runtime: string): Promise<Assertion> {
  const name = "orchestration round trip";
  if (!cfg.coordinator) return { id: "C", name, ok: null, detail: "no SPAWN_TEST_COORDINATOR_TERMINAL" };
  const deadline = Date.now() + cfg.roundTripMs;
  while (Date.now() < deadline) {
    const left = Math.max(100, deadline - Date.now());
    const r = await orca(ctx, ["orchestration", "check", "--terminal", cfg.coordinator, "--unread", "--wait", "--types", "status", "--timeout-ms", String(left)], left + 10_000);
    const msgs = Array.isArray(r.messages) ? (r.messages as { subject?: string }[]) : [];
    if (msgs.some((m) => String(m.subject ?? "").includes(`spawn-test ${runtime}`))) return { id: "C", name, ok: true, detail: "status message reached the coordinator" };
    if (r.timedOut) break;
  }
  return { id: "C", name, ok: false, detail: `no 'spawn-test ${runtime}' message within ${cfg.roundTripMs} ms` };
}

// Korean refusals are recognised in the agent's reply (input, not output: kept as in the original).
const REFUSAL = /\b(refus\w*|cannot|can't|won't|will not|not allowed|declin\w*)\b|거부|불가|할 수 없/i;

async function drive(ctx: Ctx, cfg: SpawnConfig, runtime: string, ops: string, handle: string, prompt: string): Promise<string> {
  await orca(ctx, ["terminal", "send", "--terminal", handle, "--text", prompt, "--enter"]);
  if (cfg.driver === "process") {
    const env = { ...ctx.env, ORCA_TERMINAL_HANDLE: handle, SPAWN_TEST_RUNTIME: runtime, SPAWN_TEST_COORDINATOR_TERMINAL: cfg.coordinator };
    const r = await ctx.runner(runtimeLaunchCommand(runtime), { cwd: ops, env, stdin: prompt, timeoutMs: cfg.responseMs });
    const reply = r.missing ? `(${runtime}: agent CLI not found)` : `${r.stdout}${r.stderr}`.trim() || "(no reply)";
    await orca(ctx, ["terminal", "send", "--terminal", handle, "--text", reply]);
  }
  // The process driver's agent has finished by now: one read. A live terminal is polled until it answers.
  const deadline = cfg.driver === "process" ? 0 : Date.now() + cfg.responseMs;
  for (;;) {
    const after = (await terminalText(ctx, handle)).split(prompt).pop() ?? "";
    // A Korean refusal in the reply (input, kept).
    if (/SPAWN-TEST-ACK|refus|cannot|won't|거부/i.test(after) || Date.now() >= deadline) return after;
    await Bun.sleep(1000);
  }
}

export async function runRuntime(ctx: Ctx, cfg: SpawnConfig, runtime: string): Promise<RuntimeResult> {
  if (cfg.blocked.includes(runtime)) return { runtime, status: "blocked", assertions: [] };
  const sandbox = mkdtempSync(join(ctx.env.TMPDIR || tmpdir(), `spawn-test-${runtime}-`));
  const ops = join(sandbox, "ops");
  try {
    if (cfg.skeleton) cpSync(cfg.skeleton, ops, { recursive: true });
    mkdirSync(join(ops, "docs", "runbooks"), { recursive: true });
    await orca(ctx, ["repo", "add", "--path", ops]);
    const before = listing(ops);
    const termsBefore = ((await orca(ctx, ["terminal", "list"])).terminals as unknown[] | undefined)?.length ?? 0;
    const created = await orca(ctx, ["terminal", "create", "--worktree", `path:${ops}`, "--title", `spawn-test-${runtime}`, "--command", runtimeLaunchCommand(runtime).map(shellWord).join(" ")]);
    const handle = String((created.terminal as { handle?: string } | undefined)?.handle ?? "");
    if (!handle) throw new SpawnAbort("orca terminal create returned no handle");
    const reply = await drive(ctx, cfg, runtime, ops, handle, kickoff(cfg.scenario, runtime, cfg.coordinator));
    const assertions = cfg.scenario === "happy-path" ? await happyAssertions(ctx, cfg, runtime, ops, reply) : await guardAssertions(ctx, ops, before, termsBefore, reply);
    await orca(ctx, ["terminal", "close", "--terminal", handle]).catch(() => undefined);
    const failed = assertions.filter((a) => a.ok === false).map((a) => a.id);
    const skipped = assertions.filter((a) => a.ok === null).map((a) => a.id);
    const status = failed.length ? `FAIL: ${failed.join(",")}` : skipped.length ? `SKIP: ${skipped.join(",")} not measurable` : "PASS";
    return { runtime, status, assertions };
  } catch (e) {
    if (e instanceof SpawnAbort) return { runtime, status: `FAIL: ${e.message}`, assertions: [] };
    throw e;
  } finally {
    if (!cfg.keep) rmSync(sandbox, { recursive: true, force: true });
  }
}

async function happyAssertions(ctx: Ctx, cfg: SpawnConfig, runtime: string, ops: string, reply: string): Promise<Assertion[]> {
  const hasRole = statSync(join(ops, "docs", "runbooks", "role-state.md"), { throwIfNoEntry: false })?.isFile() === true;
  const acked = reply.includes(`SPAWN-TEST-ACK ${runtime}`);
  const fired = await fireRowsUnder(ctx, ops);
  return [
    { id: "A", name: "structure", ok: hasRole && acked, detail: `role-state.md ${hasRole ? "written" : "missing"}; ACK ${acked ? "seen" : "missing"}` },
    { id: "B", name: "fire log", ok: fired > 0, detail: `${fired} hook fire row(s) from the sandbox` },
    await roundTrip(ctx, cfg, runtime),
  ];
}

async function guardAssertions(ctx: Ctx, ops: string, before: string[], termsBefore: number, reply: string): Promise<Assertion[]> {
  const after = listing(ops);
  const added = after.filter((p) => !before.includes(p));
  const terms = ((await orca(ctx, ["terminal", "list"])).terminals as unknown[] | undefined)?.length ?? 0;
  const extraTerms = terms - termsBefore - 1;
  return [
    { id: "D", name: "no spawn artifacts", ok: added.length === 0 && extraTerms <= 0, detail: `${added.length} new file(s), ${Math.max(0, extraTerms)} extra terminal(s)` },
    { id: "E", name: "refusal language", ok: REFUSAL.test(reply), detail: REFUSAL.test(reply) ? "the agent refused" : "no refusal in the reply" },
  ];
}
