/**
 * §11 SessionStart block: Role State, active tracks, charter pointer, memory audit, dual-instance line, alerts,
 * in that fixed order. D25: the cap holds for the WHOLE block — tracks are cut first (halved while more than four,
 * then one by one), then alerts, then the charter pointer, then the block itself, each cut marked. Never throws:
 * any internal error becomes one `[BOOTSTRAP-FALLBACK]` line.
 */
import { dualWarnings, type ProcessProbe } from "./dual.ts";
import { COMPACT_OVERHEAD, suppressCompactRecall } from "./compact.ts";
import { auditMemories, DEFAULT_LIVE_BUDGET, loadRoleState, resolveCharterPointer, trackLines } from "./live-sources.ts";

export const SELF_BLOCK_CAP = 1_000;
const HEADER = "[MASTER-BOOTSTRAP v1]";

/** Runs `bd <args>`; returns stdout (exit status ignored, like the reference); throws when bd cannot run. */
export type BdRunner = (args: string[]) => Promise<string>;

export interface LiveOptions {
  handoffDir: string;
  roleStateFile?: string;
  bd: BdRunner;
  /** Tracks from the work ledger instead of `bd list` (already formatted lines). */
  ledgerTracks?: () => Promise<string[]>;
  probe?: ProcessProbe;
  sessionId?: string;
  budgetChars?: number;
  charterPointer?: string;
  envCharterPointer?: string;
  source?: string;
  cap?: number;
  selfPid?: number;
  parentPid?: number;
}

interface Parts {
  role: string;
  tracks: string[];
  totalTracks: number;
  charter: string;
  audit: string;
  dual: string;
  alerts: string[];
  droppedAlerts: number;
}

const errText = (e: unknown) => (e instanceof Error ? e.message || e.name : String(e));

function render(p: Parts): string {
  const lines = [HEADER, "## Role State", p.role, "## Active tracks"];
  lines.push(...(p.tracks.length ? p.tracks : p.totalTracks ? [] : ["(none)"]));
  if (p.tracks.length < p.totalTracks) lines.push(`[TRUNCATED:tracks ${p.tracks.length}/${p.totalTracks}]`);
  lines.push("## Charter", p.charter, p.audit, p.dual);
  if (p.alerts.length || p.droppedAlerts) {
    lines.push("## Alerts", ...p.alerts);
    if (p.droppedAlerts) lines.push(`[TRUNCATED:alerts ${p.droppedAlerts} dropped]`);
  }
  return lines.join("\n");
}

function alertOnce(p: Parts, a: string): void {
  if (!p.alerts.includes(a)) p.alerts.push(a);
}

/** D25: shrink sections in priority order until the whole block fits the cap. */
function enforceCap(p: Parts, cap: number): string {
  const fits = () => render(p).length <= cap;
  while (!fits() && p.tracks.length > 0) {
    p.tracks = p.tracks.slice(0, p.tracks.length > 4 ? Math.floor(p.tracks.length / 2) : p.tracks.length - 1);
    alertOnce(p, "[BUDGET-ALERT] self-block tracks truncated");
  }
  while (!fits()) {
    const i = p.alerts.findLastIndex((a) => !a.startsWith("[BUDGET-ALERT] self-block"));
    if (i < 0) break;
    p.alerts.splice(i, 1);
    p.droppedAlerts++;
  }
  if (!fits()) {
    const over = render(p).length - cap;
    const keep = Math.max(0, p.charter.length - over - 12);
    p.charter = `${p.charter.slice(0, keep)}[TRUNCATED]`;
    alertOnce(p, "[BUDGET-ALERT] self-block charter truncated");
  }
  const text = render(p);
  if (text.length <= cap) return text;
  const marker = "\n[TRUNCATED:SELF_BLOCK_CAP]";
  return text.slice(0, Math.max(0, cap - marker.length)) + marker;
}

async function tracksOf(o: LiveOptions, alerts: string[]): Promise<string[]> {
  try {
    if (o.ledgerTracks) return await o.ledgerTracks();
    return trackLines(await o.bd(["list", "--status", "in_progress"]));
  } catch (e) {
    alerts.push(`[AUDIT-ALERT] tracks: collection failed ${errText(e)}`);
    return [];
  }
}

async function auditOf(o: LiveOptions, alerts: string[]): Promise<string> {
  try {
    const a = auditMemories(await o.bd(["prime", "--memories-only"]), undefined, o.budgetChars ?? DEFAULT_LIVE_BUDGET);
    alerts.push(...a.alerts);
    return a.line;
  } catch (e) {
    alerts.push(`[AUDIT-ALERT] bd-prime: collection failed ${errText(e)}`);
    return `[BD-PRIME-AUDIT] unavailable (${errText(e)})`;
  }
}

async function dualOf(o: LiveOptions, alerts: string[]): Promise<string> {
  if (!o.sessionId || !o.probe) return "[DUAL-INSTANCE] skipped (no session id)";
  try {
    const w = dualWarnings(await o.probe(), o.sessionId, o.selfPid ?? process.pid, o.parentPid);
    alerts.push(...w.map((x) => `[AUDIT-ALERT] ${x}`));
    return w.length ? `[DUAL-INSTANCE] ${w.join(", ")}` : "[DUAL-INSTANCE] none";
  } catch (e) {
    alerts.push(`[AUDIT-ALERT] dual-instance: detection failed ${errText(e)}`);
    return `[DUAL-INSTANCE] probe-failed (${errText(e)})`;
  }
}

export async function runLive(o: LiveOptions): Promise<string> {
  try {
    const rs = loadRoleState(o.handoffDir, o.roleStateFile);
    // The three external probes are independent: run them side by side (this is a hook on every session start).
    const ta: string[] = [];
    const aa: string[] = [];
    const da: string[] = [];
    const [tracks, audit, dual] = await Promise.all([tracksOf(o, ta), auditOf(o, aa), dualOf(o, da)]);
    const parts: Parts = {
      role: rs.block ?? "(role-state unavailable)",
      tracks,
      totalTracks: tracks.length,
      charter: resolveCharterPointer(o.charterPointer, o.envCharterPointer),
      audit,
      dual,
      alerts: [...rs.alerts, ...ta, ...aa, ...da],
      droppedAlerts: 0,
    };
    const compact = o.source === "compact";
    const cap = (o.cap ?? SELF_BLOCK_CAP) - (compact ? COMPACT_OVERHEAD : 0);
    const block = enforceCap(parts, Math.max(cap, HEADER.length));
    return compact ? suppressCompactRecall(block) : block;
  } catch (e) {
    return fallbackLine(e);
  }
}

export function fallbackLine(e: unknown, prefix = ""): string {
  const name = e instanceof Error ? e.name : "Error";
  return `[BOOTSTRAP-FALLBACK] ${prefix}${name}: ${errText(e)}`.replace(/\n/g, " ");
}
