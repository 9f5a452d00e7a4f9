/**
 * hook-coverage-report (reference §28.6): the fire log folded into a hook x `runtime|session` matrix with counts
 * and the last time each cell fired, plus the hooks that never fired at all.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readRows, type ReadOptions } from "../../lib/ledger.ts";

export const KNOWN_HOOKS = ["product-path-guard", "role-state-inject", "tracker-check", "orch-inbox-warn", "bash-poll-warn", "bash-output-trim-warn", "compaction-probe"] as const;

interface CoverageRow {
  hook: string;
  runtime: string;
  session: string;
  count: number;
  last_fired: string;
}

export interface Coverage {
  rows: CoverageRow[];
  never_fired: string[];
  total: number;
}

const text = (v: unknown, dflt: string) => (typeof v === "string" && v !== "" ? v : dflt);

/** Hook names from <ops>/scripts/hooks/*.sh (the template's own scripts), when that directory exists. */
export function opsHookNames(ops: string | undefined): string[] {
  if (!ops) return [];
  try {
    return readdirSync(join(ops, "scripts", "hooks"))
      .filter((f) => f.endsWith(".sh"))
      .map((f) => f.slice(0, -3));
  } catch {
    return [];
  }
}

export async function coverage(log: string, expected: readonly string[], opts: ReadOptions = {}): Promise<Coverage> {
  const cells = new Map<string, CoverageRow>();
  let total = 0;
  for await (const { row } of readRows(log, opts)) {
    const hook = text(row.hook, "(unnamed)");
    const runtime = text(row.runtime_hint, "unknown");
    const session = text(row.session_kind, "unknown");
    const ts = text(row.ts, "");
    const key = `${hook}\u0000${runtime}\u0000${session}`;
    const cell = cells.get(key) ?? { hook, runtime, session, count: 0, last_fired: "" };
    cell.count++;
    if (ts > cell.last_fired) cell.last_fired = ts;
    cells.set(key, cell);
    total++;
  }
  const rows = [...cells.values()].sort((a, b) => a.hook.localeCompare(b.hook) || a.runtime.localeCompare(b.runtime) || a.session.localeCompare(b.session));
  const fired = new Set(rows.map((r) => r.hook));
  const never_fired = [...new Set(expected)].filter((h) => !fired.has(h)).sort();
  return { rows, never_fired, total };
}

export function renderCoverage(c: Coverage, log: string): string[] {
  const table = [["hook", "runtime|session", "count", "last fired (UTC)"], ...c.rows.map((r) => [r.hook, `${r.runtime}|${r.session}`, String(r.count), r.last_fired || "-"])];
  const w = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const lines = [`fire log: ${log} (${c.total} rows)`];
  if (c.rows.length)
    lines.push(
      ...table.map((r) =>
        r
          .map((x, i) => x.padEnd(w[i]!))
          .join("  ")
          .trimEnd(),
      ),
    );
  lines.push(`never fired: ${c.never_fired.length ? c.never_fired.join(", ") : "none"}`);
  return lines;
}
