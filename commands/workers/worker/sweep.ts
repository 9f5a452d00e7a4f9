import { makeHost, hostKind } from "../../../src/lib/host/index.ts";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { EXECUTE_ARG, HOST_ARG, hostCall, intArg, JSON_ARG, LEDGER_ARG, paths, POLICY_ARG, policyIfPresent, str } from "../../../src/workers/worker/cli.ts";
import { loadJobs } from "../../../src/workers/worker/jobs.ts";
import { DEFAULT_DEAD_TITLES } from "../../../src/workers/worker/policy.ts";
import { DEFAULT_INTERVAL_MS, DEFAULT_READINGS } from "../../../src/workers/worker/stability.ts";
import { sweep } from "../../../src/workers/worker/sweep.ts";

export default defineMoguiCommand({
  meta: {
    name: "worker sweep",
    description: [
      "Sweep a workspace from the host's pane list (not the agent list, which never shows dead tabs): panes of a",
      "job follow collect's rules; panes whose terminal title is a bare shell prompt (dead tabs) are closed, one pane",
      "at a time; anything else is listed for a person to read. Dry run unless --execute.",
    ].join("\n"),
  },
  usage: ["worker sweep --workspace <ws> [--execute] [--host herdr|orca] [--json]"],
  args: {
    workspace: { type: "string", valueHint: "ws", required: true, description: "herdr workspace id (w16), or an Orca worktree selector" },
    readings: { type: "string", valueHint: "n", description: `Status readings for job panes (default ${DEFAULT_READINGS})` },
    "interval-ms": { type: "string", valueHint: "ms", description: `Time between readings (default ${DEFAULT_INTERVAL_MS})` },
    ...EXECUTE_ARG,
    ...HOST_ARG,
    ...LEDGER_ARG,
    ...POLICY_ARG,
    ...JSON_ARG,
  },
  notes: ["Dead-tab titles: the policy's dead_tab_title_patterns (default: `user@host...` prompts and bare shell names)."],
  examples: ["mogui worker sweep --workspace w16", "mogui worker sweep --workspace w16 --execute --json"],
  async run(ctx, args) {
    const workspace = str(args, "workspace")!;
    const ledger = paths(ctx, args).ledger;
    const execute = Boolean(args.execute);
    // No policy file: the built-in prompt patterns apply.
    const patterns = policyIfPresent(ctx, args, "sweep")?.dead_tab_title_patterns ?? DEFAULT_DEAD_TITLES;
    const host = makeHost(ctx, hostKind(ctx, str(args, "host"), "worker sweep"));
    const jobs = [...(await loadJobs(ctx, ledger, "sweep")).values()];
    const opts = { workspace, execute, ledger, readings: intArg(args, "readings", "sweep", 1) ?? DEFAULT_READINGS, intervalMs: intArg(args, "interval-ms", "sweep") ?? DEFAULT_INTERVAL_MS };
    const items = await hostCall("sweep", () => sweep(ctx, host, { dead_tab_title_patterns: patterns }, jobs, opts));
    if (args.json) printJson(ctx, sortKeys({ workspace, host: host.kind, execute, panes: items }), true);
    else if (items.length === 0) printLines(ctx, [`No panes in ${workspace}.`]);
    else printLines(ctx, items.map((i) => `${i.pane_id}\t${i.kind}\t${i.action}${!execute && i.action === "close" ? " (dry run)" : ""}\t${i.title ?? "-"}\t${i.reasons.join("; ")}`));
    return items.some((i) => i.action === "close_failed") ? 1 : 0;
  },
});
