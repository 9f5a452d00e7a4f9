/** Creating and closing workspaces, tabs and panes; ids come from per-workspace counters and are never reused. */
import { shellTitle } from "./store.ts";
import { paneId, tabId, terminalId, workspaceId } from "./ids.ts";
import type { HPane, HState, HTab, HWorkspace } from "./types.ts";

/** `shellInit` (else the state's `shell_init_starts`): `agent start` calls the new pane answers `agent_pane_busy`. */
export function newPane(s: HState, ws: string, tab: string, cwd: string, nowMs: number, shellInit = s.shell_init_starts): HPane {
  const w = s.workspaces.find((x) => x.workspace_id === ws)!;
  const p: HPane = {
    pane_id: paneId(ws, w.next_pane++),
    tab_id: tab,
    workspace_id: ws,
    terminal_id: terminalId(nowMs, s.next_terminal++),
    cwd,
    label: null,
    focused: false,
    revision: 0,
    output: [],
    shell_title: shellTitle(cwd),
    agent: null,
    ...(shellInit ? { shell_init: shellInit } : {}),
  };
  s.panes.push(p);
  return p;
}

export function newTab(s: HState, ws: string, label: string | undefined, cwd: string, nowMs: number, shellInit?: number): { tab: HTab; pane: HPane } {
  const w = s.workspaces.find((x) => x.workspace_id === ws)!;
  const n = w.next_tab++;
  const tab: HTab = { tab_id: tabId(ws, n), workspace_id: ws, label: label ?? String(s.tabs.filter((t) => t.workspace_id === ws).length + 1), number: s.tabs.filter((t) => t.workspace_id === ws).length + 1 };
  s.tabs.push(tab);
  return { tab, pane: newPane(s, ws, tab.tab_id, cwd, nowMs, shellInit ?? s.shell_init_starts) };
}

export function newWorkspace(s: HState, label: string | undefined, cwd: string, nowMs: number, shellInit?: number): { ws: HWorkspace; tab: HTab; pane: HPane } {
  const id = workspaceId(s.next_workspace++);
  const ws: HWorkspace = { workspace_id: id, label: label ?? id, number: s.workspaces.length + 1, focused: false, active_tab_id: tabId(id, 1), next_tab: 1, next_pane: 1 };
  s.workspaces.push(ws);
  const { tab, pane } = newTab(s, id, undefined, cwd, nowMs, shellInit);
  ws.active_tab_id = tab.tab_id;
  return { ws, tab, pane };
}

/** Closing the last pane closes the tab; closing the last tab closes the workspace (docs/herdr-cli.md §3.8). */
export function closePane(s: HState, p: HPane): void {
  s.panes = s.panes.filter((x) => x !== p);
  if (!s.panes.some((x) => x.tab_id === p.tab_id)) closeTab(s, p.tab_id);
}

export function closeTab(s: HState, tab: string): void {
  const t = s.tabs.find((x) => x.tab_id === tab);
  s.panes = s.panes.filter((x) => x.tab_id !== tab);
  s.tabs = s.tabs.filter((x) => x.tab_id !== tab);
  if (!t) return;
  const rest = s.tabs.filter((x) => x.workspace_id === t.workspace_id);
  const w = s.workspaces.find((x) => x.workspace_id === t.workspace_id);
  if (!rest.length) s.workspaces = s.workspaces.filter((x) => x.workspace_id !== t.workspace_id);
  else if (w && w.active_tab_id === tab) w.active_tab_id = rest[0]!.tab_id;
}
