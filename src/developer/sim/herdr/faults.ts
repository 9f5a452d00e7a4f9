/**
 * Fault injection per command path: HERDR_SIM_FAULT (`command=mode[:arg]`, comma separated, forever) and the
 * state's `faults` array (`times` counts down, removed at 0). The env wins. A typo is an error, never a no-op.
 *   exit[:code]   stderr `herdr: injected failure`, exit code (default 1)
 *   malformed     exit 0, a truncated JSON line on stdout
 *   error[:code]  a server error envelope on stderr, exit 1 (code default `internal_error`)
 *   hang          sleep HERDR_SIM_HANG_MS (default an hour); the caller's timeout must kill it
 *   swallow       input commands (send-text, send-keys, run) answer OK but nothing reaches the pane
 */
import type { Env } from "../../../lib/context.ts";
import type { Store } from "./store.ts";
import { FAULT_MODES, type FaultMode, type HFault } from "./types.ts";

export class FaultSpecError extends Error {}

function parseEnvFaults(spec: string | undefined): HFault[] {
  if (!spec?.trim()) return [];
  return spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const eq = item.indexOf("=");
      if (eq <= 0) throw new FaultSpecError(`HERDR_SIM_FAULT: '${item}' is not command=mode[:arg]`);
      const command = item.slice(0, eq).trim().replace(/\s+/g, " ");
      const [mode, arg, extra] = item
        .slice(eq + 1)
        .trim()
        .split(":");
      if (!(FAULT_MODES as readonly string[]).includes(mode!)) throw new FaultSpecError(`HERDR_SIM_FAULT: unknown mode '${mode}' (known: ${FAULT_MODES.join(", ")})`);
      if (extra !== undefined) throw new FaultSpecError(`HERDR_SIM_FAULT: '${item}' has more than one ':arg'`);
      if (mode === "exit" && arg !== undefined && !/^\d+$/.test(arg)) throw new FaultSpecError(`HERDR_SIM_FAULT: bad exit code in '${item}'`);
      return { command, mode: mode as FaultMode, ...(arg !== undefined ? { arg } : {}) };
    });
}

export function takeFault(path: string, env: Env, store: Store | null): HFault | undefined {
  const fromEnv = parseEnvFaults(env.HERDR_SIM_FAULT).find((f) => f.command === path);
  if (fromEnv || !store) return fromEnv;
  if (!store.read().faults.some((f) => f.command === path)) return undefined;
  return store.tx((s) => {
    const i = s.faults.findIndex((f) => f.command === path);
    if (i < 0) return undefined;
    const f = s.faults[i]!;
    if (f.times !== undefined) {
      if (f.times <= 1) s.faults.splice(i, 1);
      else s.faults[i] = { ...f, times: f.times - 1 };
      if (f.times <= 0) return undefined;
    }
    return { ...f };
  });
}
