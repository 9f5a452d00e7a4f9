import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { checkWritable } from "../../../src/lib/ledger.ts";
import { printJson, printLines } from "../../../src/lib/output.ts";
import { FLEET_ARGS, human, intArg, scanRequest, withFleetFaults } from "../../../src/fleet/fleet/cli.ts";
import { systemProcTable } from "../../../src/fleet/fleet/procs.ts";
import { reapFleet } from "../../../src/fleet/fleet/reap.ts";
import { scanFleet } from "../../../src/fleet/fleet/scan.ts";

export default defineMoguiCommand({
  meta: {
    name: "fleet reap",
    description: [
      "Clean up settled and orphaned worktrees that pass every safety check: stop the processes left inside",
      "(TERM, then KILL after --grace-ms), close the recorded terminal, remove the worktree, and append one",
      "fleet_reap row per worktree. A dry run unless --execute. Anything ambiguous is left, with its reason.",
    ].join("\n"),
  },
  usage: ["fleet reap --repo <path>... [--execute] [--grace-ms <ms>] [--allow-ignored] [--jobs-ledger <path>] [--ledger <path>] [--host orca|herdr|none]... [--json]"],
  args: {
    ...FLEET_ARGS,
    execute: { type: "boolean", description: "Act: stop processes, close terminals, remove worktrees, append rows" },
    "grace-ms": { type: "string", valueHint: "ms", default: "3000", description: "Wait between TERM and KILL" },
  },
  notes: [
    "Left, with the reason: the main worktree; a worktree bound to an open job or dispatch; one that worker-reap's\n" +
      "safety check refuses (dirty, untracked, unmerged, detached, locked, hidden index flags, precious ignored\n" +
      "files); a live pane that is not the recorded terminal; processes or panes that could not be measured; a\n" +
      "process working elsewhere that holds a file open in it.\n" +
      "A process is signalled only if it still has the same start time and is still inside the worktree; never\n" +
      "mogui itself or its parents. After the processes stop, the safety check runs again before removal.",
  ],
  examples: ["mogui fleet reap --repo ~/src/app", "mogui fleet reap --repo ~/src/app --execute --json"],
  async run(ctx, args) {
    const req = scanRequest(ctx, args, "fleet reap");
    const graceMs = intArg(args, "grace-ms", 0, 600_000, "fleet reap");
    const execute = Boolean(args.execute);
    if (execute) await withFleetFaults("fleet reap", async () => checkWritable(req.dispatchLedger));
    const table = systemProcTable(ctx);
    const results = await withFleetFaults("fleet reap", async () => {
      const scan = await scanFleet(ctx, req, table);
      return reapFleet(ctx, scan, table, { execute, graceMs, timeoutMs: req.timeoutMs, ledger: req.dispatchLedger, safety: req.safety });
    });
    const total = results.reduce((s, r) => s + r.bytes_reclaimed, 0);
    const failed = results.filter((r) => r.failed || r.ledger_error);
    for (const r of results) if (r.ledger_error) ctx.io.stderr(`fleet reap: ${r.path}: the fleet_reap row was not written: ${r.ledger_error}\n`);
    if (args.json) printJson(ctx, { dry_run: !execute, worktrees: results, bytes_reclaimed: total }, true);
    else
      printLines(ctx, [
        ...results.map((r) => `${r.outcome}\t${r.path}\t${human(r.bytes_reclaimed)}${r.killed.length ? `\tkilled=${r.killed.map((k) => `${k.pid}(${k.signal})`).join(",")}` : ""}${r.would_kill.length ? `\twould_kill=${r.would_kill.map((p) => p.pid).join(",")}` : ""}${r.reason ? `\t${r.reason}` : ""}`),
        `${execute ? "reclaimed" : "would reclaim"}: ${human(total)} (${total} bytes)`,
      ]);
    return failed.length ? 1 : 0;
  },
});
