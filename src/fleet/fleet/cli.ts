/** Arg fragments and request building the `mogui fleet ...` commands share. */
import { resolve } from "node:path";
import type { MoguiArgsDef, Parsed } from "../../lib/args.ts";
import type { Ctx } from "../../lib/context.ts";
import { ExitError, UsageError } from "../../lib/errors.ts";
import { LedgerError } from "../../lib/ledger.ts";
import { gateLedgerPath, LEDGER_ENV as GATE_ENV } from "../../dispatch/gate/paths.ts";
import { ledgerPath as jobsLedgerPath, LEDGER_ENV as JOBS_ENV } from "../../workers/worker/jobs.ts";
import type { HostName } from "./panes.ts";
import { FleetRepoError, type ScanRequest } from "./scan.ts";

export const FLEET_ARGS: MoguiArgsDef = {
  repo: { type: "string", valueHint: "path", multiple: true, required: true, description: "A repository whose worktrees to look at (repeatable)" },
  "jobs-ledger": { type: "string", valueHint: "path", description: `Jobs ledger (default $${JOBS_ENV}, else $MOGUI_HOME/jobs-ledger.jsonl)` },
  ledger: { type: "string", valueHint: "path", description: `Dispatch ledger: lifecycle rows in, fleet_reap rows out (default $${GATE_ENV}, else $MOGUI_HOME/dispatch-ledger.jsonl)` },
  host: { type: "string", valueHint: "orca|herdr|none", multiple: true, description: "Hosts whose live panes to ask for (repeatable; default orca and herdr)" },
  concurrency: { type: "string", valueHint: "n", default: "8", description: "Worktrees checked at once (git calls run concurrently up to this bound)" },
  "timeout-ms": { type: "string", valueHint: "ms", default: "30000", description: "Timeout for each git, orca and herdr call" },
  "allow-ignored": { type: "boolean", description: "Lift the precious-ignored-files rule (D31) for this run" },
  json: { type: "boolean", description: "Print one compact JSON document" },
};

const DEFAULTS: Record<string, string> = { concurrency: "8", "timeout-ms": "30000", "grace-ms": "3000" };

function intFlag(args: Parsed, name: string, min: number, max: number, cmd: string): number {
  const raw = typeof args[name] === "string" ? (args[name] as string) : (DEFAULTS[name] ?? "");
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got '${raw}')`, cmd);
  return n;
}

export function intArg(args: Parsed, name: string, min: number, max: number, cmd: string): number {
  return intFlag(args, name, min, max, cmd);
}

function hosts(args: Parsed, cmd: string): HostName[] {
  const raw = Array.isArray(args.host) ? args.host : typeof args.host === "string" ? [args.host] : [];
  if (raw.length === 0) return ["orca", "herdr"];
  const out = new Set<HostName>();
  for (const h of raw) {
    if (h === "none") continue;
    if (h !== "orca" && h !== "herdr") throw new UsageError(`--host must be orca, herdr or none (got '${h}')`, cmd);
    out.add(h);
  }
  return [...out];
}

export function scanRequest(ctx: Ctx, args: Parsed, cmd: string): ScanRequest {
  const repos = (Array.isArray(args.repo) ? args.repo : [String(args.repo)]).map((r) => resolve(ctx.cwd, r));
  return {
    repos,
    jobsLedger: jobsLedgerPath(ctx, typeof args["jobs-ledger"] === "string" ? args["jobs-ledger"] : undefined),
    dispatchLedger: gateLedgerPath(ctx, typeof args.ledger === "string" ? args.ledger : undefined),
    hosts: hosts(args, cmd),
    concurrency: intFlag(args, "concurrency", 1, 64, cmd),
    timeoutMs: intFlag(args, "timeout-ms", 1, 3_600_000, cmd),
    safety: args["allow-ignored"] ? { allowIgnored: true } : {},
  };
}

export async function withFleetFaults<T>(cmd: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof LedgerError) throw new ExitError(2, `${cmd}: LEDGER_UNAVAILABLE: ${e.message}`);
    if (e instanceof FleetRepoError) throw new ExitError(2, `${cmd}: ${e.message}`);
    throw e;
  }
}

export function human(bytes: number | null): string {
  if (bytes === null) return "-";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)}${units[i]}`;
}
