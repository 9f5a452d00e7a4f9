import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { printJson, printLines } from "../../../src/lib/output.ts";
import { FLEET_ARGS, human, scanRequest, withFleetFaults } from "../../../src/fleet/fleet/cli.ts";
import { systemProcTable } from "../../../src/fleet/fleet/procs.ts";
import { scanFleet } from "../../../src/fleet/fleet/scan.ts";

export default defineMoguiCommand({
  meta: {
    name: "fleet scan",
    description: [
      "List every worktree of the given repositories with: bound to an open job or dispatch / settled / orphaned",
      "(no record at all), the worktree-safety verdict worker-reap uses and its reason, size on disk, the processes",
      "whose cwd or open files are inside it, the live panes working in it, and its age. Changes nothing.",
    ].join("\n"),
  },
  usage: ["fleet scan --repo <path>... [--jobs-ledger <path>] [--ledger <path>] [--host orca|herdr|none]... [--concurrency <n>] [--json]"],
  args: FLEET_ARGS,
  notes: [
    "Records: the jobs ledger's job_spawned rows (worktree, pane) and the dispatch ledger's lifecycle rows that\n" +
      "carry a worktree_path. Processes: Linux /proc (cwd and fd links), macOS lsof; 'unmeasured' when neither works.\n" +
      "Panes: `orca terminal list` and `herdr pane list`; a host that is not installed or not running has none.",
  ],
  examples: ["mogui fleet scan --repo ~/src/app", "mogui fleet scan --repo ./app --repo ./lib --json"],
  async run(ctx, args) {
    const req = scanRequest(ctx, args, "fleet scan");
    const table = systemProcTable(ctx);
    const scan = await withFleetFaults("fleet scan", () => scanFleet(ctx, req, table));
    for (const f of scan.panes.failed) ctx.io.stderr(`fleet scan: warning: panes unmeasured: ${f}\n`);
    if (scan.processes_unmeasured) ctx.io.stderr(`fleet scan: warning: processes unmeasured: ${scan.processes_unmeasured}\n`);
    if (args.json) {
      printJson(ctx, { repos: req.repos, ...scan }, true);
      return 0;
    }
    printLines(
      ctx,
      scan.worktrees.map((w) =>
        [
          w.path,
          w.state + (w.binding ? `(${w.binding.source}:${w.binding.id})` : ""),
          w.safety.safe ? "safe" : `unsafe: ${w.safety.reason}`,
          human(w.size_bytes),
          w.processes === "unmeasured" ? "procs=unmeasured" : `procs=${w.processes.map((p) => p.pid).join(",") || "0"}`,
          `panes=${w.panes.map((p) => `${p.host}:${p.id}`).join(",") || "0"}`,
          `age=${w.age_seconds ?? "-"}s`,
        ].join("\t"),
      ),
    );
    return 0;
  },
});
