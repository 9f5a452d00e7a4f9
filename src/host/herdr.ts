/** The herdr side of the host adapter (herdr 0.8.x CLI through HerdrClient). */
import type { Ctx } from "../lib/context.ts";
import { HerdrClient, HerdrError } from "../herdr/client.ts";
import type { AgentInfoT, PaneInfoT } from "../herdr/schemas.ts";
import type { Host, HostPane, HostStatus, SpawnRequest } from "./types.ts";

export function herdrStatus(raw: string, hasAgent: boolean): HostStatus {
  switch (raw) {
    case "working": return "working";
    case "idle": case "done": return "idle";
    case "blocked": return "blocked";
    default: return hasAgent ? "unknown" : "exited";
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

  constructor(ctx: Ctx, timeoutMs?: number) {
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
    try {
      await this.startAgent(pane, req);
    } catch (e) {
      // A failed start must not leave a dead tab behind (spawn-worker §6-5): close the pane we made.
      await this.client.paneClose(pane).catch(() => undefined);
      throw e;
    }
    return pane;
  }

  async sendText(pane: string, text: string): Promise<void> {
    await this.client.sendText(pane, text);
    await this.client.sendKeys(pane, "enter");
  }

  /** `agent read <pane> --source recent-unwrapped` (the seed's landing-proof read); `pane read` once no agent runs. */
  async readRecent(pane: string, lines: number): Promise<string> {
    try {
      return await this.client.agentRead(pane, "recent-unwrapped", lines);
    } catch (e) {
      if (!(e instanceof HerdrError)) throw e;
      // Alternate-screen agents refuse long history reads while working; the visible screen is still evidence.
      if (e.herdrCode === "agent_not_idle") return this.client.agentRead(pane, "visible", lines);
      if (e.herdrCode === "agent_not_found") return this.client.paneRead(pane, "recent-unwrapped", lines);
      throw e;
    }
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
