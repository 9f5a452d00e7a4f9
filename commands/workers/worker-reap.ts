import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath, type Ctx } from "../../src/lib/context.ts";
import { ExitError, UsageError } from "../../src/lib/errors.ts";
import { SHARED_EXITS } from "../../src/lib/exits.ts";
import { boundedWarnings, checkLedger, type LedgerWarning } from "../../src/lib/ledger.ts";
import { logger } from "../../src/lib/log.ts";
import { printJson, printLines } from "../../src/lib/output.ts";
import { resolve } from "node:path";
import { unreapedSettled } from "../../src/workers/reap/observability.ts";
import { REAP_EXITS, reap, ReapError, type ReapRequest } from "../../src/workers/reap/worker-reap.ts";
import { reapSets } from "../../src/workers/reap/worktree-safety.ts";
import { PolicyError } from "../../src/workers/worker/policy.ts";

const LEDGER_ENV = "DISPATCH_GATE_LEDGER";

function warn(ctx: Ctx) {
  return boundedWarnings((w: LedgerWarning) => logger(ctx, "worker-reap").warn(`${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}`));
}

// A LedgerError anywhere below maps to ledgerUnavailable once, in main (SHARED_ERRORS).
// Key order of the JSON documents follows the Python reference (printJson, not printDoc).
async function listUnreaped(ctx: Ctx, ledger: string, json: boolean): Promise<"ok"> {
  const sink = warn(ctx);
  let rows;
  try {
    rows = await unreapedSettled(ledger, { onWarning: sink.warn });
  } finally {
    sink.flush();
  }
  if (json) {
    printJson(ctx, { ledger, count: rows.length, unreaped: rows.map(({ reaped, reaped_at, ...r }) => r) }, true);
    return "ok";
  }
  if (rows.length === 0) {
    printLines(ctx, [`No settled dispatches awaiting reap in ${ledger}.`]);
    return "ok";
  }
  printLines(
    ctx,
    rows.map((r) => `${r.dispatch_id}\ttask=${r.task_id ?? "-"}\tstatus=${r.status}\t(settled, not yet reaped)`),
  );
  return "ok";
}

export default defineCommand({
  meta: {
    name: "worker-reap",
    description: [
      "Reap the resources of a settled dispatch: close its terminal, and remove its worktree only when it is",
      "clean AND its branch is in origin/main (squash merges included). Anything ambiguous is left, with the",
      "reason in actions_taken. An open dispatch is refused (exit 3).",
    ].join("\n"),
  },
  usage: ["worker-reap (--task-id <id> | --dispatch-id <id>) [--dry-run] [--ledger <path>] [--worktree <path>] [--json]", "worker-reap --unreaped [--ledger <path>] [--json]"],
  args: {
    "task-id": { type: "string", valueHint: "id", description: "The Orca task whose latest dispatch to reap" },
    "dispatch-id": { type: "string", valueHint: "id", description: "The dispatch (ctx_...) to reap; resolved to its task via task-list" },
    ledger: {
      type: "string",
      valueHint: "path",
      description: `Dispatch ledger for the reap row (default $${LEDGER_ENV}, else $MOGUI_HOME/dispatch-ledger.jsonl)`,
    },
    "dry-run": { type: "boolean", description: "Plan only: no terminal close, no worktree removal, no ledger row" },
    worktree: { type: "string", valueHint: "path", description: "Use this worktree instead of the one Orca reports" },
    "allow-ignored": { type: "boolean", description: "Remove a worktree even if it holds ignored files that are not provably regenerable (.env, keys, logs: D40); hidden index flags still leave it" },
    policy: {
      type: "string",
      valueHint: "path",
      description: "Surface policy whose reap.precious_ignored and reap.regenerable replace the default sets (default $MOGUI_WORKER_POLICY, else $MOGUI_HOME/config/worker-surface-policy.json)",
    },
    unreaped: { type: "boolean", description: "List dispatches the ledger shows settled but never reaped" },
    json: { ...ARGS.json, description: "Print one compact JSON document (default: indented JSON)" },
    "timeout-ms": { ...ARGS.timeoutMs, description: "Timeout for each orca and git call (default 30000)" },
  },
  mcp: { readOnly: false, destructive: true, idempotent: false, openWorld: false, confirmWith: { add: "dry-run" }, safeWhen: ["unreaped"], volatile: ["timestamp"] },
  exits: {
    ok: { code: 0, meaning: "reaped (or planned with --dry-run); --unreaped listed the ledger" },
    failed: REAP_EXITS.failed,
    ledgerUnavailable: {
      ...SHARED_EXITS.ledgerUnavailable,
      meaning: "usage: none or both of --task-id/--dispatch-id; ledger unreadable, unwritable, corrupt (a line before the last) or locked, checked before anything is closed; the surface policy unreadable or its reap.precious_ignored malformed",
    },
    notSettled: REAP_EXITS.notSettled,
    unparseable: REAP_EXITS.unparseable,
    orca: { code: "N", meaning: "orca's own non-zero exit code when an orca call itself fails (dispatch-show, task-list, terminal close)" },
  },
  rules: {
    exclusive: [
      ["task-id", "dispatch-id", "unreaped"],
      ["unreaped", "dry-run"],
      ["unreaped", "worktree"],
    ],
  },
  notes: [
    "The worktree path comes from Orca's terminal record, read before the terminal is closed. Removal runs\n" +
      "`git -C <owning repo> worktree remove <path>`; a dirty, untracked, unmerged, detached, locked or missing\n" +
      "worktree is left as `worktree_left:<path>:<reason>`.",
  ],
  examples: ["mogui worker-reap --task-id task_0123456789ab --dry-run", "mogui worker-reap --dispatch-id ctx_0123456789ab --json", "mogui worker-reap --unreaped", "mogui worker-reap --task-id task_0123456789ab --allow-ignored"],
  async run({ ctx, args, fail }) {
    const ledger = resolveStatePath(ctx, args.ledger, LEDGER_ENV, "dispatch-ledger.jsonl");
    if (args.unreaped) return listUnreaped(ctx, ledger, args.json);
    const taskId = args["task-id"];
    const dispatchId = args["dispatch-id"];
    if (!taskId && !dispatchId) throw new UsageError("one of --task-id, --dispatch-id is required", "worker-reap");
    const timeoutMs = args["timeout-ms"];
    let sets: ReturnType<typeof reapSets>;
    try {
      sets = reapSets(ctx, args.policy);
    } catch (e) {
      if (e instanceof PolicyError) return fail("ledgerUnavailable", `worker-reap: ${e.message}`);
      throw e;
    }
    const sink = warn(ctx);
    const req: ReapRequest = {
      taskId,
      dispatchId,
      worktree: args.worktree ? resolve(ctx.cwd, args.worktree) : undefined,
      execute: !args["dry-run"],
      ledgerPath: ledger,
      orcaTimeoutMs: timeoutMs,
      gitTimeoutMs: timeoutMs,
      precious: sets.precious,
      regenerable: sets.regenerable,
      allowIgnored: args["allow-ignored"],
      onLedgerWarning: sink.warn,
    };
    let outcome;
    try {
      // The appender contract: a bad ledger (unwritable, a corrupt line) stops the reap before anything is closed
      // or removed. A LedgerError maps to ledgerUnavailable once, in main (SHARED_ERRORS).
      if (req.execute) await checkLedger(ledger, { onWarning: sink.warn });
      outcome = await reap(ctx, req);
    } catch (e) {
      // The reaper's ReapError names this command's row (notSettled, unparseable, failed) or carries orca's own status.
      if (e instanceof ReapError) {
        if (e.orcaExit !== undefined) throw new ExitError(e.orcaExit, `worker-reap: ${e.message}`);
        return fail(e.kind, `worker-reap: ${e.message}`);
      }
      throw e;
    } finally {
      sink.flush();
    }
    printJson(ctx, { record: outcome.record, dry_run: !req.execute }, args.json);
    if (outcome.ledgerError) return fail("failed", `worker-reap: reaped, but the ledger row was not written: ${outcome.ledgerError}`);
    return "ok";
  },
});
