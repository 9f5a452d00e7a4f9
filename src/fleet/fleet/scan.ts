/**
 * `fleet scan`: every worktree of the given repositories (`git worktree list --porcelain`), each with what the
 * records say (open / settled / orphaned), the worktree-safety verdict `worker-reap` uses, its size on disk, the
 * processes inside it, the live panes bound to it, and its age. Git calls run concurrently up to a bound; the
 * process table, the pane lists and Orca's tasks are read once for the whole fleet.
 *
 * The one exported entry point other views use (`mogui top`'s live view, `fleet reap`):
 *
 *   scanFleet(ctx: Ctx, req: ScanRequest, table: ProcTable): Promise<FleetScan>
 *
 * Stable: each FleetWorktree carries `state`, the deciding `binding` (with its `source`: job | dispatch | register |
 * orca | herdr), every binding (`bindings`), `source` (the deciding binding's source, or null) and `drift` (the
 * records that disagree, D41: orca_settled_process_running, ledger_open_no_terminal, unknown_terminal, task_gone;
 * never a reason to remove). Fields are only ever added.
 */
import { lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { git } from "../../lib/git.ts";
import type { LedgerWarning } from "../../lib/ledger.ts";
import { listedReal } from "../../workers/reap/keep-rules.ts";
import { repoFacts, worktreeSafety, type RepoFacts, type SafetyOptions, type SafetyVerdict } from "../../workers/reap/worktree-safety.ts";
import { loadRecords, type Binding } from "./records.ts";
import { livePanes, type HostName, type Pane, type PaneView } from "./panes.ts";
import { orcaTasks, reconcileRecords, worktreeBinding, type Drift } from "./reconcile.ts";
import { inside, realOrSelf, type ProcInfo, type ProcTable } from "./procs.ts";

export type { SafetyOptions };

export interface ScanRequest {
  repos: string[];
  jobsLedger: string;
  dispatchLedger: string;
  hosts: HostName[];
  concurrency: number;
  timeoutMs: number;
  safety: SafetyOptions;
  /** Called as each worktree's checks finish (the command shows progress on a TTY). */
  onProgress?: (done: number, total: number, path: string) => void;
  /** Warnings of the ledger reads (a torn last line, foreign rows). */
  onLedgerWarning?: (w: LedgerWarning) => void;
}

export interface ProcRef {
  pid: number;
  command: string;
  start: string;
  /** true: its working directory is inside; false: it only holds files open inside (its cwd is elsewhere). */
  cwd_inside: boolean;
}

export interface FleetWorktree {
  repo: string;
  path: string;
  branch: string | null;
  main: boolean;
  state: "main" | "open" | "settled" | "orphaned";
  /** The deciding binding (an open one wins), null when no record and no live pane binds it. */
  binding: Binding | null;
  /** Every binding of it (D41: ledgers, gate register rows placed by Orca, live terminals and panes). */
  bindings: Binding[];
  /** The deciding binding's source, or null. */
  source: Binding["source"] | null;
  /** Where the records disagree (D41); reported, never resolved toward removal. */
  drift: Drift[];
  safety: SafetyVerdict;
  size_bytes: number | null;
  processes: ProcRef[] | "unmeasured";
  panes: Pane[];
  age_seconds: number | null;
}

export interface FleetScan {
  worktrees: FleetWorktree[];
  processes_unmeasured: string | null;
  panes: PaneView;
  /** Why Orca's tasks are not known (not asked: no record names a task; Orca not running; a failure), or null. */
  tasks_unknown: string | null;
  /** Gate-registered dispatches no worktree could be found for (their task gone from Orca: drift task_gone). */
  unplaced: { binding: Binding; drift: Drift[] }[];
}

export class FleetRepoError extends Error {
  override name = "FleetRepoError";
}

interface ListedWorktree {
  path: string;
  branch: string | null;
  main: boolean;
}

function parsePorcelain(text: string): ListedWorktree[] {
  const out: ListedWorktree[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split("\n").filter(Boolean);
    const head = lines.find((l) => l.startsWith("worktree "));
    if (!head || lines.includes("bare")) continue;
    const br = lines.find((l) => l.startsWith("branch "));
    out.push({ path: head.slice(9), branch: br ? br.slice(7).replace(/^refs\/heads\//, "") : null, main: out.length === 0 });
  }
  return out;
}

/** Bytes on disk (allocated blocks), symlinks not followed; null when the path is gone. */
function diskBytes(path: string): number | null {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return null;
  }
  let total = st.blocks !== undefined ? st.blocks * 512 : st.size;
  if (!st.isDirectory()) return total;
  let names: string[] = [];
  try {
    names = readdirSync(path);
  } catch {
    return total;
  }
  for (const n of names) total += diskBytes(join(path, n)) ?? 0;
  return total;
}

function ageSeconds(path: string, nowMs: number): number | null {
  try {
    // A linked worktree's `.git` file is written once, by `git worktree add`.
    return Math.max(0, Math.round((nowMs - statSync(join(path, ".git")).mtimeMs) / 1000));
  } catch {
    return null;
  }
}

/** Run `fn` over `items` with at most `bound` in flight, keeping order. */
async function boundedMap<T, R>(items: readonly T[], bound: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(bound, items.length)) }, worker));
  return out;
}

/**
 * The safety module of worker-reap; the options carry D31's precious set and --allow-ignored, and (for a scan)
 * the repository's facts read once. The re-check right before a removal passes none: it asks git afresh.
 */
export async function safetyOf(ctx: Ctx, path: string, timeoutMs: number, opts: SafetyOptions, repo?: RepoFacts): Promise<SafetyVerdict> {
  return worktreeSafety(ctx, path, timeoutMs, repo ? { ...opts, repo } : opts);
}

function procsInside(procs: readonly ProcInfo[] | null, dir: string, protect: Set<number>): ProcRef[] | "unmeasured" {
  if (procs === null) return "unmeasured";
  return procs
    .filter((p) => !protect.has(p.pid) && p.paths.some((q) => inside(q, dir)))
    .map((p) => ({ pid: p.pid, command: p.command, start: p.start, cwd_inside: p.cwd !== null && inside(p.cwd, dir) }))
    .sort((a, b) => a.pid - b.pid);
}

async function listRepo(ctx: Ctx, repo: string, timeoutMs: number): Promise<ListedWorktree[]> {
  const r = await git(ctx, repo, ["worktree", "list", "--porcelain"], timeoutMs);
  if (!r.ok) throw new FleetRepoError(`${repo}: not a git repository or git failed: ${r.why}`);
  return parsePorcelain(r.stdout);
}

export async function scanFleet(ctx: Ctx, req: ScanRequest, table: ProcTable): Promise<FleetScan> {
  const [lists, facts, records, panes, procs] = await Promise.all([
    Promise.all(req.repos.map((r) => listRepo(ctx, r, req.timeoutMs))),
    // Once per repository: `git worktree list` and `--merged` grow with the worktrees (per worktree = quadratic).
    Promise.all(req.repos.map((r) => repoFacts(ctx, r, req.timeoutMs))),
    loadRecords(req.jobsLedger, req.dispatchLedger, { onWarning: req.onLedgerWarning }),
    livePanes(ctx, req.hosts, req.timeoutMs),
    table.list(),
  ]);
  // D41: Orca's tasks once per scan, only when a record names one (and Orca is a host of this scan).
  const wantTasks = req.hosts.includes("orca") && (records.unplaced.length > 0 || [...records.byPath.values()].some((bs) => bs.some((b) => b.task)));
  const tasks = await orcaTasks(ctx, wantTasks, req.timeoutMs, panes);
  const rec = reconcileRecords(records, tasks, panes);
  const protect = table.protectedPids();
  const items = lists.flatMap((l, i) => l.map((w) => ({ repo: req.repos[i]!, facts: facts[i]!, ...w })));
  let done = 0;
  const worktrees = await boundedMap(items, req.concurrency, async (w): Promise<FleetWorktree> => {
    const safety: SafetyVerdict = w.main ? { safe: false, reason: "Path is the main worktree of its repository" } : await safetyOf(ctx, w.path, req.timeoutMs, { ...req.safety, countReflog: true }, w.facts);
    // D40: processes and panes are matched against the identity-verified real path only; an unverified worktree
    // is matched against the path the repository lists (its last component not followed: a symlink's target,
    // another repository's worktree, is never "inside").
    const real = safety.safe ? safety.real : w.main ? realOrSelf(w.path) : listedReal(w.path);
    const processes = procsInside(procs, real, protect);
    const inHere = panes.panes.filter((p) => p.dirs.some((d) => inside(d, real)));
    const bound = w.main ? { bindings: [], binding: null, drift: [] as Drift[] } : worktreeBinding(rec.byPath.get(real) ?? [], inHere, processes !== "unmeasured" && processes.some((p) => p.cwd_inside), panes, rec.gone);
    const b = bound.binding;
    req.onProgress?.(++done, items.length, w.path);
    return {
      repo: w.repo,
      path: w.path,
      branch: w.branch,
      main: w.main,
      state: w.main ? "main" : b ? b.state : "orphaned",
      binding: b,
      bindings: bound.bindings,
      source: b?.source ?? null,
      drift: bound.drift,
      safety,
      size_bytes: diskBytes(w.path),
      processes,
      panes: inHere,
      age_seconds: ageSeconds(w.path, ctx.now()),
    };
  });
  return { worktrees, processes_unmeasured: procs === null ? table.why || "unmeasured" : null, panes, tasks_unknown: tasks.why, unplaced: rec.unplaced };
}
