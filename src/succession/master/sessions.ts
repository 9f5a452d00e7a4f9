/**
 * Orca terminal lists as succession reads them (§5.5): the raw reply is parsed here (not through OrcaClient) because
 * the succession contract names its own error messages. Both the real envelope and the legacy flat shape (D4).
 */
import type { Ctx } from "../../lib/context.ts";
import { ok, type RunResult } from "../../lib/runner.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";
import { SuccessionError } from "./errors.ts";

const ORCA_TIMEOUT_MS = 30_000;

export interface SessionInfo {
  handle: string;
  worktree_path: string | null;
  branch: string | null;
  title: string | null;
  connected: boolean;
  pty_id: string | null;
  worktree_id: string | null;
  session_id: string | null;
  process_id: number | null;
}

/** The seven fields a selector or marker may match, in a fixed order. */
const MATCH_FIELDS = ["handle", "pty_id", "session_id", "worktree_id", "worktree_path", "branch", "title"] as const;

export function orcaExe(ctx: Ctx): string {
  return resolveOrcaExecutable(ctx.env);
}

export async function runOrca(ctx: Ctx, args: readonly string[], timeoutMs = ORCA_TIMEOUT_MS): Promise<RunResult> {
  return ctx.runner([orcaExe(ctx), ...args], { cwd: ctx.cwd, env: ctx.env, timeoutMs });
}

/** Why a run failed, in the words of the reference (stderr, else stdout, else the fallback), with D6's kinds. */
export function runFailure(r: RunResult, fallback: string, timeoutMs = ORCA_TIMEOUT_MS): string {
  const exe = r.argv[0] ?? "orca";
  if (r.missing) return `orca executable '${exe}' not found (set ORCA_CLI_COMMAND)`;
  if (r.timedOut) return `${fallback}: timed out after ${timeoutMs} ms`;
  if (r.signal) return `${fallback}: killed by ${r.signal}`;
  const env = errorEnvelope(r.stdout);
  if (env) return env;
  return r.stderr.trim() || r.stdout.trim() || fallback;
}

function errorEnvelope(stdout: string): string | undefined {
  try {
    const j = JSON.parse(stdout) as Record<string, unknown>;
    if (j && typeof j === "object" && j.ok === false) return envelopeMessage(j);
  } catch {
    /* not JSON */
  }
  return undefined;
}

export function envelopeMessage(j: Record<string, unknown>): string {
  const e = j.error as Record<string, unknown> | undefined;
  if (e && typeof e === "object") {
    if (typeof e.message === "string" && e.message) return e.message;
    if (typeof e.code === "string" && e.code) return e.code;
  }
  return "orca error";
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);

function intOrNull(v: unknown): number | null {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

function sessionFromItem(item: Record<string, unknown>): SessionInfo | null {
  const handle = str(item.handle);
  if (!handle) return null;
  return {
    handle,
    worktree_path: str(item.worktreePath),
    branch: str(item.branch),
    title: str(item.title),
    connected: Boolean(item.connected),
    pty_id: str(item.ptyId ?? item.ptyID),
    worktree_id: str(item.worktreeId),
    session_id: str(item.sessionId ?? item.sessionID),
    process_id: intOrNull(item.processId ?? item.pid),
  };
}

/** Parse `orca terminal list --json` stdout; throws SuccessionError with the §5.5 messages. */
export function parseTerminalList(stdout: string): SessionInfo[] {
  let j: unknown;
  try {
    j = JSON.parse(stdout);
  } catch {
    throw new SuccessionError("invalid orca JSON");
  }
  if (!j || typeof j !== "object" || Array.isArray(j)) throw new SuccessionError("orca JSON root must be an object");
  const root = j as Record<string, unknown>;
  if (root.ok === false) throw new SuccessionError(envelopeMessage(root));
  // D4: the envelope's `result`, or the legacy flat document itself when it has no `ok` key.
  const result = "result" in root || "ok" in root ? root.result : root;
  if (!result || typeof result !== "object" || Array.isArray(result)) throw new SuccessionError("orca JSON missing result");
  const terminals = (result as Record<string, unknown>).terminals;
  if (!Array.isArray(terminals)) throw new SuccessionError("orca JSON missing result.terminals");
  const out: SessionInfo[] = [];
  for (const item of terminals) {
    if (!item || typeof item !== "object" || Array.isArray(item)) continue;
    const s = sessionFromItem(item as Record<string, unknown>);
    if (s) out.push(s);
  }
  return out;
}

/** A bare `folder:<uuid>` is accepted by `terminal create` but not by `terminal list --worktree` (measured). */
export function listWorktreeSelector(sel: string): string {
  return sel.startsWith("folder:") ? `id:${sel}` : sel;
}

export function listArgs(worktree?: string): string[] {
  return ["terminal", "list", ...(worktree ? ["--worktree", listWorktreeSelector(worktree)] : []), "--json"];
}

/** `find_sessions`: the global (or worktree-scoped) terminal list. */
export async function findSessions(ctx: Ctx, opts: { worktree?: string } = {}): Promise<SessionInfo[]> {
  const r = await runOrca(ctx, listArgs(opts.worktree));
  if (!ok(r)) throw new SuccessionError(runFailure(r, "orca terminal list failed"));
  return parseTerminalList(r.stdout);
}

export function matchedFields(s: SessionInfo, needle: string): string[] {
  return MATCH_FIELDS.filter((f) => {
    const v = s[f];
    return typeof v === "string" && v.includes(needle);
  });
}

/** §5.6: sessions other than self whose fields contain the marker (disconnected ones included). */
export async function detectDuplicates(ctx: Ctx, marker: string, selfHandle: string): Promise<SessionInfo[]> {
  return (await duplicateReport(ctx, marker, selfHandle)).duplicates;
}

export interface DuplicateReport {
  duplicates: SessionInfo[];
  /** The row fields the marker was matched against (those some row of the list actually carried). */
  relies_on: string[];
  /**
   * `sessionId` / `processId` / `pid` are no part of Orca's documented `terminal list` summary (docs/orca-cli.md §5):
   * when no row carries them, a marker that only a session id would show is not seen. Named, never guessed.
   */
  session_id: "measured" | "unmeasured";
  process_id: "measured" | "unmeasured";
}

export async function duplicateReport(ctx: Ctx, marker: string, selfHandle: string): Promise<DuplicateReport> {
  if (!selfHandle) throw new SuccessionError("self_handle is required");
  if (!marker) throw new SuccessionError("session_marker is required");
  const all = await findSessions(ctx);
  const carried = (f: keyof SessionInfo) => all.some((s) => s[f] !== null);
  return {
    duplicates: all.filter((s) => s.handle !== selfHandle && matchedFields(s, marker).length > 0),
    relies_on: MATCH_FIELDS.filter((f) => f === "handle" || carried(f)),
    session_id: carried("session_id") ? "measured" : "unmeasured",
    process_id: carried("process_id") ? "measured" : "unmeasured",
  };
}
