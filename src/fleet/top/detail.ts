/**
 * The detail pane of one row: every fact of the row, the ledger rows that name it (jobs ledger by job id; dispatch
 * ledger by dispatch id or worktree path), the brief's path, and the last lines of its newest transcript.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { readRows } from "../../lib/ledger.ts";
import { realOrSelf } from "../fleet/procs.ts";
import { stateLabel, GROUP_TITLES } from "./classify.ts";
import type { TopRequest } from "./collect.ts";
import { compact, duration, modelCell, money, pushedCell, reapCell } from "./layout.ts";
import type { TopRow } from "./row.ts";
import { errorMessage } from "../../lib/errors.ts";

const MAX_LEDGER_ROWS = 12;
const TRANSCRIPT_LINES = 6;

function tail(path: string, bytes = 64 * 1024): string[] {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, bytes);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, size - n);
    const lines = buf.toString("utf8").split("\n").filter(Boolean);
    return size > n ? lines.slice(1) : lines;
  } finally {
    closeSync(fd);
  }
}

/** One transcript line as `type: text` (Claude Code and Codex shapes), else the raw line. */
export function summariseLine(line: string): string {
  let ev: Record<string, unknown>;
  try {
    ev = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const msg = (ev.message ?? ev.payload) as Record<string, unknown> | undefined;
  const type = String(ev.type ?? "?");
  const content = msg?.content;
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = content
      .map((c) => (typeof c === "object" && c !== null ? String((c as Record<string, unknown>).text ?? (c as Record<string, unknown>).name ?? (c as Record<string, unknown>).type ?? "") : String(c)))
      .filter(Boolean)
      .join(" ");
  } else if (msg && typeof msg.type === "string") text = String(msg.message ?? msg.type);
  return `${type}${msg && typeof msg.role === "string" ? `/${msg.role}` : ""}: ${text.replace(/\s+/g, " ").trim()}`;
}

async function ledgerRows(path: string, keep: (row: Record<string, unknown>) => boolean): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const { row } of readRows(path)) if (keep(row)) out.push(JSON.stringify(row));
  } catch (e) {
    return [`(${path}: ${errorMessage(e)})`];
  }
  return out.slice(-MAX_LEDGER_ROWS);
}

export async function detailLines(row: TopRow, req: TopRequest): Promise<string[]> {
  const wt = row.worktree ? realOrSelf(row.worktree) : null;
  const jobs = row.source === "job" ? await ledgerRows(req.jobsLedger, (r) => r.job_id === row.id) : [];
  const ds = await ledgerRows(req.dispatchLedger, (r) => (row.source === "dispatch" && r.dispatch_id === row.id) || (wt !== null && typeof r.worktree_path === "string" && realOrSelf(r.worktree_path) === wt));
  const newest = [...row.transcripts].sort((a, b) => mtime(b) - mtime(a))[0];
  const lines = [
    `DETAIL ${row.id}   (Esc or Enter: back)`,
    "",
    `state      ${stateLabel(row)}   group ${GROUP_TITLES[row.group]}${row.verdict_pending ? "   verdict pending" : ""}`,
    `host:pane  ${row.host ?? "-"}:${row.pane ?? "-"}   agent ${row.agent ?? "-"}`,
    `model      ${modelCell(row)}   (claimed ${row.model_claimed ?? "-"}, observed ${row.model_observed ?? "-"})   tier ${row.tier ?? "-"}${row.job_tier ? ` / ${row.job_tier}` : ""}`,
    `age/last   ${duration(row.age_seconds)} / ${duration(row.idle_seconds)}`,
    `tokens     ${compact(row.tokens)}   spend ${money(row.spend)}   burn/h ${row.burn_spend_per_hour !== null ? money(row.burn_spend_per_hour) : compact(row.burn_tokens_per_hour)}`,
    `pushed     ${pushedCell(row)}${row.claimed_sha ? ` (claimed ${row.claimed_sha})` : ""}   verdict ${row.verdict ?? "-"}`,
    `reap       ${reapCell(row)}`,
    `repo       ${row.repo ?? "-"}`,
    `worktree   ${row.worktree ?? "-"}   branch ${row.branch ?? "-"}`,
    `brief      ${row.brief ?? "-"}`,
  ];
  if (row.binding_source !== null) lines.push(`binding    ${JSON.stringify(row.binding_source)}`);
  if (row.drift !== null) lines.push(`drift      ${JSON.stringify(row.drift)}`);
  lines.push("", "Ledger rows:", ...(jobs.length || ds.length ? [...jobs, ...ds].map((l) => `  ${l}`) : ["  (none)"]));
  lines.push(
    "",
    `Last transcript lines${newest ? ` (${newest})` : ""}:`,
    ...(newest
      ? tail(newest)
          .slice(-TRANSCRIPT_LINES)
          .map((l) => `  ${summariseLine(l)}`)
      : ["  (no transcript found)"]),
  );
  return lines;
}

function mtime(p: string): number {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}
