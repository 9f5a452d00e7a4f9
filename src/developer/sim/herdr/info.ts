/** herdr's wire records (AgentInfo, PaneInfo, TabInfo, WorkspaceInfo), printed with alphabetical keys. */
import { metadataTokens } from "./cmd-metadata.ts";
import type { HPane, HState, InternalState } from "./types.ts";

/** The state a call sees: a flapping pane reports the current step of its cycle. */
function currentState(p: HPane): InternalState | null {
  if (!p.agent) return null;
  if (p.flap && p.flap.length > 0) return p.flap[(p.flap_i ?? 0) % p.flap.length]!;
  return p.agent.state;
}

/** herdr's `pane_agent_status`: unseen idle is `done`; a plain shell is `unknown`. */
export function agentStatus(p: HPane): string {
  const st = currentState(p);
  if (st === null) return "unknown";
  if (st === "idle") return p.agent!.seen ? "idle" : "done";
  return st;
}

function title(p: HPane): string {
  if (p.title_override) return p.title_override;
  if (!p.agent) return p.shell_title;
  return currentState(p) === "working" ? `⠋ ${p.agent.kind}` : p.agent.kind;
}

/** Minus one leading Braille spinner or Claude glyph and the whitespace after it (src/terminal/title.rs). */
function stripTitle(t: string): string {
  return t.replace(/^[\u2800-\u28FF·✢✳✶✻✽]\s*/u, "");
}

function common(p: HPane): Record<string, unknown> {
  const t = title(p);
  const out: Record<string, unknown> = {
    agent_status: agentStatus(p),
    cwd: p.cwd,
    focused: p.focused,
    foreground_cwd: p.cwd,
    pane_id: p.pane_id,
    revision: p.revision,
    tab_id: p.tab_id,
    terminal_id: p.terminal_id,
    terminal_title: t,
    terminal_title_stripped: stripTitle(t),
    workspace_id: p.workspace_id,
  };
  if (p.agent) out.agent = p.agent.kind;
  return out;
}

export function paneInfo(p: HPane): Record<string, unknown> {
  const out = common(p);
  if (p.label) out.label = p.label;
  const tokens = metadataTokens(p, Date.now());
  if (tokens) out.tokens = tokens;
  return out;
}

export function agentInfo(p: HPane): Record<string, unknown> {
  const out = common(p);
  out.state_change_seq = p.agent?.state_change_seq ?? 0;
  if (p.agent?.name) {
    out.name = p.agent.name;
    out.interactive_ready = p.agent.interactive_ready;
  }
  return out;
}

const ROLLUP = ["blocked", "done", "working", "idle", "unknown"];

function rollup(panes: HPane[]): string {
  const statuses = panes.map(agentStatus);
  return ROLLUP.find((s) => statuses.includes(s)) ?? "unknown";
}

export function tabInfo(s: HState, tabId: string): Record<string, unknown> {
  const t = s.tabs.find((x) => x.tab_id === tabId)!;
  const panes = s.panes.filter((p) => p.tab_id === tabId);
  const ws = s.workspaces.find((w) => w.workspace_id === t.workspace_id);
  return { agent_status: rollup(panes), focused: Boolean(ws?.focused && ws.active_tab_id === tabId), label: t.label, number: t.number, pane_count: panes.length, tab_id: t.tab_id, workspace_id: t.workspace_id };
}

export function workspaceInfo(s: HState, wsId: string): Record<string, unknown> {
  const w = s.workspaces.find((x) => x.workspace_id === wsId)!;
  const panes = s.panes.filter((p) => p.workspace_id === wsId);
  return {
    active_tab_id: w.active_tab_id,
    agent_status: rollup(panes),
    focused: w.focused,
    label: w.label,
    number: s.workspaces.indexOf(w) + 1,
    pane_count: panes.length,
    tab_count: s.tabs.filter((t) => t.workspace_id === wsId).length,
    workspace_id: wsId,
  };
}
