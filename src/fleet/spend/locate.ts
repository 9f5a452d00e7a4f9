/**
 * Which transcripts belong to a job: what `worker spawn` recorded in the jobs ledger names the worktree, and the
 * agents keep their transcripts by working directory. Claude Code: `<projects>/<worktree with every
 * non-alphanumeric turned into '-'>/*.jsonl`. Codex: the rollouts under `<sessions>/` whose `session_meta` names
 * that `cwd` (only each rollout's first line is read).
 */
import { closeSync, openSync, readdirSync, readSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { readRows } from "../../lib/ledger.ts";
import { OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { claudeProjectName, claudeProjectsDir, codexSessionsDir } from "../../dispatch/gate/spend-paths.ts";

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function jsonlIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith(".jsonl"))
      .map((d) => join(dir, d.name))
      .sort();
  } catch {
    return [];
  }
}

function walkJsonl(dir: string, out: string[], depth = 0): void {
  if (depth > 6) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const d of entries) {
    const p = join(dir, d.name);
    if (d.isDirectory()) walkJsonl(p, out, depth + 1);
    else if (d.isFile() && d.name.endsWith(".jsonl")) out.push(p);
  }
}

/** The `cwd` a Codex rollout's first line (`session_meta`) names, or null. */
function codexCwd(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const nl = buf.subarray(0, n).indexOf(10);
    const ev = JSON.parse(buf.toString("utf8", 0, nl < 0 ? n : nl)) as { type?: unknown; payload?: { cwd?: unknown } };
    return ev.type === "session_meta" && typeof ev.payload?.cwd === "string" ? ev.payload.cwd : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

export class TranscriptLocator {
  private codexByCwd: Map<string, string[]> | null = null;

  constructor(private readonly ctx: Pick<Ctx, "env">) {}

  private codexIndex(): Map<string, string[]> {
    if (this.codexByCwd) return this.codexByCwd;
    const files: string[] = [];
    walkJsonl(codexSessionsDir(this.ctx), files);
    const m = new Map<string, string[]>();
    for (const f of files.sort()) {
      const cwd = codexCwd(f);
      if (cwd === null) continue;
      const k = real(cwd);
      m.set(k, [...(m.get(k) ?? []), f]);
    }
    this.codexByCwd = m;
    return m;
  }

  /** Every transcript of an agent that worked in `worktree` (Claude Code sessions first, then Codex rollouts). */
  forWorktree(worktree: string): string[] {
    const claude = new Set([...jsonlIn(join(claudeProjectsDir(this.ctx), claudeProjectName(worktree))), ...jsonlIn(join(claudeProjectsDir(this.ctx), claudeProjectName(real(worktree))))]);
    return [...claude, ...(this.codexIndex().get(real(worktree)) ?? [])];
  }
}

/**
 * D41 for spend: the worktree of a job the jobs ledger does not know but the gate registered
 * (`dispatch-gate register --job-id J --orchestration-task T`): a lifecycle row naming its worktree, else the worktree
 * Orca recorded for it (task-list -> the task's assignee terminal, `dispatch-show --task` when the row lacks it ->
 * `terminal show` -> worktreePath). null when no record leads to one (Orca absent, the task or terminal gone).
 */
export async function gateJobWorktree(ctx: Ctx, dispatchLedger: string, jobId: string, timeoutMs = 30_000): Promise<string | null> {
  let task: string | null = null;
  let worktree: string | null = null;
  for await (const { row } of readRows(dispatchLedger)) {
    const mine = row.job_id === jobId || row.dispatch_id === jobId;
    if (!mine) continue;
    if (typeof row.orchestration_task === "string" && row.orchestration_task) task = row.orchestration_task;
    else if (typeof row.task_id === "string" && row.task_id) task ??= row.task_id;
    if (typeof row.worktree_path === "string" && row.worktree_path) worktree = row.worktree_path;
  }
  if (worktree || !task) return worktree;
  const orca = new OrcaClient(ctx, { timeoutMs });
  try {
    const t = (await orca.taskList()).find((x) => x.id === task);
    const handle = t?.assignee_handle || (t ? (await orca.dispatchShow(t.id))?.terminal : null) || null;
    if (!handle) return null;
    const term = await orca.terminalShow(handle);
    return term.worktreePath || null;
  } catch (e) {
    if (e instanceof OrcaError) return null;
    throw e;
  }
}
