/** Arg fragments, exit rows and small helpers the `mogui worker ...` commands share. */
import { existsSync } from "node:fs";
import { ARGS } from "../../../src/lib/args.ts";
import { moguiHome, type Ctx } from "../../../src/lib/context.ts";
import { COMMON_EXITS, NamedExit } from "../../../src/lib/exits.ts";
import { HerdrError } from "../../../src/lib/herdr/client.ts";
import { OrcaError } from "../../../src/lib/orca/client.ts";
import { inboxRoot, JobsLedgerError, LEDGER_ENV, ledgerPath } from "../../../src/workers/worker/jobs.ts";
import { DEFAULT_INTERVAL_MS, DEFAULT_READINGS } from "../../../src/workers/worker/stability.ts";
import { loadPolicy, type Policy, PolicyError, POLICY_ENV, policyPath } from "../../../src/workers/worker/policy.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";

/** Grades in the order the help and the usage errors name them (best first). */
export const GRADE_OPTIONS = ["S+", "S", "A+", "A", "B", "C"] as const;
export const TIER_OPTIONS = ["T0", "T1", "T2", "T3"] as const;

/** The `worker` commands' shared flags (spread one by one: `ledger: WORKER_ARGS.ledger`). */
export const WORKER_ARGS = {
  ledger: { ...ARGS.ledger, description: `Jobs ledger (default $${LEDGER_ENV}, else $MOGUI_HOME/jobs-ledger.jsonl)` },
  "inbox-root": { type: "string", valueHint: "dir", description: "Inbox root; a job's inbox is <root>/jobs/<job_id>/ (default $MOGUI_INBOX_ROOT, else $MOGUI_HOME/inbox)" },
  policy: { type: "string", valueHint: "path", description: `Surface policy (default $${POLICY_ENV}, else $MOGUI_HOME/config/worker-surface-policy.json)` },
  host: { type: "enum", options: ["herdr", "orca"], valueHint: "herdr|orca", description: "Where the panes live (default $MOGUI_WORKER_HOST, else herdr)" },
  json: { ...ARGS.json, description: "Print one compact JSON document" },
  execute: { type: "boolean", description: "Act (close panes, remove worktrees); without it this is a dry run" },
  readings: { type: "int", min: 1, max: 1000, default: DEFAULT_READINGS, valueHint: "n", description: "Status readings that must all be not-working" },
  "interval-ms": { type: "int", min: 0, max: 3_600_000, default: DEFAULT_INTERVAL_MS, valueHint: "ms", description: "Time between readings" },
} as const;

/** A usage-class failure raised below a command (the policy unreadable): exit 2, one line, no help line. */
function workerUsage(message: string): NamedExit {
  return new NamedExit("usage", COMMON_EXITS.usage.code, message);
}

export function paths(ctx: Ctx, flags: { ledger?: string; inboxRoot?: string }) {
  return { ledger: ledgerPath(ctx, flags.ledger), inboxRoot: inboxRoot(ctx, flags.inboxRoot), home: moguiHome(ctx) };
}

export function policyOf(ctx: Ctx, flag: string | undefined, cmd: string): Policy {
  try {
    return loadPolicy(ctx, flag);
  } catch (e) {
    if (e instanceof PolicyError) throw workerUsage(`worker ${cmd}: ${e.message}`);
    throw e;
  }
}

/**
 * For commands that only read the policy's families or title patterns and have built-in defaults: null when no
 * policy is named (no --policy, no $MOGUI_WORKER_POLICY) and the default file is absent. A named file that is
 * missing, or any file that is broken, is exit 2 as everywhere else: a typo must not silently mean "defaults".
 */
export function policyIfPresent(ctx: Ctx, flag: string | undefined, cmd: string): Policy | null {
  if (!flag && !ctx.env[POLICY_ENV] && !existsSync(policyPath(ctx))) return null;
  return policyOf(ctx, flag, cmd);
}

export function isHostError(e: unknown): e is HerdrError | OrcaError {
  return e instanceof HerdrError || e instanceof OrcaError;
}

/** Host failures (missing executable, timeout, an error reply) are exit 1 with one line naming the host. */
export async function hostCall<T>(cmd: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isHostError(e)) throw new NamedExit("hostFailed", WORKER_EXITS.hostFailed.code, `worker ${cmd}: ${e.message}`);
    throw e;
  }
}

/**
 * A `worker` command's run whose jobs-ledger failures (JobsLedgerError: unreadable, corrupt, locked, no such job)
 * are its `ledgerUnavailable` row, the error's line as it is: `run: jobsRun(async ({ ctx, args, fail }) => ...)`.
 */
export function jobsRun<R extends { fail: (name: "ledgerUnavailable", message: string) => never }, const T>(run: (rc: R) => Promise<T>): (rc: R) => Promise<T> {
  return async (rc) => {
    try {
      return await run(rc);
    } catch (e) {
      if (e instanceof JobsLedgerError) return rc.fail(e.kind, e.message);
      throw e;
    }
  };
}
