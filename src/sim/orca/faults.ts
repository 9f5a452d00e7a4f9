/**
 * Fault injection per command path, from ORCA_SIM_FAULT (`command=mode[:code]`, comma separated, forever) and
 * from the state's `faults` array (`times` counts down; the fault is removed at 0). The env wins, so a test can
 * override a scenario without editing it. A typo in ORCA_SIM_FAULT is an error, never a silent no-op.
 */
import type { Env } from "../../lib/context.ts";
import type { Store } from "./store.ts";
import { FAULT_MODES, type Fault, type FaultMode } from "./types.ts";

export class FaultSpecError extends Error {}

export function parseEnvFaults(spec: string | undefined): Fault[] {
  if (!spec?.trim()) return [];
  return spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const eq = item.indexOf("=");
      if (eq <= 0) throw new FaultSpecError(`ORCA_SIM_FAULT: '${item}' is not command=mode[:code]`);
      const command = item.slice(0, eq).trim().replace(/\s+/g, " ");
      const [mode, code, extra] = item.slice(eq + 1).trim().split(":");
      if (!(FAULT_MODES as readonly string[]).includes(mode!)) {
        throw new FaultSpecError(`ORCA_SIM_FAULT: unknown mode '${mode}' (known: ${FAULT_MODES.join(", ")})`);
      }
      if (extra !== undefined || (code !== undefined && !/^\d+$/.test(code))) {
        throw new FaultSpecError(`ORCA_SIM_FAULT: bad exit code in '${item}'`);
      }
      return { command, mode: mode as FaultMode, ...(code !== undefined ? { code: Number(code) } : {}) };
    });
}

/** The fault for this call, consuming one `times` from a state fault. */
export function takeFault(path: string, env: Env, store: Store | null): Fault | undefined {
  const fromEnv = parseEnvFaults(env.ORCA_SIM_FAULT).find((f) => f.command === path);
  if (fromEnv || !store) return fromEnv;
  if (!store.read().faults.some((f) => f.command === path)) return undefined;
  return store.tx((s) => {
    const i = s.faults.findIndex((f) => f.command === path);
    if (i < 0) return undefined;
    const f = s.faults[i]!;
    if (f.times !== undefined && f.times <= 0) {
      s.faults.splice(i, 1);
      return undefined;
    }
    if (f.times !== undefined) {
      const left = f.times - 1;
      if (left <= 0) s.faults.splice(i, 1);
      else s.faults[i] = { ...f, times: left };
    }
    return { ...f };
  });
}
