/** Records as the runtime prints them: every key of RuntimeWorktreeRecord / terminal Summary (docs/orca-cli.md §4, §5). */
import type { SimTerminal, SimWorktree } from "./types.ts";

const RECORD_DEFAULTS = {
  comment: "",
  linkedIssue: null,
  linkedPR: null,
  linkedLinearIssue: null,
  isArchived: false,
  isUnread: false,
  isPinned: false,
  sortOrder: 0,
  lastActivityAt: 0,
  parentWorktreeId: null,
  childWorktreeIds: [],
  lineage: null,
};

export function worktreeRecord(w: SimWorktree): Record<string, unknown> {
  const { id, repoId, path, head, branch, isBare, isMainWorktree, displayName, ...extra } = w;
  const git = { path, head, branch, isBare, isMainWorktree };
  return { id, repoId, path, head, branch, isBare, isMainWorktree, displayName, ...RECORD_DEFAULTS, ...extra, git };
}

export function terminalSummary(t: SimTerminal): Record<string, unknown> {
  return {
    handle: t.handle,
    ptyId: t.ptyId,
    worktreeId: t.worktreeId,
    worktreePath: t.worktreePath,
    branch: t.branch,
    tabId: t.tabId,
    leafId: t.leafId,
    title: t.title,
    connected: t.alive,
    writable: t.alive,
    lastOutputAt: t.lastOutputAt,
    preview: t.output.at(-1) ?? "",
    surface: t.surface,
  };
}

export function terminalDetail(t: SimTerminal): Record<string, unknown> {
  return { ...terminalSummary(t), paneRuntimeId: t.incarnation, rendererGraphEpoch: 1, agentWait: null };
}

export function terminalStatus(t: SimTerminal): "running" | "exited" {
  return t.alive ? "running" : "exited";
}
