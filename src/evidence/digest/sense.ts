/**
 * SENSE (reference §12): read-only observations. Repo head and dirtiness through `git -C`, the ledger's last valid
 * rows, job logs classified by sidecar / finished marker / idle time, monitor processes through `pgrep -f`.
 */
import { readFileSync, statSync } from "node:fs";
import { git } from "../../lib/git.ts";
import type { Ctx } from "../../lib/context.ts";
import { globPaths } from "../../lib/glob.ts";
import type { DigestConfig } from "./config.ts";

const JOB_LOG_TAIL_LINES = 20;
const FINISHED_SIDECAR_STATUSES = ["completed", "cancelled", "canceled"];
const TIMEOUT_MS = 15_000;

export interface RepoState {
  path: string;
  head: string | null;
  dirty: boolean;
  error?: string;
}

type JobLogClass = "running" | "stalled" | "dormant" | "finished" | "missing";

export interface JobObservation {
  name: string;
  path: string;
  status: JobLogClass;
  reason: string;
  idleSeconds: number | null;
}

export interface ProcessObservation {
  pattern: string;
  status: "running" | "idle";
  error: string | null;
}

export interface Snapshot {
  repos: Record<string, RepoState>;
  ledgerTail: Record<string, unknown>[];
  jobs: JobObservation[];
  processes: ProcessObservation[];
}

async function repoState(ctx: Pick<Ctx, "runner" | "env">, path: string): Promise<RepoState> {
  const head = await git(ctx, path, ["rev-parse", "HEAD"], TIMEOUT_MS);
  if (!head.ok) return { path, head: null, dirty: false, error: head.stderr.trim() || "HEAD_UNREADABLE" };
  const status = await git(ctx, path, ["status", "--porcelain"], TIMEOUT_MS);
  if (!status.ok) return { path, head: head.stdout.trim(), dirty: false, error: status.stderr.trim() || "STATUS_UNREADABLE" };
  return { path, head: head.stdout.trim(), dirty: status.stdout.trim() !== "" };
}

/** The last `limit` lines that parse as JSON objects; anything else is skipped (an observation, not a gate). */
export function ledgerTail(path: string, limit: number): Record<string, unknown>[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const out: Record<string, unknown>[] = [];
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
    try {
      const row = JSON.parse(lines[i]!) as unknown;
      if (row && typeof row === "object" && !Array.isArray(row)) out.push(row as Record<string, unknown>);
    } catch {}
  }
  return out.reverse();
}

function sidecarFinished(logPath: string): boolean {
  const side = `${logPath.replace(/\.[^./]*$/, "")}.json`;
  try {
    const raw = JSON.parse(readFileSync(side, "utf8")) as Record<string, unknown>;
    return typeof raw?.status === "string" && FINISHED_SIDECAR_STATUSES.includes(raw.status.toLowerCase());
  } catch {
    return false;
  }
}

export function classifyJobLog(path: string, cfg: Pick<DigestConfig, "finishedMarkers" | "maxIdleSeconds" | "activeWindowSeconds">, nowMs: number): JobObservation {
  const name = path.split("/").pop() ?? path;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return { name, path, status: "missing", reason: "LOG_MISSING", idleSeconds: null };
  }
  if (sidecarFinished(path)) return { name, path, status: "finished", reason: "SIDECAR_STATUS", idleSeconds: null };
  let tail = "";
  try {
    tail = readFileSync(path, "utf8")
      .split("\n")
      .slice(-JOB_LOG_TAIL_LINES - 1)
      .join("\n")
      .toLowerCase();
  } catch {
    tail = "";
  }
  if (cfg.finishedMarkers.some((m) => m && tail.includes(m.toLowerCase()))) return { name, path, status: "finished", reason: "FINISHED_MARKER", idleSeconds: null };
  const idle = Math.max(0, Math.floor((nowMs - mtimeMs) / 1000));
  if (idle > cfg.activeWindowSeconds) return { name, path, status: "dormant", reason: "OUTSIDE_ACTIVE_WINDOW", idleSeconds: idle };
  if (idle > cfg.maxIdleSeconds) return { name, path, status: "stalled", reason: "IDLE_TIMEOUT", idleSeconds: idle };
  return { name, path, status: "running", reason: "OK", idleSeconds: idle };
}

/** Files a glob matches, sorted. The static leading directories are the scan root (no scan from `/`). */
function globFiles(pattern: string): string[] {
  return globPaths(pattern, { onlyFiles: true }).sort();
}

export async function processState(ctx: Pick<Ctx, "runner" | "env">, pattern: string): Promise<ProcessObservation> {
  const r = await ctx.runner(["pgrep", "-f", pattern], { env: ctx.env, timeoutMs: TIMEOUT_MS });
  if (r.code === 0) return { pattern, status: "running", error: null };
  if (r.code === 1) return { pattern, status: "idle", error: null };
  const why = r.missing ? "pgrep: executable not found" : r.timedOut ? "pgrep: timed out" : r.stderr.trim() || `pgrep exit ${r.code ?? r.signal}`;
  return { pattern, status: "idle", error: why };
}

export async function collectObservations(ctx: Pick<Ctx, "runner" | "env">, cfg: DigestConfig, nowMs: number): Promise<Snapshot> {
  const repos: Record<string, RepoState> = {};
  for (const r of cfg.repos) repos[r.name] = await repoState(ctx, r.path);
  const jobs = [...new Set(cfg.jobLogGlobs.flatMap(globFiles))].map((p) => classifyJobLog(p, cfg, nowMs)).filter((j) => j.status === "running" || j.status === "stalled");
  const processes: ProcessObservation[] = [];
  for (const p of cfg.monitorPgrepPatterns) processes.push(await processState(ctx, p));
  return { repos, ledgerTail: ledgerTail(cfg.ledgerPath, cfg.ledgerTailLimit), jobs, processes };
}
