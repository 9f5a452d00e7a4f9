import { defineCommand } from "../../../src/lib/command.ts";
import { boundedWarnings, checkLedger, type LedgerWarning } from "../../../src/lib/ledger.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { FLEET_ARGS, FLEET_EXITS, human, scanProgress, scanRequest, withRepoFault } from "./_shared.ts";
import { systemProcTable } from "../../../src/fleet/fleet/procs.ts";
import { reapFleet } from "../../../src/fleet/fleet/reap.ts";
import { scanFleet } from "../../../src/fleet/fleet/scan.ts";

export default defineCommand({
  meta: {
    name: "fleet reap",
    description: [
      "Clean up settled and orphaned worktrees that pass every safety check: stop the processes left inside",
      "(TERM, then KILL after --grace-ms), close the recorded terminal, remove the worktree, and append one",
      "fleet_reap row per worktree. A dry run unless --execute. Anything ambiguous is left, with its reason.",
    ].join("\n"),
  },
  usage: ["fleet reap --repo <path>... [--execute] [--grace-ms <ms>] [--policy <path>] [--allow-ignored] [--jobs-ledger <path>] [--ledger <path>] [--host orca|herdr|none]... [--json]"],
  args: {
    ...FLEET_ARGS,
    execute: { type: "boolean", description: "Act: stop processes, close terminals, remove worktrees, append rows" },
    "grace-ms": { type: "int", min: 0, max: 600_000, default: 3000, valueHint: "ms", description: "Wait between TERM and KILL (default 3000)" },
  },
  mcp: { readOnly: false, destructive: true, idempotent: true, openWorld: false, confirmWith: { remove: "execute" } },
  exits: {
    ok: { code: 0, meaning: "every candidate worktree was removed (or would be, in a dry run) or left with its reason" },
    failed: { code: 1, meaning: "an action failed: a terminal close, a process that survived SIGKILL, git worktree remove, or a fleet_reap row not written" },
    ...FLEET_EXITS,
  },
  notes: [
    "Left, with the reason: the main worktree; a worktree bound to an open job or dispatch (D41: Orca's task\n" +
      "status decides a dispatch with a task), or where a live terminal or pane no record knows works; one that\n" +
      "worker-reap's safety check refuses (identity_mismatch, dirty, untracked, unmerged, detached, locked, hidden\n" +
      "index flags, operation_in_progress, worktree_ref_unique, ignored files not in the regenerable set (D40:\n" +
      "reap.regenerable, reap.precious_ignored; --allow-ignored lifts that rule)); a live pane that is not the\n" +
      "recorded terminal; processes or panes that could not be measured; a process working elsewhere that holds a\n" +
      "file open in it. Drift between records is reported by fleet scan and never a reason to remove.\n" +
      "With --execute the dispatch ledger is checked first: a corrupt line is LEDGER_UNAVAILABLE before any process\n" +
      "is signalled or worktree removed. A process is signalled only if it still has the same start time and is\n" +
      "still inside the worktree; never mogui itself or its parents. After the processes stop, the safety check runs\n" +
      "again (asking git afresh) before removal.",
  ],
  examples: ["mogui fleet reap --repo ~/src/app", "mogui fleet reap --repo ~/src/app --execute --json"],
  async run({ ctx, args, fail }) {
    const log = logger(ctx, "fleet reap");
    const req = scanRequest(ctx, args, "fleet reap", fail);
    const execute = args.execute;
    const sink = boundedWarnings((w: LedgerWarning) => log.warn(`${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}`));
    const table = systemProcTable(ctx);
    const p = scanProgress(ctx, "fleet reap");
    let results;
    try {
      // The appender contract: the whole ledger is checked before anything is signalled, closed or removed.
      if (execute) await checkLedger(req.dispatchLedger, { onWarning: sink.warn });
      results = await withRepoFault("fleet reap", fail, async () => {
        const scan = await scanFleet(ctx, { ...req, onProgress: p.onProgress, onLedgerWarning: sink.warn }, table);
        return reapFleet(ctx, scan, table, { execute, graceMs: args["grace-ms"], timeoutMs: req.timeoutMs, ledger: req.dispatchLedger, safety: req.safety, onLedgerWarning: sink.warn, onProgress: p.onProgress });
      });
    } finally {
      p.end();
      sink.flush();
    }
    const total = results.reduce((s, r) => s + r.bytes_reclaimed, 0);
    const failed = results.filter((r) => r.failed || r.ledger_error);
    for (const r of results) if (r.ledger_error) log.error(`${r.path}: the fleet_reap row was not written: ${r.ledger_error}`);
    if (args.json) printDoc(ctx, { dry_run: !execute, worktrees: results, bytes_reclaimed: total }, true);
    else
      printLines(ctx, [
        ...results.map(
          (r) =>
            `${r.outcome}\t${r.path}\t${human(r.bytes_reclaimed)}${r.killed.length ? `\tkilled=${r.killed.map((k) => `${k.pid}(${k.signal})`).join(",")}` : ""}${r.would_kill.length ? `\twould_kill=${r.would_kill.map((p) => p.pid).join(",")}` : ""}${r.terminal_closed ? `\tterminal_closed=${r.terminal_closed}` : ""}${r.would_close ? `\twould_close=${r.would_close}` : ""}${r.reflog_only_commits ? `\treflog_only_commits=${r.reflog_only_commits}` : ""}${r.reason ? `\t${r.reason}` : ""}`,
        ),
        `${execute ? "reclaimed" : "would reclaim"}: ${human(total)} (${total} bytes)`,
      ]);
    return failed.length ? "failed" : "ok";
  },
});
