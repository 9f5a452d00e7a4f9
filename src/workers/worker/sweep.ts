/**
 * The dead-tab sweep (spawn-worker §6-5) starts from the host's PANE list, never the agent list (which shows live
 * agents only, so dead tabs would never be found). Each pane of the workspace is one of:
 *   live agent pane (or a pane a job in the ledger owns) -> collect's rules
 *   a bare shell prompt as its terminal title (dead tab)  -> closed (pane close only)
 *   anything else                                         -> listed for a person to read
 */
import type { Ctx } from "../../lib/context.ts";
import { errorMessage } from "../../lib/errors.ts";
import type { Host, HostPane } from "../../lib/host/types.ts";
import { type CollectItem, collectJob } from "./collect.ts";
import { type Job, record } from "./jobs.ts";
import { isDeadTabTitle, type Policy } from "./policy.ts";

export interface SweepItem {
  pane_id: string;
  title: string | null;
  status: string;
  kind: "job" | "dead_tab" | "unknown_agent" | "read";
  action: string;
  reasons: string[];
  job?: CollectItem;
}

export interface SweepOptions {
  workspace: string;
  execute: boolean;
  readings: number;
  intervalMs: number;
  ledger: string;
}

function isLive(p: HostPane): boolean {
  return p.agentKind !== null || ["working", "idle", "blocked"].includes(p.status);
}

async function closeDead(ctx: Ctx, host: Host, p: HostPane, o: SweepOptions, item: SweepItem): Promise<void> {
  if (!o.execute) return;
  try {
    await host.closePane(p.id);
    item.action = "closed";
    record(ctx, o.ledger, "sweep", { event: "sweep_closed", workspace: o.workspace, pane_id: p.id, title: p.title, reason: item.reasons[0] });
  } catch (e) {
    item.action = "close_failed";
    item.reasons.push(errorMessage(e));
  }
}

export async function sweep(ctx: Ctx, host: Host, policy: Pick<Policy, "dead_tab_title_patterns">, jobs: Job[], o: SweepOptions): Promise<SweepItem[]> {
  const panes = await host.listPanes(o.workspace);
  const byPane = new Map(jobs.filter((j) => !j.collected && j.spawn.host === host.kind).map((j) => [j.spawn.pane_id, j]));
  const out: SweepItem[] = [];
  for (const p of panes) {
    const base = { pane_id: p.id, title: p.title, status: p.rawStatus };
    const job = byPane.get(p.id);
    if (job) {
      const c = await collectJob(ctx, host, job, { execute: o.execute, readings: o.readings, intervalMs: o.intervalMs, ledger: o.ledger, cmd: "sweep" });
      out.push({ ...base, kind: "job", action: c.action, reasons: [`job ${job.id} (owner ${job.spawn.owner})`, ...c.reasons], job: c });
    } else if (isLive(p)) {
      out.push({ ...base, kind: "unknown_agent", action: "list", reasons: [`a live agent${p.agentName ? ` (${p.agentName})` : ""} with no job in the ledger: read it and decide`] });
    } else if (isDeadTabTitle(policy, p.title) || (p.status === "exited" && host.kind === "orca")) {
      const why = isDeadTabTitle(policy, p.title) ? "terminal title is a bare shell prompt (dead tab)" : "terminal exited (dead tab)";
      const item: SweepItem = { ...base, kind: "dead_tab", action: "close", reasons: [why] };
      await closeDead(ctx, host, p, o, item);
      out.push(item);
    } else {
      out.push({ ...base, kind: "read", action: "list", reasons: ["not an agent and not a bare shell prompt: read the screen and decide"] });
    }
  }
  return out;
}
