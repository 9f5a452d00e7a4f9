/**
 * The state file named by HERDR_SIM_STATE (unset = no herdr server is running). Mutations are transactions under a
 * cross-process lock (read -> change -> write tmp + rename); a transaction that throws writes nothing. A missing
 * file is seeded from HERDR_SIM_SCENARIO (a JSON file of the same shape; every key optional).
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Env } from "../../../lib/context.ts";
import { withLock } from "../../../lib/lock.ts";
import { paneId, tabId, terminalId, workspaceId } from "./ids.ts";
import { FAULT_MODES, INTERNAL_STATES, type HAgent, type HFault, type HState } from "./types.ts";
import { errorMessage } from "../../../lib/errors.ts";
import { atomicWrite } from "../../../lib/fs.ts";

export class HerdrSimError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const SIM_VERSION = "0.8.2";

function emptyState(): HState {
  return { version: SIM_VERSION, next_workspace: 1, next_terminal: 1, workspaces: [], tabs: [], panes: [], faults: [] };
}

type Raw = Record<string, any>;

function obj(v: unknown): Raw {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Raw) : {};
}

function arr(v: unknown): Raw[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

function normAgent(raw: unknown): HAgent | null {
  if (raw === null || raw === undefined) return null;
  const a = obj(raw);
  const state = INTERNAL_STATES.includes(a.state) ? a.state : "idle";
  return {
    kind: String(a.kind ?? "claude"),
    name: typeof a.name === "string" ? a.name : null,
    state,
    seen: a.seen !== false,
    state_change_seq: Number(a.state_change_seq ?? 0),
    interactive_ready: a.interactive_ready !== false,
    argv: Array.isArray(a.argv) ? a.argv.map(String) : [String(a.kind ?? "claude")],
    ...(a.alt_screen ? { alt_screen: true } : {}),
  };
}

/** Fill in everything a scenario may leave out, so hand-written scenarios stay short. */
function normalizeState(raw: unknown, nowMs: number, root: string): HState {
  const r = obj(raw);
  const sub = (s: unknown) => String(s ?? "").replaceAll("${ROOT}", root);
  const s = emptyState();
  s.version = typeof r.version === "string" ? r.version : SIM_VERSION;
  s.next_terminal = Number(r.next_terminal ?? 1);
  for (const [i, w] of arr(r.workspaces).entries()) {
    const id = String(w.workspace_id ?? workspaceId(i + 1));
    s.workspaces.push({
      workspace_id: id,
      label: String(w.label ?? id),
      number: i + 1,
      focused: Boolean(w.focused),
      active_tab_id: String(w.active_tab_id ?? tabId(id, 1)),
      next_tab: Number(w.next_tab ?? 1),
      next_pane: Number(w.next_pane ?? 1),
    });
  }
  s.next_workspace = Number(r.next_workspace ?? s.workspaces.length + 1);
  for (const t of arr(r.tabs)) {
    s.tabs.push({ tab_id: String(t.tab_id), workspace_id: String(t.workspace_id ?? String(t.tab_id).split(":")[0]), label: String(t.label ?? "tab"), number: Number(t.number ?? 1) });
  }
  for (const p of arr(r.panes)) {
    const id = String(p.pane_id);
    const ws = String(p.workspace_id ?? id.split(":")[0]);
    const cwd = sub(p.cwd ?? root);
    s.panes.push({
      pane_id: id,
      tab_id: String(p.tab_id ?? tabId(ws, 1)),
      workspace_id: ws,
      terminal_id: String(p.terminal_id ?? terminalId(nowMs, s.next_terminal++)),
      cwd,
      label: typeof p.label === "string" ? p.label : null,
      focused: Boolean(p.focused),
      revision: Number(p.revision ?? 0),
      output: Array.isArray(p.output) ? p.output.map((l: unknown) => sub(l)) : [],
      shell_title: typeof p.shell_title === "string" ? sub(p.shell_title) : shellTitle(cwd),
      ...(typeof p.title_override === "string" ? { title_override: sub(p.title_override) } : {}),
      agent: normAgent(p.agent),
      ...(Array.isArray(p.flap) ? { flap: p.flap.filter((x: unknown) => INTERNAL_STATES.includes(x as never)), flap_i: Number(p.flap_i ?? 0) } : {}),
    });
  }
  fixCounters(s);
  if (Number.isInteger(r.shell_init_starts) && r.shell_init_starts > 0) s.shell_init_starts = r.shell_init_starts;
  for (const f of arr(r.faults)) {
    // A typo is an error, never a fault that silently does nothing (as HERDR_SIM_FAULT).
    if (!(FAULT_MODES as readonly string[]).includes(f.mode)) throw new HerdrSimError("internal_error", `herdr simulator: scenario fault for '${String(f.command)}': unknown mode '${String(f.mode)}' (known: ${FAULT_MODES.join(", ")})`);
    s.faults.push({ command: String(f.command), mode: f.mode, ...(f.arg !== undefined ? { arg: String(f.arg) } : {}), ...(f.times !== undefined ? { times: Number(f.times) } : {}) } as HFault);
  }
  return s;
}

/** Scenario panes and tabs may skip the workspace/tab rows: create them, and keep counters past every used id. */
function fixCounters(s: HState): void {
  for (const p of s.panes) {
    if (!s.workspaces.some((w) => w.workspace_id === p.workspace_id)) {
      s.workspaces.push({ workspace_id: p.workspace_id, label: p.workspace_id, number: s.workspaces.length + 1, focused: false, active_tab_id: p.tab_id, next_tab: 1, next_pane: 1 });
    }
    if (!s.tabs.some((t) => t.tab_id === p.tab_id)) s.tabs.push({ tab_id: p.tab_id, workspace_id: p.workspace_id, label: "tab", number: s.tabs.filter((t) => t.workspace_id === p.workspace_id).length + 1 });
  }
  for (const w of s.workspaces) {
    while (s.tabs.some((t) => t.tab_id === tabId(w.workspace_id, w.next_tab))) w.next_tab++;
    while (s.panes.some((p) => p.pane_id === paneId(w.workspace_id, w.next_pane))) w.next_pane++;
  }
  s.next_workspace = Math.max(s.next_workspace, s.workspaces.length + 1);
  while (s.workspaces.some((w) => w.workspace_id === workspaceId(s.next_workspace))) s.next_workspace++;
}

export function shellTitle(cwd: string, user = "mogui"): string {
  return `${user}@herdr-sim: ${cwd}`;
}

export class Store {
  constructor(
    readonly path: string,
    private readonly env: Env,
    private readonly cwd: string,
    private readonly now: () => number,
  ) {}

  private seed(): HState {
    const spec = this.env.HERDR_SIM_SCENARIO;
    const root = this.env.HERDR_SIM_ROOT ? resolve(this.cwd, this.env.HERDR_SIM_ROOT) : dirname(this.path);
    if (!spec) return emptyState();
    let text: string;
    try {
      text = readFileSync(resolve(this.cwd, spec), "utf8");
    } catch (e) {
      throw new HerdrSimError("internal_error", `herdr simulator: cannot read scenario ${spec}: ${errorMessage(e)}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new HerdrSimError("internal_error", `herdr simulator: scenario ${spec} is not JSON: ${errorMessage(e)}`);
    }
    return normalizeState(raw, this.now(), root);
  }

  private load(): { state: HState; text: string | null } {
    if (!existsSync(this.path)) return { state: this.seed(), text: null };
    const text = readFileSync(this.path, "utf8");
    try {
      return { state: JSON.parse(text) as HState, text };
    } catch (e) {
      throw new HerdrSimError("internal_error", `herdr simulator: state file ${this.path} is not JSON: ${errorMessage(e)}`);
    }
  }

  read(): HState {
    if (!existsSync(this.path)) return this.tx((s) => s);
    return this.load().state;
  }

  tx<T>(fn: (s: HState) => T): T {
    mkdirSync(dirname(this.path), { recursive: true });
    return withLock(`${this.path}.lock`, () => {
      const { state, text } = this.load();
      const out = fn(state);
      const next = `${JSON.stringify(state, null, 2)}\n`;
      if (next !== text) {
        atomicWrite(this.path, next);
      }
      return out;
    });
  }
}
