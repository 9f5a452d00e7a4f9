import { makeHost, hostKind } from "../../../src/lib/host/index.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { hostCall, jobsRun, paths, policyIfPresent, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { loadJobs } from "../../../src/workers/worker/jobs.ts";
import { DEFAULT_DEAD_TITLES } from "../../../src/workers/worker/policy.ts";
import { sweep } from "../../../src/workers/worker/sweep.ts";

export default defineCommand({
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
    readings: { ...WORKER_ARGS.readings, description: "Status readings for job panes" },
    "interval-ms": WORKER_ARGS["interval-ms"],
    execute: WORKER_ARGS.execute,
    host: WORKER_ARGS.host,
    ledger: WORKER_ARGS.ledger,
    policy: WORKER_ARGS.policy,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: true, idempotent: true, openWorld: false, confirmWith: { remove: "execute" } },
  exits: {
    ok: { code: 0, meaning: "the workspace was classified (and dead tabs closed with --execute)" },
    failed: { code: 1, meaning: "a pane close failed, or the host failed" },
    ledgerUnavailable: WORKER_EXITS.ledgerUnavailable,
  },
  notes: ["Dead-tab titles: the policy's dead_tab_title_patterns (default: `user@host...` prompts and bare shell names)."],
  examples: ["mogui worker sweep --workspace w16", "mogui worker sweep --workspace w16 --execute --json"],
  run: jobsRun(async ({ ctx, args }) => {
    const workspace = args.workspace;
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    const execute = args.execute;
    // No policy file: the built-in prompt patterns apply.
    const patterns = policyIfPresent(ctx, args.policy, "sweep")?.dead_tab_title_patterns ?? DEFAULT_DEAD_TITLES;
    const host = makeHost(ctx, hostKind(ctx, args.host, "worker sweep"));
    const jobs = [...(await loadJobs(ctx, ledger, "sweep")).values()];
    const opts = { workspace, execute, ledger, readings: args.readings, intervalMs: args["interval-ms"] };
    const items = await hostCall("sweep", () => sweep(ctx, host, { dead_tab_title_patterns: patterns }, jobs, opts));
    if (args.json) printDoc(ctx, { workspace, host: host.kind, execute, panes: items }, true);
    else if (items.length === 0) printLines(ctx, [`No panes in ${workspace}.`]);
    else
      printLines(
        ctx,
        items.map((i) => `${i.pane_id}\t${i.kind}\t${i.action}${!execute && i.action === "close" ? " (dry run)" : ""}\t${i.title ?? "-"}\t${i.reasons.join("; ")}`),
      );
    return items.some((i) => i.action === "close_failed") ? "failed" : "ok";
  }),
});
