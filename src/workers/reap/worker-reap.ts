/**
 * WorkerReaper: settled check -> worktree lookup (before the terminal is gone) -> terminal close -> worktree
 * safety -> removal from the owning repository -> one `event:"reap"` ledger row. Dry run reads but never
 * changes anything: no close, no removal, no ledger write.
 */
import type { Ctx } from "../../lib/context.ts";
import { errorMessage, KindError } from "../../lib/errors.ts";
import type { Exits } from "../../lib/exits.ts";
import { appendRow, type LedgerWarning } from "../../lib/ledger.ts";
import { git } from "../../lib/git.ts";
import { normalStatus, OrcaClient, OrcaError, type Dispatch } from "../../lib/orca/client.ts";
import { worktreeSafety } from "./worktree-safety.ts";

/**
 * The reaper's own outcomes, declared once: `mogui worker-reap` spreads these rows into its `exits`, and maps the
 * reaper's ReapError (its `kind` is one of these rows) to them.
 */
export const REAP_EXITS = {
  failed: { code: 1, meaning: "terminal close or worktree remove failed, orca missing, timed out or killed, no dispatch for the task, ledger append failed after acting" },
  notSettled: { code: 3, meaning: "dispatch not settled: refusing to reap an open dispatch" },
  unparseable: { code: 4, meaning: "dispatch-show (or task-list) printed JSON that is not a dispatch" },
} as const satisfies Exits;

type ReapExit = keyof typeof REAP_EXITS;

/** Why a reap stopped: `kind` is the command's exit row; `orcaExit` is orca's own status, handed through when set. */
export class ReapError extends KindError<ReapExit> {
  override name = "ReapError";
  constructor(
    kind: ReapExit,
    message: string,
    readonly orcaExit?: number,
  ) {
    super(kind, message);
  }
}

/** DECISIONS D7 (case-insensitive). */
const SETTLED_STATUSES = ["completed", "accepted", "failed", "abandoned", "circuit_broken", "cancelled", "expired", "revoked"] as const;

export function isSettled(status: string): boolean {
  return (SETTLED_STATUSES as readonly string[]).includes(normalStatus(status));
}

/** Orca errors that mean "this terminal no longer exists": a re-run after a partial reap is not a failure. */
const TERMINAL_GONE = new Set(["terminal_not_found", "terminal_gone", "terminal_handle_stale"]);

interface ReapRecord {
  task_id: string | null;
  dispatch_id: string;
  terminal_id: string | null;
  worktree_path: string | null;
  actions_taken: string;
  timestamp: number;
}

export interface ReapRequest {
  taskId?: string;
  dispatchId?: string;
  /** Overrides the worktree derived from Orca. */
  worktree?: string;
  execute: boolean;
  /** Where the reap row goes (execute only). */
  ledgerPath?: string;
  orcaTimeoutMs?: number;
  gitTimeoutMs?: number;
  /** D31: the precious ignored set (default DEFAULT_PRECIOUS_IGNORED) and `--allow-ignored`. */
  precious?: readonly string[];
  /** D40: the regenerable ignored set (default DEFAULT_REGENERABLE). */
  regenerable?: readonly string[];
  allowIgnored?: boolean;
  /** Where a torn ledger tail that the append sets aside is reported. */
  onLedgerWarning?: (w: LedgerWarning) => void;
}

/** Reason text goes inside `worktree_left:<path>:<reason>` joined by `;`: keep it on one line, without `;`. */
function oneLine(s: string): string {
  return s
    .replace(/[\r\n]+/g, " ")
    .replace(/;/g, ",")
    .trim();
}

function orcaExit(e: OrcaError, what: string): ReapError {
  switch (e.failure) {
    case "parse":
      return new ReapError("unparseable", `Could not parse dispatch JSON: ${e.message}`);
    case "exit":
      return new ReapError("failed", `${what}: ${e.message}`, e.exitCode ?? undefined);
    default:
      return new ReapError("failed", `${what}: ${e.message}`);
  }
}

async function resolveTaskId(orca: OrcaClient, dispatchId: string): Promise<string> {
  // Real Orca's dispatch-show takes only --task: find the task that owns this dispatch through task-list.
  const tasks = await orca.taskList();
  const hit = tasks.find((t) => t.dispatch_id === dispatchId);
  if (!hit) throw new ReapError("failed", `Dispatch ${dispatchId} not found: no task in 'orca orchestration task-list' carries it`);
  return hit.id;
}

async function fetchDispatch(orca: OrcaClient, req: ReapRequest): Promise<Dispatch> {
  let taskId = req.taskId;
  try {
    if (!taskId) taskId = await resolveTaskId(orca, req.dispatchId!);
    const d = await orca.dispatchShow(taskId);
    if (!d) throw new ReapError("failed", `No dispatch found for task ${taskId}`);
    if (req.dispatchId && d.id !== req.dispatchId) {
      // Re-dispatched between task-list and dispatch-show: Orca no longer shows the attempt asked for.
      throw new ReapError("failed", `Dispatch ${req.dispatchId} is no longer the latest dispatch of task ${taskId} (latest: ${d.id}); reap with --task-id`);
    }
    return d;
  } catch (e) {
    if (e instanceof OrcaError) throw orcaExit(e, "Failed to fetch dispatch");
    throw e;
  }
}

/** The terminal record knows the worktree; read it BEFORE closing the terminal, then fall back to legacy keys. */
async function lookupWorktree(orca: OrcaClient, d: Dispatch): Promise<string | null> {
  if (d.terminal) {
    try {
      const t = await orca.terminalShow(d.terminal);
      if (t.worktreePath) return t.worktreePath;
      if (t.worktreeId?.startsWith("folder:")) return null; // folder workspace: nothing to remove
    } catch (e) {
      if (!(e instanceof OrcaError)) throw e;
      try {
        const t = (await orca.terminalList()).find((x) => x.handle === d.terminal);
        if (t?.worktreePath) return t.worktreePath;
      } catch (e2) {
        if (!(e2 instanceof OrcaError)) throw e2;
      }
    }
  }
  return d.legacyWorktreePath ?? d.incarnationWorktreePath;
}

async function closeTerminal(orca: OrcaClient, handle: string): Promise<string> {
  try {
    const { ptyKilled } = await orca.terminalClose(handle);
    // Real Orca reports a surviving PTY as an error; an ok reply that still says ptyKilled:false is no close either.
    if (ptyKilled === false) throw new ReapError("failed", `Failed to close terminal ${handle}: orca reports the PTY still alive (ptyKilled:false)`);
    return `terminal_closed:${handle}`;
  } catch (e) {
    if (!(e instanceof OrcaError)) throw e;
    if (e.orcaCode && TERMINAL_GONE.has(e.orcaCode)) return `terminal_already_closed:${handle}`;
    throw new ReapError("failed", `Failed to close terminal ${handle}: ${e.message}`, e.failure === "exit" ? (e.exitCode ?? undefined) : undefined);
  }
}

async function reapWorktree(ctx: Ctx, path: string, req: ReapRequest): Promise<string> {
  const verdict = await worktreeSafety(ctx, path, req.gitTimeoutMs, { precious: req.precious, regenerable: req.regenerable, allowIgnored: req.allowIgnored, countReflog: !req.execute });
  if (!verdict.safe) return `worktree_left:${path}:${oneLine(verdict.reason)}`;
  if (req.execute) {
    // Run from the repository that owns the worktree, never from whatever the caller's CWD is; name the worktree
    // by its identity-verified real path (D40; git refuses a path that reaches it through a symlink).
    const rm = await git(ctx, verdict.owner, ["worktree", "remove", verdict.real], req.gitTimeoutMs);
    if (!rm.ok) throw new ReapError("failed", `Failed to remove worktree ${path}: ${rm.why}`);
    return `worktree_removed:${path}`;
  }
  // D40's documented limit: commits only the HEAD reflog still reaches go with the worktree; the dry run counts them.
  const n = verdict.reflog_only_commits;
  return n ? `worktree_removed:${path};reflog_only_commits:${n}` : `worktree_removed:${path}`;
}

export interface ReapOutcome {
  record: ReapRecord;
  /** Set when everything was done but the ledger row could not be appended. */
  ledgerError?: string;
}

export async function reap(ctx: Ctx, req: ReapRequest): Promise<ReapOutcome> {
  const orca = new OrcaClient(ctx, { timeoutMs: req.orcaTimeoutMs });
  const d = await fetchDispatch(orca, req);
  if (!isSettled(d.status)) {
    throw new ReapError("notSettled", `Dispatch ${d.id} is not settled (status: ${d.status}); refusing to reap open dispatch`);
  }
  const worktree = req.worktree ?? (await lookupWorktree(orca, d));
  const actions: string[] = [];
  if (d.terminal) actions.push(req.execute ? await closeTerminal(orca, d.terminal) : `terminal_closed:${d.terminal}`);
  if (worktree) actions.push(await reapWorktree(ctx, worktree, req));
  const record: ReapRecord = {
    task_id: d.taskId ?? req.taskId ?? null,
    dispatch_id: d.id,
    terminal_id: d.terminal,
    worktree_path: worktree,
    actions_taken: actions.join(";"),
    timestamp: ctx.now() / 1000,
  };
  if (req.execute && req.ledgerPath) {
    try {
      appendRow(req.ledgerPath, { event: "reap", ts: record.timestamp, ...record }, { onWarning: req.onLedgerWarning });
    } catch (e) {
      return { record, ledgerError: errorMessage(e) };
    }
  }
  return { record };
}
