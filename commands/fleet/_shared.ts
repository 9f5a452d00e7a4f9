/** What `mogui top` builds from its flags: the request, the price table and tier policy, and errors as one line. */
import { resolve } from "node:path";
import type { Ctx } from "../../src/lib/context.ts";
import { errorMessage, UsageError } from "../../src/lib/errors.ts";
import { LedgerError } from "../../src/lib/ledger.ts";
import { gateLedgerPath } from "../../src/dispatch/gate/paths.ts";
import { loadTierPolicy, type TierPolicy } from "../../src/lib/config/tier-policy.ts";
import { reapSets } from "../../src/workers/reap/worktree-safety.ts";
import { ledgerPath as jobsLedgerPath } from "../../src/workers/worker/jobs.ts";
import { PolicyError } from "../../src/workers/worker/policy.ts";
import type { HostName } from "../../src/fleet/fleet/panes.ts";
import { loadPrices, PriceTableError } from "../../src/fleet/spend/report.ts";
import { pricesPath, spendLedgerPath } from "../../src/dispatch/gate/spend-paths.ts";
import type { TopRequest } from "../../src/fleet/top/collect.ts";

export interface TopFlags {
  repo: string[];
  "jobs-ledger"?: string;
  ledger?: string;
  "spend-ledger"?: string;
  prices?: string;
  policy?: string;
  host: string[];
  "timeout-ms": number;
  concurrency: number;
  remote: string;
}

function hosts(raw: readonly string[]): HostName[] {
  if (raw.length === 0) return ["orca", "herdr"];
  const out = new Set<HostName>();
  for (const h of raw) {
    if (h === "none") continue;
    if (h !== "orca" && h !== "herdr") throw new UsageError(`--host must be orca, herdr or none (got '${h}')`, "top");
    out.add(h);
  }
  return [...out];
}

/** The tier policy for the header; a policy that does not load leaves the header without tiers (and says so). */
function policyOf(ctx: Ctx, warnings: string[]): TierPolicy | null {
  try {
    return loadTierPolicy(ctx);
  } catch (e) {
    warnings.push(`tier policy not loaded: ${errorMessage(e)}`);
    return null;
  }
}

export function topRequest(ctx: Ctx, f: TopFlags, warnings: string[]): TopRequest {
  if (f.remote.startsWith("-")) throw new UsageError(`--remote must be a remote name, not an option (got '${f.remote}')`, "top");
  let prices: ReturnType<typeof loadPrices>;
  try {
    prices = loadPrices(pricesPath(ctx, f.prices));
  } catch (e) {
    if (e instanceof PriceTableError) throw new UsageError(e.message.replace(/^spend: /, ""), "top");
    throw e;
  }
  let sets: ReturnType<typeof reapSets>;
  try {
    sets = reapSets(ctx, f.policy);
  } catch (e) {
    if (e instanceof PolicyError) throw new UsageError(e.message, "top");
    throw e;
  }
  return {
    repos: f.repo.map((r) => resolve(ctx.cwd, r)),
    jobsLedger: jobsLedgerPath(ctx, f["jobs-ledger"]),
    dispatchLedger: gateLedgerPath(ctx, f.ledger),
    spendLedger: spendLedgerPath(ctx, f["spend-ledger"]),
    prices,
    policy: policyOf(ctx, warnings),
    safety: { ...sets, allowIgnored: false }, // exactly fleet reap's sets (D43)
    hosts: hosts(f.host),
    timeoutMs: f["timeout-ms"],
    concurrency: f.concurrency,
    remote: f.remote,
    remoteTtlMs: 30_000,
  };
}

/** An error met while the screen is up, as one line. */
export function describe(e: unknown): string {
  if (e instanceof LedgerError) return `LEDGER_UNAVAILABLE: ${e.message}`;
  return errorMessage(e).split("\n")[0]!;
}
