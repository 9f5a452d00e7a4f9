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
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "scan printed (processes or panes that could not be measured are marked, with a warning)" },
    ...FLEET_EXITS,
  },
  notes: [
    "Bindings (D41), each with its source: the jobs ledger's job_spawned rows (job), the dispatch ledger's lifecycle\n" +
      "rows that carry a worktree_path (dispatch), gate register rows with an orchestration task placed through Orca\n" +
      "(register: task-list -> assignee terminal -> terminal list -> worktreePath), live Orca terminals and herdr\n" +
      "panes no record knows (orca, herdr). Orca's task status settles a dispatch (completed, failed, cancelled);\n" +
      "a running task keeps it open. drift= names records that disagree (orca_settled_process_running,\n" +
      "ledger_open_no_terminal, unknown_terminal, task_gone): reported, never a reason to remove.\n" +
      "Processes: Linux /proc (cwd and fd links), macOS lsof; 'unmeasured' when neither works.\n" +
      "Panes: `orca terminal list` and `herdr pane list`, once per scan; a host not installed or not running has none.\n" +
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
          `drift=${w.drift.join(",") || "-"}`,
        ].join("\t"),
      ),
    );
    // Gate-registered dispatches Orca cannot place in a worktree (their task gone, their terminal closed).
    printLines(
      ctx,
      scan.unplaced.map((u) => [`(no worktree)`, `${u.binding.state}(register:${u.binding.id})`, `task=${u.binding.task ?? "-"}`, `status=${u.binding.status}`, `drift=${u.drift.join(",") || "-"}`].join("\t")),
    );
    return "ok";
  },
});
