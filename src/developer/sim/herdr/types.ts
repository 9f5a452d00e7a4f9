/**
 * The fake herdr's persistent state (docs/herdr-cli.md, 0.8.x). Field names follow herdr's wire types where they are
 * printed; the internal detector state (`idle|working|blocked|unknown`) and the `seen` flag are kept apart, as in
 * herdr, so `done` (= idle not yet seen) is derived when a status is printed, never stored.
 */

export type InternalState = "idle" | "working" | "blocked" | "unknown";
export const INTERNAL_STATES: readonly InternalState[] = ["idle", "working", "blocked", "unknown"];

export interface HAgent {
  /** Canonical kind label (`claude`, `codex`, ...). */
  kind: string;
  /** Set by `agent start`; null for a detected, unnamed agent. */
  name: string | null;
  state: InternalState;
  seen: boolean;
  state_change_seq: number;
  interactive_ready: boolean;
  argv: string[];
  /** Alternate-screen agents refuse long recent reads while working (`agent_not_idle`). */
  alt_screen?: boolean;
  /** Text typed or pasted into the agent's input box, not yet submitted. */
  input?: string;
  /** Every prompt the agent received, as submitted (`herdr fake prompts`): a brief split by raw newlines shows here. */
  prompts?: string[];
}

export interface HPane {
  pane_id: string;
  tab_id: string;
  workspace_id: string;
  terminal_id: string;
  cwd: string;
  label: string | null;
  focused: boolean;
  revision: number;
  /** Scrollback, one entry per line (oldest first). */
  output: string[];
  /** The OSC title the shell sets when no agent runs (a bare prompt, e.g. `user@host: ~/repo`). */
  shell_title: string;
  /** An explicit OSC title that wins over the derived one (a pane running `vim`, `htop` ...). */
  title_override?: string | null;
  agent: HAgent | null;
  /** Status flapping: reported states cycle through this list, one step per call that reports the pane. */
  flap?: InternalState[];
  flap_i?: number;
  /** `agent start` calls this new pane still answers `agent_pane_busy` (its shell is starting up). */
  shell_init?: number;
}

export interface HTab {
  tab_id: string;
  workspace_id: string;
  label: string;
  number: number;
}

export interface HWorkspace {
  workspace_id: string;
  label: string;
  number: number;
  focused: boolean;
  active_tab_id: string;
  next_tab: number;
  next_pane: number;
}

export const FAULT_MODES = ["exit", "malformed", "error", "hang", "swallow"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface HFault {
  command: string;
  mode: FaultMode;
  /** exit code for `exit`, error code name for `error`. */
  arg?: string;
  times?: number;
}

export interface HState {
  version: string;
  next_workspace: number;
  next_terminal: number;
  workspaces: HWorkspace[];
  tabs: HTab[];
  panes: HPane[];
  faults: HFault[];
  /** Each pane made from now on answers its first N `agent start` calls with `agent_pane_busy` (HERDR_SIM_SHELL_INIT wins). */
  shell_init_starts?: number;
}
