/** Arg fragments, exit rows and request building the `mogui fleet ...` commands share. */
import { resolve } from "node:path";
import type { ArgValues } from "../../../src/lib/args.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { progress } from "../../../src/lib/log.ts";
import { gateLedgerPath, LEDGER_ENV as GATE_ENV } from "../../../src/dispatch/gate/paths.ts";
import { reapSets } from "../../../src/workers/reap/worktree-safety.ts";
import { ledgerPath as jobsLedgerPath, LEDGER_ENV as JOBS_ENV } from "../../../src/workers/worker/jobs.ts";
import { PolicyError } from "../../../src/workers/worker/policy.ts";
import type { HostName } from "../../../src/fleet/fleet/panes.ts";
import { FleetRepoError, type ScanRequest } from "../../../src/fleet/fleet/scan.ts";
import { ARGS } from "../../../src/lib/args.ts";

export const FLEET_ARGS = {
  repo: { type: "string", valueHint: "path", multiple: true, required: true, description: "A repository whose worktrees to look at (repeatable)" },
  "jobs-ledger": { type: "string", valueHint: "path", description: `Jobs ledger (default $${JOBS_ENV}, else $MOGUI_HOME/jobs-ledger.jsonl)` },
  ledger: { type: "string", valueHint: "path", description: `Dispatch ledger: lifecycle rows in, fleet_reap rows out (default $${GATE_ENV}, else $MOGUI_HOME/dispatch-ledger.jsonl)` },
  host: { type: "string", valueHint: "orca|herdr|none", multiple: true, description: "Hosts whose live panes to ask for (repeatable; default orca and herdr)" },
  concurrency: { type: "int", min: 1, max: 64, default: 8, valueHint: "n", description: "Worktrees checked at once (git calls run concurrently up to this bound; default 8)" },
  "timeout-ms": { type: "int", min: 1, max: 3_600_000, default: 30_000, valueHint: "ms", description: "Timeout for each git, orca and herdr call (default 30000)" },
  "allow-ignored": { type: "boolean", description: "Lift the precious-ignored-files rule (D31) for this run" },
  policy: {
    type: "string",
    valueHint: "path",
    description: "Surface policy whose reap.precious_ignored replaces the default precious set, as for worker-reap (default $MOGUI_WORKER_POLICY, else $MOGUI_HOME/config/worker-surface-policy.json)",
  },
  json: { ...ARGS.json, description: "Print one compact JSON document (keys sorted)" },
} as const;

export type FleetArgs = ArgValues<typeof FLEET_ARGS>;

/** Rows every fleet command shares (a LedgerError anywhere maps to ledgerUnavailable once, in main). */
export const FLEET_EXITS = {
  ledgerUnavailable: {
    ...SHARED_EXITS.ledgerUnavailable,
    meaning: "a ledger unreadable, unwritable or corrupt (LEDGER_UNAVAILABLE, checked before anything is done); the surface policy unreadable or its reap.precious_ignored malformed",
  },
  notARepo: { code: 2, meaning: "usage (a bad flag or value); a --repo that is not a git repository" },
} as const;

function hosts(raw: readonly string[], cmd: string): HostName[] {
  if (raw.length === 0) return ["orca", "herdr"];
  const out = new Set<HostName>();
  for (const h of raw) {
    if (h === "none") continue;
    if (h !== "orca" && h !== "herdr") throw new UsageError(`--host must be orca, herdr or none (got '${h}')`, cmd);
    out.add(h);
  }
  return [...out];
}

type Fail = (name: "ledgerUnavailable" | "notARepo", message: string) => never;

/** The request from the parsed flags; the policy's precious set as worker-reap reads it (`--policy`). */
export function scanRequest(ctx: Ctx, args: FleetArgs, cmd: string, fail: Fail): ScanRequest {
  let sets: ReturnType<typeof reapSets>;
  try {
    sets = reapSets(ctx, args.policy);
  } catch (e) {
    if (e instanceof PolicyError) fail("ledgerUnavailable", `${cmd}: ${e.message}`);
    throw e;
  }
  return {
    repos: args.repo.map((r) => resolve(ctx.cwd, r)),
    jobsLedger: jobsLedgerPath(ctx, args["jobs-ledger"]),
    dispatchLedger: gateLedgerPath(ctx, args.ledger),
    hosts: hosts(args.host, cmd),
    concurrency: args.concurrency,
    timeoutMs: args["timeout-ms"],
    safety: { ...sets, allowIgnored: args["allow-ignored"] },
  };
}

/** A --repo that is not a repository is its own exit; everything else passes through (LedgerError: main maps it). */
export async function withRepoFault<T>(cmd: string, fail: Fail, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof FleetRepoError) fail("notARepo", `${cmd}: ${e.message}`);
    throw e;
  }
}

/** One updating progress line on a TTY while many worktrees are checked (nothing for a handful, nothing off a TTY). */
export function scanProgress(ctx: Ctx, label: string): { onProgress?: ScanRequest["onProgress"]; end(): void } {
  // Off a TTY only a listener (`mogui mcp`'s progress notifications) hears of it.
  if (!ctx.io.stderrIsTTY) return ctx.onProgress ? { onProgress: (done, n, path) => ctx.onProgress!(done, n, path), end() {} } : { end() {} };
  const p = progress(ctx, label);
  let total = 0;
  return {
    onProgress(done, n, path) {
      total = n;
      if (n >= 20) p.update(done, n, path);
    },
    end() {
      if (total >= 20) p.end(`${total} worktrees checked`);
    },
  };
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
