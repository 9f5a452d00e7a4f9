/**
 * `fleet reap`: for every settled or orphaned worktree that passes every check, stop the processes left inside
 * it, close its recorded terminal, remove it, and append one `fleet_reap` row. Anything ambiguous is left with
 * its reason, in this order: open record, worktree safety (the module worker-reap uses), hosts unmeasured, a live
 * pane that is not the recorded terminal, processes unmeasured. After processes are stopped the safety check runs
 * again (a stopped process may have written), and removal is plain `git worktree remove` (never --force).
 */
import type { Ctx } from "../../lib/context.ts";
import { appendRow, type LedgerWarning } from "../../lib/ledger.ts";
import { git } from "../../lib/git.ts";
import { HerdrClient, HerdrError } from "../../lib/herdr/client.ts";
import { OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { repoFacts } from "../../workers/reap/worktree-safety.ts";
import { inside, type ProcTable } from "./procs.ts";
import { safetyOf, type FleetScan, type FleetWorktree, type ProcRef, type SafetyOptions } from "./scan.ts";
import { errorMessage } from "../../lib/errors.ts";

export interface ReapOptions {
  execute: boolean;
  graceMs: number;
  timeoutMs: number;
  ledger: string;
  safety: SafetyOptions;
  /** Warnings of the append (a torn last line set aside to `<ledger>.torn`). */
  onLedgerWarning?: (w: LedgerWarning) => void;
  /** Called as each worktree is done (the command shows progress on a TTY). */
  onProgress?: (done: number, total: number, path: string) => void;
  /** Sleep seam (tests pass a fast one). */
  sleep?: (ms: number) => Promise<void>;
}

interface Killed {
  pid: number;
  command: string;
  signal: "SIGTERM" | "SIGKILL";
}

export interface ReapResult {
  repo: string;
  path: string;
  state: FleetWorktree["state"];
  outcome: "removed" | "would_remove" | "left";
  reason: string | null;
  bytes_reclaimed: number;
  killed: Killed[];
  /** Dry run: what would be signalled. */
  would_kill: ProcRef[];
  terminal_closed: string | null;
  /** Dry run: the recorded terminal that would be closed (`<host>:<id>`, live only). */
  would_close?: string | null;
  /** Dry run, D40's documented limit: commits only the worktree's HEAD reflog reaches (they go with it). */
  reflog_only_commits?: number | null;
  /** An action was tried and failed (terminal close, a process that survived KILL, the removal itself). */
  failed: boolean;
  ledger_error?: string;
}

/** Why this worktree must be left, or null when every check before acting passes. */
export function leaveReason(w: FleetWorktree, scan: FleetScan): string | null {
  if (w.state === "main") return "main worktree";
  // A live terminal or pane no record knows binds it (D41): it is someone's work in progress.
  if (w.state === "open" && (w.binding!.source === "orca" || w.binding!.source === "herdr")) return `live ${w.binding!.source} pane ${w.binding!.id} works in it`;
  if (w.state === "open") return `bound to open ${w.binding!.source} ${w.binding!.id} (status ${w.binding!.status})`;
  if (!w.safety.safe) return w.safety.reason.replace(/[\r\n]+/g, " ");
  if (scan.panes.failed.length) return `panes unmeasured: ${scan.panes.failed.join("; ")}`;
  const rec = w.binding?.terminal;
  const foreign = w.panes.find((p) => !(rec && rec.host === p.host && rec.id === p.id));
  if (foreign) return `live ${foreign.host} pane ${foreign.id} works in it`;
  if (w.processes === "unmeasured") return `processes unmeasured: ${scan.processes_unmeasured ?? "unknown"}`;
  // A process working elsewhere that holds a file open in here (an editor, a watcher) is not the worker's leftover.
  const visitor = w.processes.find((p) => !p.cwd_inside);
  if (visitor) return `process ${visitor.pid} (${visitor.command}) works elsewhere but holds files open in it`;
  return null;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Signal every process still inside `dir` with its original start time; returns who was signalled. */
async function signalAll(table: ProcTable, procs: ProcRef[], dir: string, sig: "SIGTERM" | "SIGKILL", protect: Set<number>): Promise<Killed[]> {
  const out: Killed[] = [];
  for (const p of procs) {
    if (protect.has(p.pid)) continue;
    // Right before the signal: the same process (start time) still working inside the worktree, or not ours.
    const now = await table.current(p.pid, p.start);
    if (!now || (now.cwd !== null && !inside(now.cwd, dir))) continue;
    if (table.signal(p.pid, sig)) out.push({ pid: p.pid, command: p.command, signal: sig });
  }
  return out;
}

async function alive(table: ProcTable, procs: ProcRef[]): Promise<ProcRef[]> {
  const out: ProcRef[] = [];
  for (const p of procs) if (await table.current(p.pid, p.start)) out.push(p);
  return out;
}

/** TERM, wait up to the grace period, KILL what is left, wait a moment; returns the signals sent and survivors. */
async function stopProcesses(table: ProcTable, procs: ProcRef[], dir: string, graceMs: number, sleep: (ms: number) => Promise<void>): Promise<{ killed: Killed[]; survivors: ProcRef[] }> {
  const protect = table.protectedPids();
  const killed = await signalAll(table, procs, dir, "SIGTERM", protect);
  let left = await alive(table, procs);
  for (let waited = 0; left.length && waited < graceMs; waited += 50) {
    await sleep(50);
    left = await alive(table, left);
  }
  if (left.length) killed.push(...(await signalAll(table, left, dir, "SIGKILL", protect)));
  for (let waited = 0; left.length && waited < 2_000; waited += 50) {
    await sleep(50);
    left = await alive(table, left);
  }
  return { killed, survivors: left };
}

async function closeTerminal(ctx: Ctx, host: "herdr" | "orca", id: string, timeoutMs: number): Promise<string | null> {
  try {
    if (host === "orca") await new OrcaClient(ctx, { timeoutMs }).terminalClose(id);
    else await new HerdrClient(ctx, timeoutMs).paneClose(id);
    return null;
  } catch (e) {
    if (e instanceof OrcaError || e instanceof HerdrError) return e.message;
    throw e;
  }
}

function base(w: FleetWorktree): ReapResult {
  return { repo: w.repo, path: w.path, state: w.state, outcome: "left", reason: null, bytes_reclaimed: 0, killed: [], would_kill: [], terminal_closed: null, failed: false };
}

async function act(ctx: Ctx, w: FleetWorktree, table: ProcTable, o: ReapOptions): Promise<ReapResult> {
  const r = base(w);
  const procs = w.processes as ProcRef[];
  const rec = w.binding?.terminal;
  if (rec && w.panes.some((p) => p.host === rec.host && p.id === rec.id)) {
    const err = await closeTerminal(ctx, rec.host, rec.id, o.timeoutMs);
    if (err) return { ...r, failed: true, reason: `terminal close failed: ${err}` };
    r.terminal_closed = `${rec.host}:${rec.id}`;
  }
  if (!w.safety.safe) return { ...r, reason: w.safety.reason };
  const verified = w.safety.real;
  const stopped = await stopProcesses(table, procs, verified, o.graceMs, o.sleep ?? realSleep);
  r.killed = stopped.killed;
  if (stopped.survivors.length) return { ...r, failed: true, reason: `process survived SIGKILL: ${stopped.survivors.map((p) => p.pid).join(",")}` };
  // Asked afresh against the named repository (D40 identity included): a stopped process may have written, and the
  // directory must still be the one verified at scan time.
  const again = await safetyOf(ctx, w.path, o.timeoutMs, o.safety, await repoFacts(ctx, w.repo, o.timeoutMs));
  if (!again.safe) return { ...r, reason: `after stopping processes: ${again.reason}` };
  if (again.real !== verified) return { ...r, reason: "after stopping processes: identity_mismatch:the worktree directory changed since the scan" };
  const rm = await git(ctx, again.owner, ["worktree", "remove", verified], o.timeoutMs);
  if (!rm.ok) return { ...r, failed: true, reason: `git worktree remove failed: ${rm.why}` };
  return { ...r, outcome: "removed", bytes_reclaimed: w.size_bytes ?? 0 };
}

function ledgerRow(ctx: Ctx, r: ReapResult, w: FleetWorktree): Record<string, unknown> {
  return {
    event: "fleet_reap",
    ts: ctx.now() / 1000,
    repo: r.repo,
    worktree_path: r.path,
    branch: w.branch,
    state: r.state,
    binding: w.binding ? `${w.binding.source}:${w.binding.id}` : null,
    outcome: r.outcome,
    reason: r.reason,
    bytes_reclaimed: r.bytes_reclaimed,
    killed: r.killed,
    terminal_closed: r.terminal_closed,
  };
}

/** Reap one scanned fleet; worktrees are handled one at a time (their checks already ran concurrently). */
export async function reapFleet(ctx: Ctx, scan: FleetScan, table: ProcTable, o: ReapOptions): Promise<ReapResult[]> {
  const out: ReapResult[] = [];
  const linked = scan.worktrees.filter((w) => !w.main);
  for (const w of linked) {
    o.onProgress?.(out.length + 1, linked.length, w.path);
    const why = leaveReason(w, scan);
    if (why) {
      out.push({ ...base(w), reason: why });
      continue;
    }
    if (!o.execute) {
      const rec = w.binding?.terminal;
      const live = rec && w.panes.some((p) => p.host === rec.host && p.id === rec.id);
      out.push({
        ...base(w),
        outcome: "would_remove",
        bytes_reclaimed: w.size_bytes ?? 0,
        would_kill: w.processes as ProcRef[],
        would_close: live ? `${rec.host}:${rec.id}` : null,
        reflog_only_commits: w.safety.safe ? (w.safety.reflog_only_commits ?? null) : null,
      });
      continue;
    }
    const r = await act(ctx, w, table, o);
    // One row per worktree acted on: removed, or left after something was done to it.
    if (r.outcome === "removed" || r.killed.length || r.terminal_closed) {
      try {
        appendRow(o.ledger, ledgerRow(ctx, r, w), { onWarning: o.onLedgerWarning });
      } catch (e) {
        r.ledger_error = errorMessage(e);
      }
    }
    out.push(r);
  }
  return out;
}
