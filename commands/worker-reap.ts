import { defineMoguiCommand } from "../src/lib/command.ts";
import { resolveStatePath, type Ctx } from "../src/lib/context.ts";
import { ExitError, UsageError } from "../src/lib/errors.ts";
import { WORKER_REAP_EXIT } from "../src/lib/exit-codes.ts";
import { boundedWarnings, checkLedger, LedgerError, type LedgerWarning } from "../src/lib/ledger.ts";
import { printJson, printLines } from "../src/lib/output.ts";
import { resolve } from "node:path";
import { unreapedSettled } from "../src/reap/observability.ts";
import { reap, type ReapRequest } from "../src/reap/worker-reap.ts";
import { DEFAULT_PRECIOUS_IGNORED } from "../src/reap/worktree-safety.ts";
import { loadPreciousIgnored, PolicyError } from "../src/worker/policy.ts";

const LEDGER_ENV = "DISPATCH_GATE_LEDGER";

function warn(ctx: Ctx) {
  return boundedWarnings((w: LedgerWarning) => ctx.io.stderr(`worker-reap: warning: ${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}\n`));
}

function preciousSet(ctx: Ctx, flag: string | undefined): readonly string[] {
  try {
    return loadPreciousIgnored(ctx, flag).patterns ?? DEFAULT_PRECIOUS_IGNORED;
  } catch (e) {
    if (e instanceof PolicyError) throw new ExitError(WORKER_REAP_EXIT.USAGE, `worker-reap: ${e.message}`);
    throw e;
  }
}

function ledgerFail(e: LedgerError): ExitError {
  return new ExitError(WORKER_REAP_EXIT.USAGE, `worker-reap: LEDGER_UNAVAILABLE: ${e.message}`);
}

function parseTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 3_600_000) throw new UsageError(`--timeout-ms must be a whole number from 1 to 3600000 (got '${raw}')`, "worker-reap");
  return n;
}

async function listUnreaped(ctx: Ctx, ledger: string, json: boolean): Promise<number> {
  let rows;
  const sink = warn(ctx);
  try {
    rows = await unreapedSettled(ledger, { onWarning: sink.warn });
  } catch (e) {
    if (e instanceof LedgerError) throw ledgerFail(e);
    throw e;
  } finally {
    sink.flush();
  }
  if (json) {
    printJson(ctx, { ledger, count: rows.length, unreaped: rows.map(({ reaped, reaped_at, ...r }) => r) }, true);
    return 0;
  }
  if (rows.length === 0) {
    printLines(ctx, [`No settled dispatches awaiting reap in ${ledger}.`]);
    return 0;
  }
  printLines(
    ctx,
    rows.map((r) => `${r.dispatch_id}\ttask=${r.task_id ?? "-"}\tstatus=${r.status}\t(settled, not yet reaped)`),
  );
  return 0;
}

export default defineMoguiCommand({
  meta: {
    name: "worker-reap",
    description: [
      "Reap the resources of a settled dispatch: close its terminal, and remove its worktree only when it is",
      "clean AND its branch is in origin/main (squash merges included). Anything ambiguous is left, with the",
      "reason in actions_taken. An open dispatch is refused (exit 3). Edits hidden by the skip-worktree or",
      "assume-unchanged index bits, and ignored files of the precious set (.env, keys, credentials), also leave it.",
    ].join("\n"),
  },
  usage: [
    "worker-reap (--task-id <id> | --dispatch-id <id>) [--dry-run] [--ledger <path>] [--worktree <path>] [--allow-ignored] [--policy <path>] [--json]",
    "worker-reap --unreaped [--ledger <path>] [--json]",
  ],
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
    "allow-ignored": { type: "boolean", description: "Remove a worktree even if it holds precious ignored files (.env, keys); hidden index flags still leave it" },
    policy: {
      type: "string",
      valueHint: "path",
      description: "Surface policy whose reap.precious_ignored replaces the default precious set (default $MOGUI_WORKER_POLICY, else $MOGUI_HOME/config/worker-surface-policy.json)",
    },
    unreaped: { type: "boolean", description: "List dispatches the ledger shows settled but never reaped" },
    json: { type: "boolean", description: "Print one compact JSON document (default: indented JSON)" },
    "timeout-ms": { type: "string", valueHint: "ms", description: "Timeout for each orca and git call (default 30000)" },
  },
  rules: {
    exclusive: [
      ["task-id", "dispatch-id", "unreaped"],
      ["unreaped", "dry-run"],
      ["unreaped", "worktree"],
      ["unreaped", "allow-ignored"],
    ],
  },
  notes: [
    "The worktree path comes from Orca's terminal record, read before the terminal is closed. Removal runs\n" +
      "`git -C <owning repo> worktree remove <path>`; a dirty, untracked, unmerged, detached, locked or missing\n" +
      "worktree is left as `worktree_left:<path>:<reason>`.",
    "Work that `git status` cannot see leaves the worktree too (DECISIONS D31): an index entry with the\n" +
      "skip-worktree or assume-unchanged bit is `worktree_left:<path>:hidden_index_flags`; an ignored file of the\n" +
      "precious set (.env, .env.*, .envrc, *.pem, *.key, *.p12, *.pfx, id_rsa*, id_ed25519*, *.secret, credentials*,\n" +
      ".npmrc, .pypirc, *.local.json; the policy's reap.precious_ignored replaces it) or an ignored nested repository\n" +
      "is `worktree_left:<path>:precious_ignored:<first relative path>`. Files under node_modules/ and other ignored\n" +
      "files are regenerable and go with the worktree. --allow-ignored lifts only the precious rule, for one run.\n" +
      "The dry run names the same reasons.",
    "Ledger contract (D18): before anything is closed or removed, the ledger must be writable and every line but\n" +
      "a torn last one must be a JSON object; otherwise exit 2 `LEDGER_UNAVAILABLE` naming the file and line. A torn\n" +
      "last line is set aside to <ledger>.torn with a warning. At most 10 warnings of a kind are printed.",
  ],
  examples: [
    "mogui worker-reap --task-id task_0123456789ab --dry-run",
    "mogui worker-reap --dispatch-id ctx_0123456789ab --json",
    "mogui worker-reap --unreaped",
    "mogui worker-reap --task-id task_0123456789ab --allow-ignored",
  ],
  async run(ctx, args) {
    const json = Boolean(args.json);
    const ledger = resolveStatePath(ctx, args.ledger as string | undefined, LEDGER_ENV, "dispatch-ledger.jsonl");
    if (args.unreaped) return listUnreaped(ctx, ledger, json);
    const taskId = args["task-id"] as string | undefined;
    const dispatchId = args["dispatch-id"] as string | undefined;
    if (!taskId && !dispatchId) throw new UsageError("one of --task-id, --dispatch-id is required", "worker-reap");
    const timeoutMs = parseTimeout(args["timeout-ms"] as string | undefined);
    const sink = warn(ctx);
    const req: ReapRequest = {
      taskId,
      dispatchId,
      worktree: args.worktree ? resolve(ctx.cwd, args.worktree as string) : undefined,
      execute: !args["dry-run"],
      ledgerPath: ledger,
      orcaTimeoutMs: timeoutMs,
      gitTimeoutMs: timeoutMs,
      precious: preciousSet(ctx, args.policy as string | undefined),
      allowIgnored: Boolean(args["allow-ignored"]),
      onLedgerWarning: sink.warn,
    };
    try {
      return await reapAndPrint(ctx, req, json);
    } finally {
      sink.flush();
    }
  },
});

async function reapAndPrint(ctx: Ctx, req: ReapRequest, json: boolean): Promise<number> {
  if (req.execute) {
    // The appender contract: a bad ledger (unwritable, a corrupt line) stops the reap before anything is closed
    // or removed.
    try {
      await checkLedger(req.ledgerPath!, { onWarning: req.onLedgerWarning });
    } catch (e) {
      if (e instanceof LedgerError) throw ledgerFail(e);
      throw e;
    }
  }
  let outcome;
  try {
    outcome = await reap(ctx, req);
  } catch (e) {
    if (e instanceof ExitError && !(e instanceof UsageError)) throw new ExitError(e.code, `worker-reap: ${e.message}`);
    throw e;
  }
  printJson(ctx, { record: outcome.record, dry_run: !req.execute }, json);
  if (outcome.ledgerError) {
    ctx.io.stderr(`worker-reap: reaped, but the ledger row was not written: ${outcome.ledgerError}\n`);
    return WORKER_REAP_EXIT.FAILED;
  }
  return WORKER_REAP_EXIT.OK;
}
