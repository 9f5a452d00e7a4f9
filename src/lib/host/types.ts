/**
 * The host adapter: Orca and herdr behind one interface (issue 9). A "pane" is a herdr pane or an Orca terminal.
 * Statuses are normalised: herdr's `idle` and `done` are both `idle` (done = idle not yet seen); `exited` means the
 * pane lives but no agent runs in it; `gone` means the pane itself no longer exists.
 */
export type HostKind = "herdr" | "orca";
export const HOST_KINDS: readonly HostKind[] = ["herdr", "orca"];

export type HostStatus = "working" | "idle" | "blocked" | "unknown" | "exited" | "gone";

export interface HostPane {
  id: string;
  workspace: string | null;
  title: string | null;
  cwd: string | null;
  agentKind: string | null;
  agentName: string | null;
  status: HostStatus;
  /** The status word the host printed (`done`, `idle`, `running` ...). */
  rawStatus: string;
}

export interface SpawnRequest {
  /** The canonical checkout the worktree belongs to (Orca registers it to see the new worktree). */
  repo: string;
  cwd: string;
  workspace: string | null;
  name: string;
  kind: string;
  args: readonly string[];
}

/** One read of a pane and the source it actually came from (`recent output (...)`, `visible screen (...)`). */
export interface HostRead {
  text: string;
  source: string;
}

export interface Host {
  readonly kind: HostKind;
  listPanes(workspace?: string): Promise<HostPane[]>;
  /** Live agents only (herdr `agent list`; Orca: connected terminals). Never the basis of a sweep. */
  listAgents(): Promise<HostPane[]>;
  /** A new pane (herdr: a tab in `workspace`; Orca: a terminal in the worktree) at `cwd`; returns its id. */
  createPane(req: Pick<SpawnRequest, "repo" | "cwd" | "workspace" | "name">): Promise<string>;
  /** Start an agent of `kind` named `name` in an existing shell pane. */
  startAgent(pane: string, req: Pick<SpawnRequest, "name" | "kind" | "args">): Promise<void>;
  /** createPane + startAgent as one step; a failed start closes the pane it made. Returns the pane id. */
  spawnAgent(req: SpawnRequest): Promise<string>;
  /** Deliver `text` to the pane and submit it, whole (herdr: `agent prompt` for an agent, raw keys for a shell). */
  sendText(pane: string, text: string): Promise<void>;
  /** The pane's recent output with soft wraps joined (the landing-proof source). */
  readRecent(pane: string, lines: number): Promise<string>;
  /** readRecent plus the source actually read (a host may fall back to another one); absent = "recent output". */
  readEvidence?(pane: string, lines: number): Promise<HostRead>;
  waitOutput(pane: string, match: string, timeoutMs: number): Promise<boolean>;
  /** Close ONE pane; never its tab. */
  closePane(pane: string): Promise<void>;
  /** One status reading. A single `idle` reading is weak evidence: see stableStatus(). */
  status(pane: string): Promise<{ status: HostStatus; raw: string }>;
}

/** Canonical agent kind -> the executable a terminal runs (herdr's own table, docs/herdr-cli.md §3.1). */
export const AGENT_EXECUTABLES: Record<string, string> = {
  pi: "pi",
  claude: "claude",
  codex: "codex",
  gemini: "gemini",
  cursor: "cursor-agent",
  devin: "devin",
  agy: "agy",
  cline: "cline",
  omp: "omp",
  mastracode: "mastracode",
  opencode: "opencode",
  copilot: "copilot",
  kimi: "kimi",
  kiro: "kiro-cli",
  droid: "droid",
  amp: "amp",
  grok: "grok",
  hermes: "hermes",
  kilo: "kilo",
  qodercli: "qodercli",
  maki: "maki",
  qwen: "qwen",
};
