/**
 * Fault injection per command path, from ORCA_SIM_FAULT (`command=mode[:n][@N[+]]`, comma separated, forever) and
 * from the state's `faults` array (`times` counts down; the fault is removed at 0). `@N` fires on the Nth call of
 * the command only, `@N+` on the Nth and every later one (`at` / `from` in the state); those calls are counted in
 * the state's `calls`. The env wins, so a test can override a scenario without editing it. A typo in
 * ORCA_SIM_FAULT is an error, never a silent no-op.
 */
import type { Env } from "../../../lib/context.ts";
import type { Store } from "./store.ts";
import { FAULT_MODES, type Fault, type FaultMode, MODE_COMMANDS } from "./types.ts";

export class FaultSpecError extends Error {}

/** A fault that names a command its mode cannot apply to, as a message; undefined when it is fine. */
export function faultProblem(f: Pick<Fault, "command" | "mode" | "code">): string | undefined {
  const only = MODE_COMMANDS[f.mode];
  if (only && f.command !== only) return `mode '${f.mode}' applies only to '${only}', not '${f.command}'`;
  if (f.mode === "stale_handle" && f.code !== undefined && f.code < 1) return "stale_handle needs a count of at least 1";
  return undefined;
}

function parseTarget(item: string, target: string | undefined): Pick<Fault, "at" | "from"> {
  if (target === undefined) return {};
  const m = /^(\d+)(\+?)$/.exec(target);
  if (!m || Number(m[1]) < 1) throw new FaultSpecError(`ORCA_SIM_FAULT: bad call number in '${item}' (use @N or @N+, N >= 1)`);
  return m[2] ? { from: Number(m[1]) } : { at: Number(m[1]) };
}

function parseItem(item: string): Fault {
  const eq = item.indexOf("=");
  if (eq <= 0) throw new FaultSpecError(`ORCA_SIM_FAULT: '${item}' is not command=mode[:n][@N[+]]`);
  const command = item.slice(0, eq).trim().replace(/\s+/g, " ");
  const [body, target, more] = item
    .slice(eq + 1)
    .trim()
    .split("@");
  const [mode, code, extra] = body!.split(":");
  if (!(FAULT_MODES as readonly string[]).includes(mode!)) {
    throw new FaultSpecError(`ORCA_SIM_FAULT: unknown mode '${mode}' (known: ${FAULT_MODES.join(", ")})`);
  }
  if (extra !== undefined || more !== undefined || (code !== undefined && !/^\d+$/.test(code))) {
    throw new FaultSpecError(`ORCA_SIM_FAULT: bad number in '${item}'`);
  }
  const f: Fault = { command, mode: mode as FaultMode, ...(code !== undefined ? { code: Number(code) } : {}), ...parseTarget(item, target) };
  const problem = faultProblem(f);
  if (problem) throw new FaultSpecError(`ORCA_SIM_FAULT: ${problem}`);
  return f;
}

function parseEnvFaults(spec: string | undefined): Fault[] {
  if (!spec?.trim()) return [];
  return spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseItem);
}

const targeted = (f: Fault) => f.at !== undefined || f.from !== undefined;

function fires(f: Fault, n: number | undefined): boolean {
  if (f.at !== undefined) return n === f.at;
  if (f.from !== undefined) return n !== undefined && n >= f.from;
  return true;
}

/** The fault for this call: counts the call when a targeted fault names it, and consumes one `times`. */
export function takeFault(path: string, env: Env, store: Store | null): Fault | undefined {
  const fromEnv = parseEnvFaults(env.ORCA_SIM_FAULT).filter((f) => f.command === path);
  if (!store) return fromEnv.find((f) => !targeted(f));
  const mine = store.read().faults.filter((f) => f.command === path);
  const count = fromEnv.some(targeted) || mine.some(targeted);
  if (!count && (fromEnv[0] || mine.length === 0)) return fromEnv[0];
  return store.tx((s) => {
    let n: number | undefined;
    if (count) s.calls[path] = n = (s.calls[path] ?? 0) + 1;
    const e = fromEnv.find((f) => fires(f, n));
    if (e) return e;
    s.faults = s.faults.filter((f) => f.times === undefined || f.times > 0);
    const i = s.faults.findIndex((f) => f.command === path && fires(f, n));
    if (i < 0) return undefined;
    const f = s.faults[i]!;
    if (f.times !== undefined) {
      if (f.times <= 1) s.faults.splice(i, 1);
      else s.faults[i] = { ...f, times: f.times - 1 };
    }
    return { ...f };
  });
}
