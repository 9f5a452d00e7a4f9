/**
 * The Orca client. Every call goes through the Runner seam with `--json`, and every reply is parsed with valibot
 * into either a result or a named OrcaError; nothing here throws a raw exception at a caller.
 */
import * as v from "valibot";
import type { Ctx } from "../context.ts";
import { DEFAULT_TIMEOUT_MS, describeFailure, type RunResult } from "../runner.ts";
import { resolveOrcaExecutable } from "./resolve.ts";
import {
  DispatchRow,
  DispatchShowResult,
  ErrorEnvelope,
  LegacyDispatch,
  OkEnvelope,
  TaskListResult,
  TerminalCloseResult,
  TerminalListResult,
  TerminalSendResult,
  TerminalShowResult,
  TerminalWaitResult,
  type TaskRowT,
  type TerminalSendT,
  type TerminalSummaryT,
  type TerminalWaitT,
} from "./schemas.ts";

/** How an orca call failed. `exit` carries orca's own code, which some commands pass through. */
export type OrcaFailure = "missing" | "timeout" | "signal" | "exit" | "parse";

export interface OrcaErrorDetail {
  /** The runner's result, when orca ran. */
  run?: RunResult;
  /** orca's stdout parsed as JSON, when it was JSON (an error envelope, or a success envelope with exit 1). */
  doc?: unknown;
}

export class OrcaError extends Error {
  readonly run?: RunResult;
  readonly doc?: unknown;

  constructor(
    readonly failure: OrcaFailure,
    message: string,
    /** orca's exit code for `exit`; null otherwise. */
    readonly exitCode: number | null = null,
    /** Orca's error code from an `ok:false` envelope (`terminal_not_found`, ...). */
    readonly orcaCode?: string,
    detail: OrcaErrorDetail = {},
  ) {
    super(message);
    this.name = "OrcaError";
    this.run = detail.run;
    this.doc = detail.doc;
  }

  /**
   * The `result` of a SUCCESS envelope that orca printed with a non-zero exit (`terminal wait` unsatisfied,
   * `terminal send` not accepted, `worker-start` not ready); undefined for every other failure.
   */
  get okResult(): Record<string, unknown> | undefined {
    const env = v.safeParse(OkEnvelope, this.doc);
    return env.success ? env.output.result : undefined;
  }
}

/** A dispatch in one normalised form, whichever shape Orca printed. */
export interface Dispatch {
  id: string;
  taskId: string | null;
  /** As Orca printed it; compare with `normalStatus`. */
  status: string;
  terminal: string | null;
  /** Legacy `worktree_path`, when the flat shape carried one. */
  legacyWorktreePath: string | null;
  /** The `<repoId>::<path>` part of `process_incarnation`, when present. */
  incarnationWorktreePath: string | null;
  shape: "envelope" | "legacy";
}

export function normalStatus(s: string): string {
  return s.trim().toLowerCase();
}

function issuesText(issues: v.BaseIssue<unknown>[]): string {
  // A union's own issue only says "Expected Object but received Object"; its branches name the missing keys.
  const flat = issues.flatMap((i): v.BaseIssue<unknown>[] => {
    if (!i.issues || i.issues.length === 0) return [i];
    return i.issues.map((c) => ({ ...c, path: [...(i.path ?? []), ...(c.path ?? [])] }) as v.BaseIssue<unknown>);
  });
  const lines = v.summarize(flat as [v.BaseIssue<unknown>]).split(/\n(?=×)/);
  return [...new Set(lines)].join("\n").replace(/\n/g, "; ");
}

function incarnationPath(pi: string | null | undefined): string | null {
  if (!pi) return null;
  const sep = pi.indexOf("::");
  if (sep < 0) return null;
  const rest = pi.slice(sep + 2);
  const at = rest.indexOf("@@");
  const path = at >= 0 ? rest.slice(0, at) : rest;
  return path.startsWith("/") ? path : null;
}

export function normaliseDispatch(raw: unknown): Dispatch | null {
  const real = v.safeParse(DispatchRow, raw);
  if (real.success) {
    const d = real.output;
    return {
      id: d.id,
      taskId: d.task_id ?? null,
      status: d.status,
      terminal: d.assignee_handle || (typeof d.terminal_id === "string" ? d.terminal_id : null) || null,
      legacyWorktreePath: typeof d.worktree_path === "string" && d.worktree_path ? d.worktree_path : null,
      incarnationWorktreePath: incarnationPath(d.process_incarnation),
      shape: "envelope",
    };
  }
  const legacy = v.safeParse(LegacyDispatch, raw);
  if (legacy.success) {
    const d = legacy.output;
    return {
      id: d.dispatch_id,
      taskId: d.task_id ?? null,
      status: d.status,
      terminal: d.terminal_id || null,
      legacyWorktreePath: d.worktree_path || null,
      incarnationWorktreePath: null,
      shape: "legacy",
    };
  }
  return null;
}

export interface OrcaClientOptions {
  timeoutMs?: number;
}

export class OrcaClient {
  readonly exe: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly ctx: Ctx,
    opts: OrcaClientOptions = {},
  ) {
    this.exe = resolveOrcaExecutable(ctx.env);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Run `orca <args> --json`; return the parsed JSON document (envelope or flat). */
  async raw(args: readonly string[], opts: { timeoutMs?: number } = {}): Promise<{ json: unknown; run: RunResult }> {
    const argv = [this.exe, ...args, "--json"];
    const label = `orca ${args
      .filter((a) => !a.startsWith("--") || a === args[0])
      .slice(0, 2)
      .join(" ")}`;
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const run = await this.ctx.runner(argv, { cwd: this.ctx.cwd, env: this.ctx.env, timeoutMs });
    if (run.missing) throw new OrcaError("missing", `${label}: orca executable '${this.exe}' not found (set ORCA_CLI_COMMAND)`, null, undefined, { run });
    if (run.timedOut) throw new OrcaError("timeout", `${label}: timed out after ${timeoutMs} ms`, null, undefined, { run });
    if (run.signal) throw new OrcaError("signal", `${label}: killed by ${run.signal}`, null, undefined, { run });
    let json: unknown;
    try {
      json = JSON.parse(run.stdout);
    } catch {
      json = undefined;
    }
    const err = v.safeParse(ErrorEnvelope, json);
    if (run.code !== 0 || err.success) {
      const why = err.success ? `${err.output.error.code}: ${err.output.error.message}` : describeFailure(run).replace(/^[^:]+: /, "");
      throw new OrcaError("exit", `${label} failed: ${why}`, run.code === 0 ? 1 : run.code, err.success ? err.output.error.code : undefined, { run, doc: json });
    }
    if (json === undefined) throw new OrcaError("parse", `${label}: output is not JSON: ${snippet(run.stdout)}`, null, undefined, { run });
    return { json, run };
  }

  /** The `result` object of an ok envelope, or the whole document for the legacy flat shape. */
  async result(args: readonly string[], opts: { timeoutMs?: number } = {}): Promise<Record<string, unknown>> {
    const { json } = await this.raw(args, opts);
    const env = v.safeParse(OkEnvelope, json);
    if (env.success) return env.output.result;
    if (json && typeof json === "object" && !Array.isArray(json) && !("ok" in json)) return json as Record<string, unknown>;
    throw new OrcaError("parse", `orca ${args.slice(0, 2).join(" ")}: not an Orca envelope: ${snippet(JSON.stringify(json))}`);
  }

  private parse<T extends v.GenericSchema>(schema: T, value: unknown, what: string): v.InferOutput<T> {
    const r = v.safeParse(schema, value);
    if (!r.success) throw new OrcaError("parse", `orca ${what}: unexpected JSON: ${issuesText(r.issues)}`);
    return r.output;
  }

  /** The latest dispatch of a task; null when Orca knows no dispatch for it. */
  async dispatchShow(taskId: string): Promise<Dispatch | null> {
    const res = await this.result(["orchestration", "dispatch-show", "--task", taskId]);
    if ("dispatch" in res) {
      const parsed = this.parse(DispatchShowResult, res, "orchestration dispatch-show");
      if (parsed.dispatch === null) return null;
      return normaliseDispatch(parsed.dispatch);
    }
    const flat = normaliseDispatch(res);
    if (!flat) throw new OrcaError("parse", `orca orchestration dispatch-show: unexpected JSON: no dispatch object`);
    return flat;
  }

  async taskList(): Promise<TaskRowT[]> {
    const res = await this.result(["orchestration", "task-list"]);
    return this.parse(TaskListResult, res, "orchestration task-list").tasks;
  }

  async terminalShow(handle: string): Promise<TerminalSummaryT> {
    const res = await this.result(["terminal", "show", "--terminal", handle]);
    return this.parse(TerminalShowResult, res, "terminal show").terminal;
  }

  async terminalList(worktree?: string): Promise<TerminalSummaryT[]> {
    const args = ["terminal", "list", ...(worktree ? ["--worktree", worktree] : [])];
    const res = await this.result(args);
    return this.parse(TerminalListResult, res, "terminal list").terminals;
  }

  /**
   * A command whose success envelope may come with exit 1 (docs/orca-cli.md §1): that envelope's `result` is returned
   * like a success; any other failure still throws.
   */
  async resultEvenIfUnsatisfied(args: readonly string[], opts: { timeoutMs?: number } = {}): Promise<Record<string, unknown>> {
    try {
      return await this.result(args, opts);
    } catch (e) {
      const res = e instanceof OrcaError ? e.okResult : undefined;
      if (res) return res;
      throw e;
    }
  }

  /**
   * `terminal wait --for <condition>`: `satisfied:false` (an exited agent, a blockedReason) is a result, not an
   * error; the wait's own timeout is the OrcaError with orcaCode `timeout`. The process deadline is the wait's
   * plus 5 s, like the real client's RPC deadline.
   */
  async terminalWait(handle: string, condition: "exit" | "tui-idle", timeoutMs: number): Promise<TerminalWaitT> {
    const args = ["terminal", "wait", "--terminal", handle, "--for", condition, "--timeout-ms", String(timeoutMs)];
    const res = await this.resultEvenIfUnsatisfied(args, { timeoutMs: timeoutMs + 5_000 });
    return this.parse(TerminalWaitResult, res, "terminal wait").wait;
  }

  /** `terminal send`: a refusal (`accepted:false`, exit 1) comes back as the send record, not as an error. */
  async terminalSend(handle: string, input: { text?: string; enter?: boolean; interrupt?: boolean }): Promise<TerminalSendT> {
    const args = ["terminal", "send", "--terminal", handle, ...(input.text !== undefined ? [`--text=${input.text}`] : []), ...(input.enter ? ["--enter"] : []), ...(input.interrupt ? ["--interrupt"] : [])];
    const res = await this.resultEvenIfUnsatisfied(args);
    return this.parse(TerminalSendResult, res, "terminal send").send;
  }

  /** DECISIONS D4: always `--terminal <handle>`, never positional. */
  async terminalClose(handle: string): Promise<{ ptyKilled: boolean | undefined }> {
    const res = await this.result(["terminal", "close", "--terminal", handle]);
    const close = this.parse(TerminalCloseResult, res, "terminal close").close;
    return { ptyKilled: close.ptyKilled };
  }
}

function snippet(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 117)}...` : one || "(empty)";
}
