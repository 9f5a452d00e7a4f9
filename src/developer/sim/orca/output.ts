/**
 * How the real CLI prints (docs/orca-cli.md §1): `--json` -> a 2-space pretty envelope on stdout, errors included
 * (exit 1); otherwise short text, errors on stderr followed by one `Next step:` line per `data.nextSteps`.
 */
import type { Io } from "../../../lib/context.ts";
import type { SimError } from "./errors.ts";
import { uuid } from "./ids.ts";

export interface Outcome {
  result: Record<string, unknown>;
  /** The human form, without the trailing newline. */
  text: string;
  /** Non-zero for success envelopes that still fail (`terminal wait` unsatisfied, `send` not accepted). */
  exit?: number;
  /** `status`/`open` build their envelope locally: `"local-status"`, runtime id or `"none"`. */
  envelopeId?: string;
  metaRuntimeId?: string;
}

export function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function printSuccess(io: Io, json: boolean, o: Outcome, runtimeId: string): number {
  if (json) {
    const env = { id: o.envelopeId ?? uuid(), ok: true, result: o.result, _meta: { runtimeId: o.metaRuntimeId ?? runtimeId } };
    io.stdout(pretty(env));
  } else if (o.text) {
    io.stdout(`${o.text}\n`);
  }
  return o.exit ?? ORCA_EXIT.OK;
}

/** The real Orca CLI's exit codes (what the simulator hands back through `mogui sim orca`). */
export const ORCA_EXIT = { OK: 0, ERROR: 1 } as const;

export function printError(io: Io, json: boolean, e: SimError, runtimeId: string | null): number {
  if (json) {
    const error: Record<string, unknown> = { code: e.code, message: e.message };
    if (e.data !== undefined) error.data = e.data;
    const env = { id: e.local ? "local" : uuid(), ok: false, error, _meta: { runtimeId: e.local ? null : runtimeId } };
    io.stdout(pretty(env));
    return ORCA_EXIT.ERROR;
  }
  // The real orca's stderr bytes (what the adapters parse), written as is.
  io.stderr(`${e.message}\n`);
  const steps = e.data?.nextSteps;
  if (Array.isArray(steps)) for (const s of steps) io.stderr(`Next step: ${String(s)}\n`);
  if (e.code === "runtime_unavailable") io.stderr("Orca is not running. Run 'orca open' first.\n");
  return ORCA_EXIT.ERROR;
}
