/**
 * The hook fire log (reference §28.5/§30.8, D2): one row `{ts, hook, event, cwd, runtime_hint, session_kind}` per
 * hook call in $MOGUI_HOOK_FIRE_LOG, else $MOGUI_HOME/hook-fire-log.jsonl; and the guard's event log
 * ($MOGUI_EVENT_LOG, else $MOGUI_HOME/event-log.jsonl). A log that cannot be written never changes a hook's
 * decision or exit code: the hook says so on stderr and carries on.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { resolveStatePath, type Ctx } from "../../lib/context.ts";
import { appendRow, type LedgerRow } from "../../lib/ledger.ts";
import { errorMessage } from "../../lib/errors.ts";

export const FIRE_LOG_ENV = "MOGUI_HOOK_FIRE_LOG";
export const FIRE_LOG_FILE = "hook-fire-log.jsonl";
export const EVENT_LOG_ENV = "MOGUI_EVENT_LOG";
export const EVENT_LOG_FILE = "event-log.jsonl";

export type SessionKind = "worker" | "master" | "unknown";

/** worker inside an Orca dispatch or worktree; master where the ops charter lives; otherwise unknown. */
export function sessionKind(ctx: Pick<Ctx, "env">, cwd: string): SessionKind {
  if (ctx.env.ORCA_TASK_ID || ctx.env.ORCA_DISPATCH_ID || cwd.includes("/.orca/worktrees")) return "worker";
  if (existsSync(join(cwd, "docs", "MASTER-OPERATIONS.md"))) return "master";
  return "unknown";
}

export function runtimeHint(ctx: Pick<Ctx, "env">): string {
  return ctx.env.MOGUI_RUNTIME_HINT?.trim() || "unknown";
}

/** ISO-8601 UTC to the second, e.g. 2026-01-02T03:04:05Z. */
export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export function fireLogPath(ctx: Pick<Ctx, "env" | "cwd">): string {
  return resolveStatePath(ctx, undefined, FIRE_LOG_ENV, FIRE_LOG_FILE);
}

function eventLogPath(ctx: Pick<Ctx, "env" | "cwd">): string {
  return resolveStatePath(ctx, undefined, EVENT_LOG_ENV, EVENT_LOG_FILE);
}

function appendQuietly(ctx: Ctx, path: string, row: LedgerRow, what: string): void {
  try {
    appendRow(path, row, { lockTimeoutMs: 2000 });
  } catch (e) {
    // A hook's path (latency-benchmarked; no logger loaded) and the reference's `[mogui hook]` tag: written as is.
    ctx.io.stderr(`[mogui hook] warning: ${what} not written: ${errorMessage(e)}\n`);
  }
}

/** `kind`: the caller's sessionKind(ctx, cwd) when it already has it (one probe of the disk per hook call). */
export function appendFire(ctx: Ctx, hook: string, event: string, cwd: string, kind?: SessionKind): void {
  const row = { ts: isoSeconds(ctx.now()), hook, event, cwd, runtime_hint: runtimeHint(ctx), session_kind: kind ?? sessionKind(ctx, cwd) };
  appendQuietly(ctx, fireLogPath(ctx), row, "hook fire log");
}

export function appendEvent(ctx: Ctx, row: LedgerRow): void {
  appendQuietly(ctx, eventLogPath(ctx), row, "event log");
}
