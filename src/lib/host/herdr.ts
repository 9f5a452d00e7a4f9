/** The herdr side of the host adapter (herdr 0.8.x CLI through HerdrClient). */
import type { Ctx } from "../context.ts";
import { HerdrClient, HerdrError } from "../herdr/client.ts";
import type { AgentInfoT, PaneInfoT } from "../herdr/schemas.ts";
import { pause } from "../clock.ts";
import type { Host, HostPane, HostRead, HostStatus, SpawnRequest } from "./types.ts";

/**
 * Waits before each retry of `agent start` answered `agent_pane_busy` right after `tab create`: the new pane's
 * shell is still starting (herdr 0.8.0 does not retry itself; 0.8.2 retries for 2 s). Bounded: 4 retries, 3.75 s.
 */
export const AGENT_START_BUSY_RETRY_MS: readonly number[] = [250, 500, 1_000, 2_000];

export function herdrStatus(raw: string, hasAgent: boolean): HostStatus {
  switch (raw) {
    case "working":
      return "working";
    case "idle":
    case "done":
      return "idle";
    case "blocked":
      return "blocked";
    default:
      return hasAgent ? "unknown" : "exited";
  }
}

function toPane(p: PaneInfoT | AgentInfoT): HostPane {
  const hasAgent = Boolean(p.agent);
  return {
    id: p.pane_id,
    workspace: p.workspace_id || null,
    title: p.terminal_title ?? null,
    cwd: p.cwd ?? null,
    agentKind: p.agent ?? null,
    agentName: "name" in p ? ((p.name as string | null | undefined) ?? null) : null,
    status: herdrStatus(p.agent_status, hasAgent),
    rawStatus: p.agent_status,
  };
}

export class HerdrHost implements Host {
  readonly kind = "herdr" as const;
  readonly client: HerdrClient;

  /** How many `agent_pane_busy` answers the last spawnAgent retried (0 = started at the first attempt). */
  busyRetries = 0;

  constructor(
    private readonly ctx: Ctx,
    timeoutMs?: number,
  ) {
    this.client = new HerdrClient(ctx, timeoutMs);
  }

  async listPanes(workspace?: string): Promise<HostPane[]> {
    const [panes, agents] = await Promise.all([this.client.paneList(workspace), this.client.agentList()]);
    const names = new Map(agents.map((a) => [a.pane_id, a.name ?? null]));
    return panes.map((p) => ({ ...toPane(p), agentName: names.get(p.pane_id) ?? null }));
  }

  async listAgents(): Promise<HostPane[]> {
    return (await this.client.agentList()).map(toPane);
  }

  async createPane(req: Pick<SpawnRequest, "cwd" | "workspace" | "name">): Promise<string> {
    if (!req.workspace) throw new HerdrError("usage", "herdr needs a workspace for new worker panes (--workspace)");
    return (await this.client.tabCreate(req.workspace, req.cwd, req.name)).pane_id;
  }

  async startAgent(pane: string, req: Pick<SpawnRequest, "name" | "kind" | "args">): Promise<void> {
    await this.client.agentStart(req.name, req.kind, pane, req.args);
  }

  async spawnAgent(req: SpawnRequest): Promise<string> {
    const pane = await this.createPane(req);
    this.busyRetries = 0;
    try {
      for (;;) {
        try {
          await this.startAgent(pane, req);
          break;
        } catch (e) {
          const wait = AGENT_START_BUSY_RETRY_MS[this.busyRetries];
          if (!(e instanceof HerdrError && e.herdrCode === "agent_pane_busy") || wait === undefined) throw e;
          this.busyRetries++;
          await pause(this.ctx, wait);
        }
      }
    } catch (e) {
      // A failed start must not leave a dead tab behind (spawn-worker §6-5): close the pane we made.
      await this.client.paneClose(pane).catch(() => undefined);
      throw e;
    }
    return pane;
  }

  /**
   * A named agent gets `agent prompt` (one bracketed paste, then a delayed Enter: a multi-line brief lands whole);
   * `pane send-text` is raw and non-submitting, and a TUI agent may submit each line of it on its own, so it is used
   * only for a plain shell pane (or an unnamed, detected agent, which `agent prompt` refuses), followed by Enter.
   */
  async sendText(pane: string, text: string): Promise<void> {
    if (await this.namedAgent(pane)) {
      await this.client.agentPrompt(pane, text);
      return;
    }
    await this.client.sendText(pane, text);
    await this.client.sendKeys(pane, "enter");
  }

  private async namedAgent(pane: string): Promise<boolean> {
    try {
      return Boolean((await this.client.agentGet(pane)).name);
    } catch (e) {
      if (e instanceof HerdrError && e.herdrCode === "agent_not_found") return false;
      throw e;
    }
  }

  /**
   * `agent read <pane> --source recent-unwrapped` (the seed's landing-proof read); the visible screen when an
   * alternate-screen agent refuses a long history read while working; `pane read` once no agent runs. The source
   * says which one was actually read.
   */
  async readEvidence(pane: string, lines: number): Promise<HostRead> {
    try {
      return { text: await this.client.agentRead(pane, "recent-unwrapped", lines), source: "recent output (herdr agent read --source recent-unwrapped)" };
    } catch (e) {
      if (!(e instanceof HerdrError)) throw e;
      if (e.herdrCode === "agent_not_idle") {
        return { text: await this.client.agentRead(pane, "visible", lines), source: "visible screen (herdr agent read --source visible: the working agent refused a history read)" };
      }
      if (e.herdrCode === "agent_not_found") {
        return { text: await this.client.paneRead(pane, "recent-unwrapped", lines), source: "recent output (herdr pane read --source recent-unwrapped: no agent in the pane)" };
      }
      throw e;
    }
  }

  async readRecent(pane: string, lines: number): Promise<string> {
    return (await this.readEvidence(pane, lines)).text;
  }

  waitOutput(pane: string, match: string, timeoutMs: number): Promise<boolean> {
    return this.client.waitOutput(pane, match, timeoutMs);
  }

  closePane(pane: string): Promise<void> {
    return this.client.paneClose(pane);
  }

  async status(pane: string): Promise<{ status: HostStatus; raw: string }> {
    try {
      const p = await this.client.paneGet(pane);
      return { status: herdrStatus(p.agent_status, Boolean(p.agent)), raw: p.agent_status };
    } catch (e) {
      if (e instanceof HerdrError && e.herdrCode === "pane_not_found") return { status: "gone", raw: "pane_not_found" };
      throw e;
    }
  }
}
