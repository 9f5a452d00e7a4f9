/**
 * Live panes and terminals, from the hosts themselves: Orca's `terminal list` (each terminal's worktreePath) and
 * herdr's `pane list` (each pane's cwd and foreground cwd). A host whose executable is missing or whose server is
 * not running has no live panes; any other failure makes the panes UNMEASURED, and a reap then leaves everything.
 */
import type { Ctx } from "../../lib/context.ts";
import { HerdrClient, HerdrError } from "../../lib/herdr/client.ts";
import { OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { listedReal } from "../../workers/reap/keep-rules.ts";

export interface Pane {
  host: "herdr" | "orca";
  id: string;
  /** Paths the pane works in (parents resolved, the last component not followed: D40's identity rule). */
  dirs: string[];
}

export interface PaneView {
  panes: Pane[];
  /** Hosts that are not there (no executable, no server). */
  absent: string[];
  /** Hosts that failed: "<host>: <why>". */
  failed: string[];
}

export type HostName = "herdr" | "orca";

async function orcaPanes(ctx: Ctx, timeoutMs: number, view: PaneView): Promise<void> {
  try {
    for (const t of await new OrcaClient(ctx, { timeoutMs }).terminalList()) {
      view.panes.push({ host: "orca", id: t.handle, dirs: t.worktreePath ? [listedReal(t.worktreePath)] : [] });
    }
  } catch (e) {
    if (!(e instanceof OrcaError)) throw e;
    // No executable, or Orca not running: no terminal of it can be live.
    if (e.failure === "missing" || e.orcaCode === "runtime_unavailable") view.absent.push("orca");
    else view.failed.push(`orca: ${e.message}`);
  }
}

async function herdrPanes(ctx: Ctx, timeoutMs: number, view: PaneView): Promise<void> {
  try {
    for (const p of await new HerdrClient(ctx, timeoutMs).paneList()) {
      const dirs = [p.cwd, (p as { foreground_cwd?: unknown }).foreground_cwd].filter((d): d is string => typeof d === "string" && d.startsWith("/"));
      view.panes.push({ host: "herdr", id: p.pane_id, dirs: dirs.map(listedReal) });
    }
  } catch (e) {
    if (!(e instanceof HerdrError)) throw e;
    if (e.failure === "missing" || e.herdrCode === "server_not_running") view.absent.push("herdr");
    else view.failed.push(`herdr: ${e.message}`);
  }
}

export async function livePanes(ctx: Ctx, hosts: readonly HostName[], timeoutMs: number): Promise<PaneView> {
  const view: PaneView = { panes: [], absent: [], failed: [] };
  await Promise.all(hosts.map((h) => (h === "orca" ? orcaPanes(ctx, timeoutMs, view) : herdrPanes(ctx, timeoutMs, view))));
  return view;
}
