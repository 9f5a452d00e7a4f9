/**
 * §6 boot measurement: the charter (L0, required) and the optional handoff (L1) fitted into one character budget,
 * L0 first; Role State parsed from the handoff; dual-instance warnings when a session id is given.
 */
import { readFileSync } from "node:fs";
import { dualWarnings, type ProcessProbe } from "./dual.ts";
import { extractRoleState, RoleStateError, type RoleState } from "./role-state.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export const DEFAULT_BUDGET_CHARS = 24_000;
export const L0_MARKER = "\n[TRUNCATED:BOOTSTRAP_BUDGET_EXCEEDED]";
export const L1_MARKER = "\n[TRUNCATED:L1_BUDGET_EXCEEDED]";

export class BootstrapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BootstrapError";
  }
}

export interface BootstrapConfig {
  charter: string;
  handoff?: string;
  budget?: number;
  sessionId?: string;
  strictLease?: boolean;
  selfPid?: number;
  parentPid?: number;
}

export interface BootstrapResult {
  l0_text: string;
  l1_text: string;
  role_state: RoleState | null;
  budget_used: number;
  warnings: string[];
}

/** Budgets count characters (code points), like the reference. */
export function fit(text: string, budget: number, marker: string): { text: string; truncated: boolean } {
  const cps = [...text];
  if (cps.length <= budget) return { text, truncated: false };
  if (budget <= 0) return { text: "", truncated: true };
  const m = [...marker];
  if (m.length >= budget) return { text: m.slice(m.length - budget).join(""), truncated: true };
  return { text: cps.slice(0, budget - m.length).join("") + marker, truncated: true };
}

const chars = (s: string) => [...s].length;

function readIf(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return undefined;
    throw new BootstrapError(`cannot read ${path}: ${errorMessage(e)}`);
  }
}

export async function bootstrap(cfg: BootstrapConfig, probe?: ProcessProbe): Promise<BootstrapResult> {
  const budget = cfg.budget ?? DEFAULT_BUDGET_CHARS;
  if (!Number.isInteger(budget) || budget < 0) throw new BootstrapError("Budget must be non-negative");
  const charter = readIf(cfg.charter);
  if (charter === undefined) throw new BootstrapError(`Charter missing: ${cfg.charter}`);
  const warnings: string[] = [];
  let handoff = "";
  let role: RoleState | null = null;
  if (cfg.handoff !== undefined) {
    const h = readIf(cfg.handoff);
    if (h === undefined) warnings.push("HANDOFF_MISSING");
    else {
      handoff = h;
      try {
        role = extractRoleState(h) ?? null;
      } catch (e) {
        if (e instanceof RoleStateError) throw new BootstrapError(e.message);
        throw e;
      }
      if (!role) warnings.push("ROLE_STATE_MISSING");
    }
  }
  const l0 = fit(charter, budget, L0_MARKER);
  if (l0.truncated) warnings.push("BUDGET_TRUNCATED:L0");
  const remaining = budget - chars(l0.text);
  let l1 = "";
  if (handoff !== "" && remaining > 0) {
    const f = fit(handoff, remaining, L1_MARKER);
    if (f.truncated) warnings.push("BUDGET_TRUNCATED:L1");
    l1 = f.text;
  }
  if (cfg.sessionId && probe) {
    try {
      warnings.push(...dualWarnings(await probe(), cfg.sessionId, cfg.selfPid ?? process.pid, cfg.parentPid));
    } catch (e) {
      warnings.push(`PROCESS_PROBE_FAILED:${(e as Error).name}`);
    }
  }
  const dual = warnings.find((w) => w.startsWith("DUAL_INSTANCE:"));
  if (cfg.strictLease && dual) throw new BootstrapError(dual);
  return { l0_text: l0.text, l1_text: l1, role_state: role, budget_used: chars(l0.text) + chars(l1), warnings };
}
