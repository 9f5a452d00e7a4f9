/**
 * The herdr 0.8.x client. Every call goes through the Runner seam as an argv array with a timeout. herdr prints
 * success as one JSON line on stdout (exit 0), server errors as a JSON envelope on stderr (exit 1) and usage
 * errors as plain text (exit 2); each becomes a named HerdrError, never a raw exception.
 */
import * as v from "valibot";
import type { Ctx } from "../context.ts";
import { DEFAULT_TIMEOUT_MS } from "../runner.ts";
import { AgentList, AgentOne, ErrorEnvelope, OkEnvelope, OutputMatched, PaneList, PaneOne, TabCreated, type AgentInfoT, type PaneInfoT } from "./schemas.ts";

export type HerdrFailure = "missing" | "timeout" | "signal" | "server" | "usage" | "exit" | "parse";

export class HerdrError extends Error {
  constructor(
    readonly failure: HerdrFailure,
    message: string,
    /** herdr's error code from the stderr envelope (`agent_name_taken`, `pane_not_found`, `timeout` ...). */
    readonly herdrCode?: string,
  ) {
    super(message);
    this.name = "HerdrError";
  }
}

/** HERDR_CLI_COMMAND overrides the executable (a wrapper, a named build); default `herdr` on PATH. */
function herdrExecutable(env: Ctx["env"]): string {
  return env.HERDR_CLI_COMMAND?.trim() || "herdr";
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0] ?? "";
}

export class HerdrClient {
  readonly exe: string;

  constructor(
    private readonly ctx: Ctx,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    this.exe = herdrExecutable(ctx.env);
  }

  /** Run herdr; return stdout on exit 0, throw a named HerdrError otherwise. */
  async run(args: readonly string[], timeoutMs = this.timeoutMs): Promise<string> {
    const label = `herdr ${args.slice(0, 2).join(" ")}`;
    const r = await this.ctx.runner([this.exe, ...args], { env: this.ctx.env, timeoutMs });
    if (r.missing) throw new HerdrError("missing", `${label}: herdr executable '${this.exe}' not found (set HERDR_CLI_COMMAND)`);
    if (r.timedOut) throw new HerdrError("timeout", `${label}: timed out after ${timeoutMs} ms`);
    if (r.signal) throw new HerdrError("signal", `${label}: killed by ${r.signal}`);
    if (r.code === 0) return r.stdout;
    let parsed: unknown;
    try {
      parsed = JSON.parse(firstLine(r.stderr));
    } catch {
      parsed = undefined;
    }
    const err = v.safeParse(ErrorEnvelope, parsed);
    if (err.success) throw new HerdrError("server", `${label}: ${err.output.error.code}: ${err.output.error.message}`, err.output.error.code);
    if (r.code === 2) throw new HerdrError("usage", `${label}: usage error: ${firstLine(r.stderr)}`);
    throw new HerdrError("exit", `${label}: exit ${r.code}${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ""}`);
  }

  async result<T extends v.GenericSchema>(args: readonly string[], schema: T, timeoutMs?: number): Promise<v.InferOutput<T>> {
    const out = await this.run(args, timeoutMs);
    let json: unknown;
    try {
      json = JSON.parse(out);
    } catch {
      throw new HerdrError("parse", `herdr ${args.slice(0, 2).join(" ")}: output is not JSON: ${out.slice(0, 80)}`);
    }
    const env = v.safeParse(OkEnvelope, json);
    if (!env.success) throw new HerdrError("parse", `herdr ${args.slice(0, 2).join(" ")}: not a herdr result envelope`);
    const r = v.safeParse(schema, env.output.result);
    if (!r.success) throw new HerdrError("parse", `herdr ${args.slice(0, 2).join(" ")}: unexpected JSON: ${v.summarize(r.issues).replace(/\n/g, "; ")}`);
    return r.output;
  }

  async paneList(workspace?: string): Promise<PaneInfoT[]> {
    return (await this.result(["pane", "list", ...(workspace ? ["--workspace", workspace] : [])], PaneList)).panes;
  }

  async paneGet(id: string): Promise<PaneInfoT> {
    return (await this.result(["pane", "get", id], PaneOne)).pane;
  }

  async agentList(): Promise<AgentInfoT[]> {
    return (await this.result(["agent", "list"], AgentList)).agents;
  }

  async agentGet(target: string): Promise<AgentInfoT> {
    return (await this.result(["agent", "get", target], AgentOne)).agent;
  }

  async tabCreate(workspace: string, cwd: string, label: string): Promise<PaneInfoT> {
    return (await this.result(["tab", "create", "--workspace", workspace, "--cwd", cwd, "--label", label, "--no-focus"], TabCreated)).root_pane;
  }

  /** 0.7.5+ syntax: the pane must exist; herdr waits (default 30 s) until the agent is interactive. */
  async agentStart(name: string, kind: string, pane: string, agentArgs: readonly string[]): Promise<AgentInfoT> {
    const args = ["agent", "start", name, "--kind", kind, "--pane", pane, ...(agentArgs.length ? ["--", ...agentArgs] : [])];
    return (await this.result(args, AgentOne, Math.max(this.timeoutMs, 40_000))).agent;
  }

  async agentRead(target: string, source: "recent-unwrapped" | "visible", lines: number): Promise<string> {
    return this.run(["agent", "read", target, "--source", source, "--lines", String(lines)]);
  }

  async paneRead(id: string, source: "recent-unwrapped" | "visible", lines: number): Promise<string> {
    return this.run(["pane", "read", id, "--source", source, "--lines", String(lines)]);
  }

  /** Raw and non-submitting (herdr's own words): for plain shell panes only; agents get `agentPrompt`. */
  async sendText(id: string, text: string): Promise<void> {
    await this.run(["pane", "send-text", id, text]);
  }

  /**
   * `agent prompt <target> <text>`: herdr pastes the text as one bracketed paste and submits it with a delayed Enter,
   * so a multi-line brief reaches a TUI agent whole. The text is always args[1], even when it starts with `-`.
   * herdr may wait (about 5 s) for the agent to react before answering (`agent_prompt_stalled` if it does not).
   */
  async agentPrompt(target: string, text: string): Promise<void> {
    await this.result(["agent", "prompt", target, text], AgentOne, Math.max(this.timeoutMs, 15_000));
  }

  async sendKeys(id: string, ...keys: string[]): Promise<void> {
    await this.run(["pane", "send-keys", id, ...keys]);
  }

  /** true when a line matched within the timeout; false on herdr's `timeout` error. */
  async waitOutput(id: string, match: string, timeoutMs: number): Promise<boolean> {
    try {
      await this.result(["pane", "wait-output", id, "--match", match, "--source", "recent-unwrapped", "--timeout", String(timeoutMs)], OutputMatched, timeoutMs + 5_000);
      return true;
    } catch (e) {
      if (e instanceof HerdrError && e.herdrCode === "timeout") return false;
      throw e;
    }
  }

  /** `pane close` only: `tab close` would take every other pane of the tab with it (spawn-worker §6-4). */
  async paneClose(id: string): Promise<void> {
    await this.run(["pane", "close", id]);
  }
}
