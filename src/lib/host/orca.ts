/**
 * The Orca side of the host adapter, through the foundation's OrcaClient (docs/orca-cli.md §3–§5): a pane is a
 * terminal. Agents start with `terminal create --command`; input is `terminal send --text --enter`; recent output is
 * `terminal read --limit N` (`tail`); status is one `terminal wait --for tui-idle` with a short deadline (satisfied
 * = idle, timeout = working, exited = exited); close is `terminal close --terminal <h>` only (never `--tab`).
 */
import type { Ctx } from "../context.ts";
import { OrcaClient, OrcaError } from "../orca/client.ts";
import type { TerminalSummaryT } from "../orca/schemas.ts";
import { AGENT_EXECUTABLES, type Host, type HostPane, type HostStatus, type SpawnRequest } from "./types.ts";

/** Single-quote one word for the one shell string `--command` takes (Orca runs it in the new terminal's shell). */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;
}

const STATUS_PROBE_MS = 1_000;

export class OrcaHost implements Host {
  readonly kind = "orca" as const;
  readonly client: OrcaClient;

  constructor(ctx: Ctx, timeoutMs?: number) {
    this.client = new OrcaClient(ctx, { timeoutMs });
  }

  private toPane(t: TerminalSummaryT): HostPane {
    const connected = t.connected !== false;
    const title = t.title ?? null;
    return {
      id: t.handle,
      workspace: t.worktreeId ?? null,
      title,
      cwd: t.worktreePath || null,
      agentKind: null,
      agentName: connected ? title : null,
      status: connected ? "unknown" : "exited",
      rawStatus: connected ? "running" : "exited",
    };
  }

  async listPanes(workspace?: string): Promise<HostPane[]> {
    return (await this.client.terminalList(workspace)).map((t) => this.toPane(t));
  }

  async listAgents(): Promise<HostPane[]> {
    return (await this.listPanes()).filter((p) => p.status !== "exited");
  }

  private async create(req: Pick<SpawnRequest, "repo" | "cwd" | "name">, command?: string): Promise<string> {
    // A worktree made after the repo was registered is unknown to Orca until the repo is scanned again.
    await this.client.result(["repo", "add", "--path", req.repo]);
    const res = await this.client.result(["terminal", "create", "--worktree", `path:${req.cwd}`, "--title", req.name, ...(command ? ["--command", command] : [])]);
    const term = res.terminal as { handle?: unknown } | undefined;
    if (!term || typeof term.handle !== "string") throw new OrcaError("parse", "orca terminal create: no terminal.handle in the reply");
    return term.handle;
  }

  private command(req: Pick<SpawnRequest, "kind" | "args">): string {
    return [AGENT_EXECUTABLES[req.kind] ?? req.kind, ...req.args].map(shellWord).join(" ");
  }

  createPane(req: Pick<SpawnRequest, "repo" | "cwd" | "workspace" | "name">): Promise<string> {
    return this.create(req);
  }

  /** Types the agent's command line into the terminal's shell. */
  async startAgent(pane: string, req: Pick<SpawnRequest, "name" | "kind" | "args">): Promise<void> {
    await this.sendText(pane, this.command(req));
  }

  /** One `terminal create --command`: Orca starts the agent itself (and knows the terminal hosts one). */
  spawnAgent(req: SpawnRequest): Promise<string> {
    return this.create(req, this.command(req));
  }

  async sendText(pane: string, text: string): Promise<void> {
    const send = await this.client.terminalSend(pane, { text, enter: true });
    if (!send.accepted) throw new OrcaError("exit", `orca terminal send: not accepted (${send.refusedReason ?? "no reason"})`, 1);
  }

  async readRecent(pane: string, lines: number): Promise<string> {
    const res = await this.client.result(["terminal", "read", "--terminal", pane, "--limit", String(lines)]);
    const tail = (res.terminal as { tail?: unknown } | undefined)?.tail;
    return Array.isArray(tail) ? `${tail.map(String).join("\n")}\n` : "";
  }

  async waitOutput(pane: string, match: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await this.readRecent(pane, 200)).split("\n").some((l) => l.includes(match))) return true;
      if (Date.now() >= deadline) return false;
      await Bun.sleep(Math.min(500, Math.max(1, deadline - Date.now())));
    }
  }

  async closePane(pane: string): Promise<void> {
    await this.client.terminalClose(pane);
  }

  /** One `terminal wait --for tui-idle` (the client returns an unsatisfied wait's envelope as a result). */
  async status(pane: string): Promise<{ status: HostStatus; raw: string }> {
    let w;
    try {
      w = await this.client.terminalWait(pane, "tui-idle", STATUS_PROBE_MS);
    } catch (e) {
      if (!(e instanceof OrcaError)) throw e;
      if (e.failure === "timeout") return { status: "working", raw: "probe_timeout" };
      if (e.orcaCode === "timeout") return { status: "working", raw: "timeout" };
      if (e.orcaCode === "terminal_not_found" || e.orcaCode === "terminal_handle_stale") return { status: "gone", raw: e.orcaCode };
      throw e;
    }
    if (w.status === "exited") return { status: "exited", raw: "exited" };
    if (w.blockedReason) return { status: "blocked", raw: w.blockedReason };
    return w.satisfied ? { status: "idle", raw: "tui-idle" } : { status: "unknown", raw: w.status };
  }
}
