import { defineCommand } from "../../../src/lib/command.ts";
import { boundedWarnings, type LedgerWarning } from "../../../src/lib/ledger.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { FLEET_ARGS, FLEET_EXITS, human, scanProgress, scanRequest, withRepoFault } from "./_shared.ts";
import { systemProcTable } from "../../../src/fleet/fleet/procs.ts";
import { scanFleet } from "../../../src/fleet/fleet/scan.ts";

export default defineCommand({
  meta: {
    name: "fleet scan",
    description: [
      "List every worktree of the given repositories with: bound to an open job or dispatch / settled / orphaned",
      "(no record at all), the worktree-safety verdict worker-reap uses and its reason, size on disk, the processes",
      "whose cwd or open files are inside it, the live panes working in it, and its age. Changes nothing.",
    ].join("\n"),
  },
  usage: ["fleet scan --repo <path>... [--jobs-ledger <path>] [--ledger <path>] [--host orca|herdr|none]... [--policy <path>] [--allow-ignored] [--concurrency <n>] [--json]"],
  args: FLEET_ARGS,
  exits: {
    ok: { code: 0, meaning: "scan printed (processes or panes that could not be measured are marked, with a warning)" },
    ...FLEET_EXITS,
  },
  notes: [
    "Records: the jobs ledger's job_spawned rows (worktree, pane) and the dispatch ledger's lifecycle rows that\n" +
      "carry a worktree_path. Processes: Linux /proc (cwd and fd links), macOS lsof; 'unmeasured' when neither works.\n" +
      "Panes: `orca terminal list` and `herdr pane list`; a host that is not installed or not running has none.\n" +
      "The repository-wide git facts (worktree list, branches merged into origin/main) are read once per repository.",
  ],
  examples: ["mogui fleet scan --repo ~/src/app", "mogui fleet scan --repo ./app --repo ./lib --json"],
  async run({ ctx, args, fail }) {
    const log = logger(ctx, "fleet scan");
    const req = scanRequest(ctx, args, "fleet scan", fail);
    const table = systemProcTable(ctx);
    const p = scanProgress(ctx, "fleet scan");
    const sink = boundedWarnings((w: LedgerWarning) => log.warn(`${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}`));
    let scan;
    try {
      scan = await withRepoFault("fleet scan", fail, () => scanFleet(ctx, { ...req, onProgress: p.onProgress, onLedgerWarning: sink.warn }, table));
    } finally {
      p.end();
      sink.flush();
    }
    for (const f of scan.panes.failed) log.warn(`panes unmeasured: ${f}`);
    if (scan.processes_unmeasured) log.warn(`processes unmeasured: ${scan.processes_unmeasured}`);
    if (args.json) {
      printDoc(ctx, { repos: req.repos, ...scan }, true);
      return "ok";
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
    return "ok";
  },
});
