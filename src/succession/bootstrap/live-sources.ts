/** The inputs of the SessionStart block (§11.2): Role State, tracks, the memory audit (counts only), the pointer. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { isFile } from "../../lib/fs.ts";
import { roleStateBlock } from "./role-state.ts";

const DEFAULT_MEMORY_CAP = 15;
export const DEFAULT_LIVE_BUDGET = 12_000;
const DEFAULT_CHARTER_POINTER = "Operations SSOT: see the ops repository MASTER-OPERATIONS.md (Role State canon)";

const why = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

export function latestHandoff(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  // Greatest name first: only the winner (and any non-file above it) is stat-ed, however long the history grows.
  const md = names.filter((n) => n.endsWith(".md")).sort();
  for (let i = md.length - 1; i >= 0; i--) if (isFile(join(dir, md[i]!))) return join(dir, md[i]!);
  return undefined;
}

/** The raw Role State block (not validated) and the alerts met on the way; the file wins over the handoff dir. */
export function loadRoleState(handoffDir: string, roleStateFile?: string): { block: string | null; alerts: string[] } {
  const alerts: string[] = [];
  if (roleStateFile) {
    let st;
    try {
      st = statSync(roleStateFile);
    } catch {
      st = undefined;
    }
    if (!st) alerts.push(`[AUDIT-ALERT] role-state-file: missing (${roleStateFile})`);
    else if (!st.isFile()) alerts.push(`[AUDIT-ALERT] role-state-file: not a file (${roleStateFile})`);
    else {
      try {
        const block = roleStateBlock(readFileSync(roleStateFile, "utf8"));
        if (block !== undefined) return { block, alerts };
        alerts.push(`[AUDIT-ALERT] role-state-file: no Role State block (${basename(roleStateFile)})`);
      } catch (e) {
        alerts.push(`[AUDIT-ALERT] role-state-file: read failed ${why(e)}`);
      }
    }
  }
  const latest = latestHandoff(handoffDir);
  if (!latest) {
    alerts.push(`[AUDIT-ALERT] role-state: handoff dir missing (${handoffDir})`);
    return { block: null, alerts };
  }
  try {
    const block = roleStateBlock(readFileSync(latest, "utf8"));
    if (block !== undefined) return { block, alerts };
    alerts.push(`[AUDIT-ALERT] role-state: no Role State block (${basename(latest)})`);
  } catch (e) {
    alerts.push(`[AUDIT-ALERT] role-state: read failed ${why(e)}`);
  }
  return { block: null, alerts };
}

/** `bd list --status in_progress` lines: blank skipped, `---` ends the list, `Total:`/`Status:` lines skipped. */
export function trackLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const l = raw.trim();
    if (!l) continue;
    if (l.startsWith("---")) break;
    if (l.startsWith("Total:") || l.startsWith("Status:")) continue;
    out.push(l);
  }
  return out;
}

export interface MemoryAudit {
  line: string;
  alerts: string[];
}

/** Count `### ` memory blocks by tier; the bodies are never echoed (the block only says how many and how big). */
export function auditMemories(text: string, cap = DEFAULT_MEMORY_CAP, budget = DEFAULT_LIVE_BUDGET): MemoryAudit {
  const blocks: string[] = [];
  let cur: string[] | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("### ")) {
      if (cur) blocks.push(cur.join("\n"));
      cur = [line];
    } else if (cur) cur.push(line);
  }
  if (cur) blocks.push(cur.join("\n"));
  const real = blocks.filter((b) => b.trim() !== "");
  const l0 = real.filter((b) => b.includes("[L0")).length;
  const l1 = real.filter((b) => !b.includes("[L0") && b.includes("[L1")).length;
  const untagged = real.length - l0 - l1;
  const size = [...text].length;
  const alerts: string[] = [];
  if (untagged > 0) alerts.push(`[AUDIT-ALERT] untagged memories ${untagged}`);
  if (real.length > cap) alerts.push(`[AUDIT-ALERT] cap exceeded: ${real.length} > ${cap}`);
  if (size > budget) alerts.push(`[BUDGET-ALERT] bd-prime block ${size} chars > ${budget}`);
  const verdict = alerts.length ? "ALERT" : "OK";
  const line = `[BD-PRIME-AUDIT] memories=${real.length} (L0=${l0}, L1=${l1}, untagged=${untagged}), block=${(size / 1024).toFixed(1)}KB — ${verdict} (budget ${Math.round(budget / 1000)}KB)`;
  return { line, alerts };
}

export function resolveCharterPointer(explicit: string | undefined, env: string | undefined): string {
  return explicit?.trim() || env?.trim() || DEFAULT_CHARTER_POINTER;
}
