/**
 * §5.3 handoff markdown. D24: exactly one blank line between sections, one `- none` for an empty list, and the
 * text parses back through the bootstrap Role State parser (the role is checked here so it always does).
 */
import { VALID_ROLES } from "../bootstrap/role-state.ts";
import { SuccessionError } from "./errors.ts";

const DEFAULT_ROLE = "Reference Implementation";

export interface FrozenState {
  current_role: string;
  lock_enabled: true;
  frozen: "all other roles";
  unlock: "explicit user instruction only";
}

type Spec = Record<string, unknown>;

export function freezeRoles(roleState: unknown): FrozenState {
  const rs = (roleState && typeof roleState === "object" ? roleState : {}) as Spec;
  const role = rs.role ?? rs.current_role;
  if (typeof role !== "string" || role.trim() === "") throw new SuccessionError("role_state missing current role");
  return { current_role: role.trim(), lock_enabled: true, frozen: "all other roles", unlock: "explicit user instruction only" };
}

function oneLine(label: string, v: string): string {
  if (/[\r\n]/.test(v)) throw new SuccessionError(`${label} must be one line`);
  return v;
}

function items(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === "string") return v.trim() ? [v] : [];
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined && String(x).trim() !== "").map(String);
  return [String(v)];
}

function list(...vs: unknown[]): string {
  const all = vs.flatMap(items);
  return all.length ? all.map((x) => `- ${x}`).join("\n") : "- none";
}

function text(v: unknown): string {
  if (v === undefined || v === null) return "(none)";
  const s = String(v).trim();
  return s === "" ? "(none)" : s;
}

export function buildHandoff(spec: Spec): string {
  const frozen = spec.role_state !== undefined && spec.role_state !== null ? freezeRoles(spec.role_state) : freezeRoles({ role: spec.current_role ?? DEFAULT_ROLE });
  const role = oneLine("current role", frozen.current_role);
  if (!(VALID_ROLES as readonly string[]).includes(role)) {
    throw new SuccessionError(`Unknown role: ${role} (valid: ${VALID_ROLES.join(", ")})`);
  }
  const next = spec.recommended_next_role === undefined || spec.recommended_next_role === null || String(spec.recommended_next_role).trim() === "" ? role : String(spec.recommended_next_role).trim();
  const sections: [string, string][] = [
    ["Role State", ["```", `Current Role: ${role}`, "Role Lock: ENABLED", `Frozen: ${frozen.frozen}`, `Unlock: ${frozen.unlock}`, "```"].join("\n")],
    ["Current Objective", text(spec.current_objective)],
    ["Active/Open Tracks", list(spec.active_tracks, spec.open_tracks)],
    ["Accepted Artifacts", list(spec.accepted_artifacts)],
    ["Deferred Work", list(spec.deferred_work)],
    ["Open Questions", list(spec.open_questions)],
    ["Recommended Next Role", next],
    ["Observed Baseline", text(spec.observed_baseline)],
  ];
  return `${sections.map(([h, body]) => `## ${h}\n\n${body}`).join("\n\n")}\n`;
}
