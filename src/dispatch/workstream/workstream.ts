/**
 * workstream-render (reference §28.6): one local day of the dispatch ledger as a markdown table, for the
 * master's daily note. Check rows, register rows, host-diversity audits and lifecycle events each get a kind.
 */
import { readRows, type LedgerRow, type ReadOptions } from "../../lib/ledger.ts";

const HEADER = ["| time | kind | decision | runtime | model (tier) | agents | cost proxy | job/task | note |", "|---|---|---|---|---|---|---|---|---|"];

/** Epoch seconds (the gate's float) or an ISO string; null when the row has no usable time. */
function rowTime(row: LedgerRow): Date | null {
  const ts = row.ts ?? row.timestamp;
  if (typeof ts === "number" && Number.isFinite(ts)) return new Date(ts * 1000);
  if (typeof ts === "string" && ts.trim() !== "") {
    const d = new Date(ts);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

const pad = (n: number) => String(n).padStart(2, "0");

export function localDay(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function kindOf(row: LedgerRow): string {
  if (typeof row.kind === "string") return row.kind === "host_diversity_audit" ? "audit" : row.kind;
  if (typeof row.event === "string") return row.event;
  if (row.job_id !== undefined) return "register";
  return "check";
}

/** Table cells never break the table: pipes escaped, newlines flattened. */
function cell(v: unknown): string {
  if (v === undefined || v === null || v === "") return "-";
  const s = Array.isArray(v) ? v.join(", ") : String(v);
  return s.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

function renderRow(row: LedgerRow, at: Date): string {
  const model = row.model ?? row.model_declared;
  const modelTier = model ? `${cell(model)}${row.tier ? ` (${cell(row.tier)})` : ""}` : "-";
  const job = row.job_id ?? row.orchestration_task ?? row.task_id ?? row.dispatch_id;
  const notes: string[] = [];
  if (typeof row.reason === "string" && row.reason !== "OK") notes.push(row.reason);
  if (Array.isArray(row.warnings) && row.warnings.length) notes.push(`warn: ${row.warnings.join(", ")}`);
  if (row.same_host === true) notes.push("same host as master");
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  return `| ${time} | ${cell(kindOf(row))} | ${cell(row.decision)} | ${cell(row.runtime)} | ${modelTier} | ${cell(row.n_agents)} | ${cell(row.cost_proxy)} | ${cell(job)} | ${cell(notes.join("; "))} |`;
}

export async function renderDay(ledger: string, day: string, opts: ReadOptions = {}): Promise<{ lines: string[]; rows: number }> {
  const lines = [...HEADER];
  let rows = 0;
  for await (const { row } of readRows(ledger, opts)) {
    const at = rowTime(row);
    if (!at || localDay(at) !== day) continue;
    lines.push(renderRow(row, at));
    rows++;
  }
  return { lines, rows };
}
