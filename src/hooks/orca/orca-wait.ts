/**
 * orca-wait (reference §28.6): the one sanctioned way for a master to wait for Orca events (no hand-rolled
 * sleep loops). First drain the unread backlog with short `check --unread --wait --timeout-ms 100` calls (at
 * most 100), printing `type|id|from|subject` per message; when the backlog was empty, block on one
 * `check --unread --wait --timeout-ms N` for the next message. `--once` skips the drain: one blocking check.
 * Keepalive lines (`{"_keepalive":true}`) are ignored wherever they appear.
 */
import type { Ctx } from "../../lib/context.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";
import { CHILD_STATUS } from "../measure/status.ts";

const DRAIN_LIMIT = 100;

/** Orca's message types (docs/orca-cli.md §6); `--types` outside this list would never match. */
export const ORCA_MESSAGE_TYPES: readonly string[] = ["status", "dispatch", "worker_done", "merge_ready", "escalation", "handoff", "decision_gate", "question", "heartbeat"];

/** `<code>: <message>` from an `ok:false` envelope on stdout (the message made one line), or undefined. */
function envelopeError(stdout: string): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== "object" || (doc as { ok?: unknown }).ok !== false) return undefined;
  const err = (doc as { error?: { code?: unknown; message?: unknown } }).error;
  const code = typeof err?.code === "string" ? err.code : "?";
  const message = typeof err?.message === "string" ? err.message.replace(/\r?\n/g, " ") : "";
  return `${code}: ${message}`;
}

export interface WaitOptions {
  once: boolean;
  timeoutMs: number;
  types?: string;
}

interface WaitMessage {
  type: string;
  id: string;
  from: string;
  subject: string;
}

export class WaitFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The last non-keepalive JSON document on stdout (one envelope, or JSON lines). */
function parseCheck(stdout: string): { messages: WaitMessage[]; deliveryId?: string; timedOut: boolean } {
  const docs: unknown[] = [];
  try {
    docs.push(JSON.parse(stdout));
  } catch {
    for (const line of stdout.split("\n")) {
      try {
        if (line.trim()) docs.push(JSON.parse(line));
      } catch {
        /* not JSON: ignore */
      }
    }
  }
  const doc = docs.filter((d) => d && typeof d === "object" && !(d as { _keepalive?: unknown })._keepalive).pop() as Record<string, unknown> | undefined;
  if (!doc) throw new WaitFailure(CHILD_STATUS.failed, "orca-wait: orca printed no JSON reply");
  if (doc.ok === false) {
    const err = doc.error as { code?: string; message?: string } | undefined;
    throw new WaitFailure(CHILD_STATUS.failed, `orca-wait: orca error ${err?.code ?? "?"}: ${(err?.message ?? "").replace(/\r?\n/g, " ")}`);
  }
  const result = (doc.result ?? doc) as Record<string, unknown>;
  const raw = Array.isArray(result.messages) ? (result.messages as Record<string, unknown>[]) : [];
  const s = (v: unknown) => (typeof v === "string" ? v.replace(/[|\n]/g, " ") : "");
  const messages = raw.map((m) => ({ type: s(m.type), id: s(m.id), from: s(m.from_handle ?? m.from), subject: s(m.subject) }));
  const deliveryId = typeof result.deliveryId === "string" ? result.deliveryId : undefined;
  return { messages, deliveryId, timedOut: result.timedOut === true };
}

function formatMessage(m: WaitMessage): string {
  return `${m.type}|${m.id}|${m.from}|${m.subject}`;
}

async function check(ctx: Ctx, orca: string, timeoutMs: number, o: WaitOptions, ack: string | undefined) {
  const argv = [orca, "orchestration", "check", "--unread", "--wait", "--timeout-ms", String(timeoutMs), "--json"];
  if (o.types) argv.push("--types", o.types);
  if (ack) argv.push("--ack", ack);
  // The orca call gets its own deadline plus slack: its --timeout-ms is the wait, not the process budget.
  const r = await ctx.runner(argv, { cwd: ctx.cwd, env: ctx.env, timeoutMs: timeoutMs + 30_000 });
  if (r.missing) throw new WaitFailure(CHILD_STATUS.notFound, `orca-wait: ${orca}: command not found`);
  if (r.timedOut) throw new WaitFailure(CHILD_STATUS.timedOut, `orca-wait: ${orca} did not answer within ${timeoutMs + 30_000} ms`);
  if (r.code !== 0) {
    const detail = envelopeError(r.stdout) ?? (r.stderr.trim() || r.stdout.trim()).split("\n")[0] ?? "";
    throw new WaitFailure(r.code ?? CHILD_STATUS.failed, `orca-wait: orca orchestration check failed (${r.signal ?? `exit ${r.code}`})${detail ? `: ${detail}` : ""}`);
  }
  return parseCheck(r.stdout);
}

/** Prints each message as it arrives; returns how many were printed. */
export async function orcaWait(ctx: Ctx, o: WaitOptions, print: (line: string) => void): Promise<number> {
  const orca = resolveOrcaExecutable(ctx.env);
  let ack: string | undefined;
  let printed = 0;
  if (!o.once) {
    for (let i = 0; i < DRAIN_LIMIT; i++) {
      const b = await check(ctx, orca, 100, o, ack);
      ack = b.deliveryId;
      if (!b.messages.length) break;
      for (const m of b.messages) print(formatMessage(m));
      printed += b.messages.length;
    }
    if (printed) return printed;
  }
  const b = await check(ctx, orca, o.timeoutMs, o, ack);
  for (const m of b.messages) print(formatMessage(m));
  return printed + b.messages.length;
}
