/**
 * Scenario/state -> a complete SimState. Scenarios may leave out anything derivable (ids, pane keys, hashes,
 * timestamps), so a hand-written scenario stays short; the state file is written back normalised, which makes
 * this function idempotent on its own output.
 */
import { basename } from "node:path";
import * as v from "valibot";
import { SimError } from "./errors.ts";
import { badgeColor, folderWorkspaceId, iso, terminalHandle, uuid, worktreeId } from "./ids.ts";
import { normalizeDispatch, normalizeMessage, normalizeRun, normalizeTask } from "./normalize-orch.ts";
import { faultProblem } from "./faults.ts";
import { AGENT_STATUSES, FAULT_MODES, type SimRepo, type SimState, type SimTerminal, type SimWorktree } from "./types.ts";

type Raw = Record<string, unknown>;
const rows = <T extends v.ObjectEntries>(entries: T) => v.optional(v.array(v.looseObject(entries)), []);

const StateSchema = v.looseObject({
  runtimeId: v.optional(v.string()),
  appVersion: v.optional(v.string(), "1.4.164"),
  appPid: v.optional(v.number(), 4242),
  repos: rows({ path: v.string() }),
  worktrees: rows({ path: v.string() }),
  terminals: rows({}),
  runs: rows({ id: v.string() }),
  boundRuns: v.optional(v.record(v.string(), v.string()), {}),
  tasks: rows({ id: v.string() }),
  dispatches: rows({ id: v.string(), task_id: v.string() }),
  messages: rows({}),
  deliveries: v.optional(v.array(v.object({ id: v.string(), handle: v.string(), messageIds: v.array(v.string()), acked: v.boolean() })), []),
  faults: v.optional(
    v.array(
      v.object({
        command: v.string(),
        mode: v.picklist(FAULT_MODES),
        code: v.optional(v.number()),
        times: v.optional(v.number()),
        at: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
        from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      }),
    ),
    [],
  ),
  calls: v.optional(v.record(v.string(), v.number()), {}),
  staleHandles: v.optional(v.array(v.string()), []),
});

const AgentStatusSchema = v.picklist(AGENT_STATUSES);
const AgentFields = v.object({
  pids: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  agentStatus: v.optional(AgentStatusSchema),
  agentStatusCycle: v.optional(v.array(AgentStatusSchema)),
  agentStatusStep: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

function bad(issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): SimError {
  return new SimError("runtime_error", `orca simulator: bad state/scenario: ${v.summarize(issues).replace(/\n/g, "; ")}`, undefined, true);
}

/** The simulation-only terminal fields (never printed): pty pids and the agent status tui-idle waits see. */
function agentFields(t: Raw): Pick<SimTerminal, "pids" | "agentStatus" | "agentStatusCycle" | "agentStatusStep"> {
  const r = v.safeParse(AgentFields, { pids: t.pids, agentStatus: t.agentStatus, agentStatusCycle: t.agentStatusCycle, agentStatusStep: t.agentStatusStep });
  if (!r.success) throw bad(r.issues);
  const o = r.output;
  return {
    ...(o.pids?.length ? { pids: o.pids } : {}),
    ...(o.agentStatus && o.agentStatus !== "idle" ? { agentStatus: o.agentStatus } : {}),
    ...(o.agentStatusCycle?.length ? { agentStatusCycle: o.agentStatusCycle, agentStatusStep: o.agentStatusStep ?? 0 } : {}),
  };
}

export const DEFAULT_HEAD = "0".repeat(40);

function refBranch(b: string): string {
  return !b || b.startsWith("refs/") ? b : `refs/heads/${b}`;
}

function repo(r: Raw, now: number): SimRepo {
  const path = String(r.path);
  return {
    ...r,
    id: String(r.id ?? uuid()),
    path,
    displayName: String(r.displayName ?? basename(path)),
    badgeColor: String(r.badgeColor ?? badgeColor()),
    addedAt: Number(r.addedAt ?? now),
    kind: r.kind === "folder" ? "folder" : "git",
  };
}

function worktree(w: Raw, repos: SimRepo[]): SimWorktree {
  const path = String(w.path);
  const owner = repos.find((r) => r.id === w.repoId) ?? repos.find((r) => r.path === path) ?? repos[0];
  const repoId = String(w.repoId ?? owner?.id ?? "");
  return {
    ...w,
    id: String(w.id ?? worktreeId(repoId, path)),
    repoId,
    path,
    head: String(w.head ?? DEFAULT_HEAD),
    branch: refBranch(String(w.branch ?? "")),
    isBare: Boolean(w.isBare ?? false),
    isMainWorktree: Boolean(w.isMainWorktree ?? owner?.path === path),
    displayName: String(w.displayName ?? basename(path)),
  };
}

/** Where a terminal lives: a git worktree (id + path) or a folder workspace (`folder:<uuid>`, empty path). */
function placement(t: Raw, s: Pick<SimState, "repos" | "worktrees">): Pick<SimTerminal, "worktreeId" | "worktreePath" | "branch"> {
  const wt = s.worktrees.find((w) => w.id === t.worktreeId || (t.worktreePath !== undefined && w.path === t.worktreePath));
  if (wt) return { worktreeId: wt.id, worktreePath: wt.path, branch: wt.branch };
  const folder = s.repos.find((r) => r.kind === "folder" && (folderWorkspaceId(r.id) === t.worktreeId || r.path === t.worktreePath));
  if (folder) return { worktreeId: folderWorkspaceId(folder.id), worktreePath: "", branch: "" };
  return { worktreeId: String(t.worktreeId ?? ""), worktreePath: String(t.worktreePath ?? ""), branch: String(t.branch ?? "") };
}

function terminal(t: Raw, s: Pick<SimState, "repos" | "worktrees">, now: number): SimTerminal {
  const output = Array.isArray(t.output) ? t.output.map(String) : [];
  const alive = t.alive !== false;
  return {
    handle: String(t.handle ?? terminalHandle()),
    tabId: String(t.tabId ?? uuid()),
    leafId: String(t.leafId ?? uuid()),
    ptyId: String(t.ptyId ?? uuid()),
    ...placement(t, s),
    title: t.title === undefined || t.title === null ? null : String(t.title),
    output,
    alive,
    exitCode: t.exitCode === undefined || t.exitCode === null ? (alive ? null : 0) : Number(t.exitCode),
    lastOutputAt: t.lastOutputAt === undefined ? (output.length ? now : null) : (t.lastOutputAt as number | null),
    surface: t.surface === "visible" ? "visible" : "background",
    agent: typeof t.agent === "string" ? t.agent : null,
    incarnation: Number(t.incarnation ?? 1),
    ...(Array.isArray(t.onInject) ? { onInject: t.onInject.map(String) } : {}),
    ...agentFields(t),
  };
}

export function normalizeState(raw: unknown, now: number): SimState {
  const parsed = v.safeParse(StateSchema, raw);
  if (!parsed.success) throw bad(parsed.issues);
  const p = parsed.output;
  for (const f of p.faults) {
    const problem = faultProblem(f);
    if (problem) throw new SimError("runtime_error", `orca simulator: bad state/scenario: faults: ${problem}`, undefined, true);
  }
  const repos = p.repos.map((r) => repo(r, now));
  const worktrees = p.worktrees.map((w) => worktree(w, repos));
  const terminals = p.terminals.map((t) => terminal(t, { repos, worktrees }, now));
  const at = iso(now);
  const runs = p.runs.map((r) => normalizeRun(r, terminals, at));
  const tasks = p.tasks.map((t) => normalizeTask(t, runs, at));
  const dispatches = p.dispatches.map((d) => normalizeDispatch(d, tasks, terminals, at));
  const messages = p.messages.map((m, i) => normalizeMessage(m, i, at));
  return {
    runtimeId: p.runtimeId ?? uuid(),
    appVersion: p.appVersion,
    appPid: p.appPid,
    repos,
    worktrees,
    terminals,
    runs,
    boundRuns: p.boundRuns,
    tasks,
    dispatches,
    messages,
    deliveries: p.deliveries,
    faults: p.faults,
    calls: p.calls,
    staleHandles: p.staleHandles,
  };
}
