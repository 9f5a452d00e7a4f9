/**
 * The simulator's persistent state. Row types use Orca's own key names (snake_case for orchestration rows,
 * camelCase for runtime records) so a row can be printed exactly as stored.
 */

export interface SimRepo {
  id: string;
  path: string;
  displayName: string;
  badgeColor: string;
  addedAt: number;
  kind: "git" | "folder";
  [extra: string]: unknown;
}

/** Only the git facts are required; the remaining RuntimeWorktreeRecord keys get defaults when printed. */
export interface SimWorktree {
  id: string;
  repoId: string;
  path: string;
  head: string;
  branch: string;
  isBare: boolean;
  isMainWorktree: boolean;
  displayName: string;
  [extra: string]: unknown;
}

export interface SimTerminal {
  handle: string;
  tabId: string;
  leafId: string;
  ptyId: string;
  /** `<repoId>::<path>` or `folder:<uuid>`. */
  worktreeId: string;
  /** Empty for folder workspaces (measured on a real Orca). */
  worktreePath: string;
  branch: string;
  title: string | null;
  output: string[];
  alive: boolean;
  exitCode: number | null;
  lastOutputAt: number | null;
  surface: "background" | "visible";
  /** A recognised coding agent running in the pane; `dispatch --inject` needs one. */
  agent: string | null;
  /** The `<n>` of `process_incarnation`. */
  incarnation: number;
  /**
   * Lines the simulated agent prints right after a `dispatch --inject` (a trust prompt, a provider limit ...),
   * so a delivery check can see what a real pane would show. Absent = the pane ends with the injected text.
   */
  onInject?: string[];
  /**
   * Processes that live on the pane's pty (a test's own pids). Never printed: the real terminal list reports no
   * pid. `terminal close` SIGKILLs them, as Orca kills the pane's pty.
   */
  pids?: number[];
  /** What `terminal wait --for tui-idle` sees: `idle` (default), `working`, or a BLOCKED_REASONS value. */
  agentStatus?: AgentStatus;
  /** A flapping agent: each tui-idle wait takes the next reading of this cycle (wrapping) instead of agentStatus. */
  agentStatusCycle?: AgentStatus[];
  /** Index of the next reading in agentStatusCycle. */
  agentStatusStep?: number;
}

/** `blockedReason` values of `terminal wait` (docs/orca-cli.md §5). */
const BLOCKED_REASONS = ["codex-update-prompt", "codex-trust-workspace", "codex-cwd-prompt", "codex-model-migration-prompt", "codex-hooks-review-prompt", "codex-interactive-prompt", "agent-approval-prompt"] as const;
export const AGENT_STATUSES = ["idle", "working", ...BLOCKED_REASONS] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export interface SimRun {
  id: string;
  objective: string;
  coordinator_handle: string;
  coordinator_pane_key: string;
  consumer_generation: number;
  legacy: number;
  created_at: string;
  updated_at: string;
}

export interface TaskRow {
  id: string;
  run_id: string;
  parent_id: string | null;
  created_by_terminal_handle: string | null;
  created_by_pane_key: string | null;
  created_by_process_incarnation: string | null;
  created_by_run_generation: number | null;
  task_title: string | null;
  display_name: string | null;
  spec: string;
  status: string;
  /** A JSON string, as Orca stores it. */
  deps: string;
  result: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface DispatchRow {
  id: string;
  run_id: string;
  task_id: string;
  contract_version: number;
  launch_token_hash: string;
  assignee_handle: string;
  assignee_pane_key: string;
  capability_hash: string;
  process_incarnation: string;
  capability_revoked_at: string | null;
  status: string;
  failure_count: number;
  last_failure: string | null;
  dispatched_at: string | null;
  completed_at: string | null;
  created_at: string;
  last_heartbeat_at: string | null;
}

export interface MessageRow {
  id: string;
  run_id: string | null;
  delivery_contract: "legacy_direct" | "current_delivery" | "audit_only";
  from_handle: string;
  to_handle: string;
  subject: string;
  body: string;
  type: string;
  priority: string;
  thread_id: string | null;
  payload: string | null;
  read: number;
  sequence: number;
  created_at: string;
  delivered_at: string | null;
  sender_pane_key: string | null;
}

/** One FIFO batch handed to a recipient by the default `check`; replayed until acknowledged. */
interface Delivery {
  id: string;
  handle: string;
  messageIds: string[];
  acked: boolean;
}

export const FAULT_MODES = ["exit", "malformed", "error_envelope", "hang", "legacy", "survive_close", "stale_handle", "foreign_handle", "close_noop", "swallow", "not_accepted", "late"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/** Modes that only mean something for one command; naming another command is a spec error, not a no-op. */
export const MODE_COMMANDS: Partial<Record<FaultMode, string>> = {
  survive_close: "terminal close",
  close_noop: "terminal close",
  stale_handle: "terminal create",
  foreign_handle: "terminal create",
  swallow: "terminal send",
  not_accepted: "terminal send",
};

export interface Fault {
  command: string;
  mode: FaultMode;
  /** The mode's number: the exit code for `exit`, how many terminals `stale_handle` opens. */
  code?: number;
  /** Fires this many more times, then is removed; absent = forever. */
  times?: number;
  /** Fires only on the Nth call of the command (1-based), counted in the state's `calls`. */
  at?: number;
  /** Fires on the Nth call of the command and every later one. */
  from?: number;
}

export interface SimState {
  runtimeId: string;
  appVersion: string;
  appPid: number;
  repos: SimRepo[];
  worktrees: SimWorktree[];
  terminals: SimTerminal[];
  runs: SimRun[];
  /** terminal handle -> run id */
  boundRuns: Record<string, string>;
  tasks: TaskRow[];
  dispatches: DispatchRow[];
  messages: MessageRow[];
  deliveries: Delivery[];
  faults: Fault[];
  /** Calls per command path, counted only while a fault with `at`/`from` names that command. */
  calls: Record<string, number>;
  /** Handles that were reminted away: using one is `terminal_handle_stale`. */
  staleHandles: string[];
}
