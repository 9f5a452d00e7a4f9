/** Arg fragments and small helpers the `mogui worker ...` commands share. */
import { existsSync } from "node:fs";
import type { MoguiArgsDef, Parsed } from "../../lib/args.ts";
import { moguiHome, type Ctx } from "../../lib/context.ts";
import { ExitError, UsageError } from "../../lib/errors.ts";
import { HerdrError } from "../../lib/herdr/client.ts";
import { OrcaError } from "../../lib/orca/client.ts";
import { inboxRoot, LEDGER_ENV, ledgerPath } from "./jobs.ts";
import { loadPolicy, type Policy, PolicyError, POLICY_ENV, policyPath } from "./policy.ts";
import { isGrade, type Grade } from "./tiers.ts";

export const LEDGER_ARG: MoguiArgsDef = {
  ledger: { type: "string", valueHint: "path", description: `Jobs ledger (default $${LEDGER_ENV}, else $MOGUI_HOME/jobs-ledger.jsonl)` },
};
export const INBOX_ARG: MoguiArgsDef = {
  "inbox-root": { type: "string", valueHint: "dir", description: "Inbox root; a job's inbox is <root>/jobs/<job_id>/ (default $MOGUI_INBOX_ROOT, else $MOGUI_HOME/inbox)" },
};
export const POLICY_ARG: MoguiArgsDef = {
  policy: { type: "string", valueHint: "path", description: `Surface policy (default $${POLICY_ENV}, else $MOGUI_HOME/config/worker-surface-policy.json)` },
};
export const HOST_ARG: MoguiArgsDef = {
  host: { type: "enum", options: ["herdr", "orca"], valueHint: "herdr|orca", description: "Where the panes live (default $MOGUI_WORKER_HOST, else herdr)" },
};
export const JSON_ARG: MoguiArgsDef = { json: { type: "boolean", description: "Print one compact JSON document" } };
export const EXECUTE_ARG: MoguiArgsDef = { execute: { type: "boolean", description: "Act (close panes, remove worktrees); without it this is a dry run" } };

export function str(args: Parsed, name: string): string | undefined {
  const v = args[name];
  return typeof v === "string" ? v : undefined;
}

export function list(args: Parsed, name: string): string[] {
  const v = args[name];
  return Array.isArray(v) ? v : typeof v === "string" ? [v] : [];
}

export function paths(ctx: Ctx, args: Parsed) {
  return { ledger: ledgerPath(ctx, str(args, "ledger")), inboxRoot: inboxRoot(ctx, str(args, "inbox-root")), home: moguiHome(ctx) };
}

export function policyOf(ctx: Ctx, args: Parsed, cmd: string): Policy {
  try {
    return loadPolicy(ctx, str(args, "policy"));
  } catch (e) {
    if (e instanceof PolicyError) throw new ExitError(2, `worker ${cmd}: ${e.message}`);
    throw e;
  }
}

/**
 * For commands that only read the policy's families or title patterns and have built-in defaults: null when no
 * policy is named (no --policy, no $MOGUI_WORKER_POLICY) and the default file is absent. A named file that is
 * missing, or any file that is broken, is exit 2 as everywhere else: a typo must not silently mean "defaults".
 */
export function policyIfPresent(ctx: Ctx, args: Parsed, cmd: string): Policy | null {
  if (!str(args, "policy") && !ctx.env[POLICY_ENV] && !existsSync(policyPath(ctx))) return null;
  return policyOf(ctx, args, cmd);
}

export function grade(args: Parsed, name: string, cmd: string): Grade | undefined {
  const v = str(args, name);
  if (v === undefined) return undefined;
  if (!isGrade(v)) throw new UsageError(`--${name} must be one of S+, S, A+, A, B, C (got '${v}')`, `worker ${cmd}`);
  return v;
}

export function intArg(args: Parsed, name: string, cmd: string, min = 0): number | undefined {
  const v = str(args, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`--${name} must be a whole number >= ${min} (got '${v}')`, `worker ${cmd}`);
  return Number(v);
}

export function isHostError(e: unknown): e is HerdrError | OrcaError {
  return e instanceof HerdrError || e instanceof OrcaError;
}

/** Host failures (missing executable, timeout, an error reply) are exit 1 with one line naming the host. */
export async function hostCall<T>(cmd: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isHostError(e)) throw new ExitError(1, `worker ${cmd}: ${e.message}`);
    throw e;
  }
}
