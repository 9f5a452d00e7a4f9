/**
 * Role State (§6): the fixed four-field block of a handoff or role-state.md. Located under a `## Role State`
 * heading as the first fenced block holding `Current Role:`, else an unfenced `Current Role:` .. `Unlock:` run.
 */
export const VALID_ROLES = ["Architecture", "Research", "Reference Implementation", "Feature Implementation", "Release / Operations", "Incident Response", "Maintenance"] as const;

export interface RoleState {
  role: string;
  lock_enabled: boolean;
  frozen: string;
  unlock: string;
}

export class RoleStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BootstrapError";
  }
}

const HEADING = /^#{2,}\s*Role State\b/im;
const FENCE = /^\s*(```|~~~)/;

function fencedBlockWithRole(lines: string[]): string | undefined {
  let open = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    if (open < 0) {
      open = i;
      continue;
    }
    const body = lines.slice(open + 1, i);
    if (body.some((l) => /^\s*Current Role:/i.test(l))) return body.join("\n");
    open = -1;
  }
  return undefined;
}

function unfencedRun(lines: string[]): string | undefined {
  const start = lines.findIndex((l) => /^\s*Current Role:/i.test(l));
  if (start < 0) return undefined;
  const run: string[] = [];
  for (let i = start; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === "" || FENCE.test(l)) break;
    run.push(l);
    if (/^\s*Unlock:/i.test(l)) break;
  }
  return run.some((l) => /^\s*Unlock:/i.test(l)) ? run.join("\n") : undefined;
}

/** The raw block text (not validated), or undefined when the text holds none. */
export function roleStateBlock(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const h = HEADING.exec(text);
  if (h) {
    const from = text.slice(0, h.index).split(/\r?\n/).length - 1;
    const fenced = fencedBlockWithRole(lines.slice(from));
    if (fenced !== undefined) return fenced;
    const run = unfencedRun(lines.slice(from));
    if (run !== undefined) return run;
  }
  return fencedBlockWithRole(lines) ?? unfencedRun(lines);
}

/** Validate a block: the four required fields, one of the seven roles, a lock of ENABLED or DISABLED. */
function parseRoleState(block: string): RoleState {
  const fields = new Map<string, string>();
  for (const line of block.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const key = line.slice(0, i).trim().toLowerCase();
    if (!fields.has(key)) fields.set(key, line.slice(i + 1).trim());
  }
  const missing = ["current role", "role lock", "frozen", "unlock"].filter((k) => !fields.has(k));
  if (missing.length) throw new RoleStateError(`Role State missing fields: ${missing.join(", ")}`);
  const role = fields.get("current role")!;
  if (!(VALID_ROLES as readonly string[]).includes(role)) throw new RoleStateError(`Unknown role: ${role}`);
  const lock = fields.get("role lock")!.toUpperCase();
  if (lock !== "ENABLED" && lock !== "DISABLED") throw new RoleStateError(`Unknown role lock: ${fields.get("role lock")}`);
  return { role, lock_enabled: lock === "ENABLED", frozen: fields.get("frozen")!, unlock: fields.get("unlock")! };
}

/** Find and validate; undefined when there is no block at all. */
export function extractRoleState(text: string): RoleState | undefined {
  const block = roleStateBlock(text);
  return block === undefined ? undefined : parseRoleState(block);
}
