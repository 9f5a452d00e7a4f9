import { defineCommand } from "../../src/lib/command.ts";
import { useColor } from "../../src/lib/context.ts";
import { boundedWarnings, type LedgerWarning } from "../../src/lib/ledger.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { FleetRepoError } from "../../src/fleet/fleet/scan.ts";
import { systemProcTable } from "../../src/fleet/fleet/procs.ts";
import { reapRow } from "../../src/fleet/top/action.ts";
import { describe, topRequest } from "./_shared.ts";
import { TopSource } from "../../src/fleet/top/collect.ts";
import { detailLines } from "../../src/fleet/top/detail.ts";
import { HerdrPublisher } from "../../src/fleet/top/publish.ts";
import { renderOnce } from "../../src/fleet/top/render.ts";
import type { TopFrame } from "../../src/fleet/top/row.ts";
import { processTerminal } from "../../src/fleet/top/terminal.ts";
import { runTui } from "../../src/fleet/top/tui.ts";
import { JobsLedgerError } from "../../src/workers/worker/jobs.ts";
import { ARGS } from "../../src/lib/args.ts";

export default defineCommand({
  meta: {
    name: "top",
    description: [
      "A live, full-screen view of every worker and worktree mogui knows (jobs ledger, dispatch ledger, fleet scan",
      "of the --repo repositories), grouped by what they need: the model observed in the transcript, measured tokens",
      "and spend, whether the claimed push is on the remote, the verdict, and whether fleet reap would remove the",
      "worktree. Writes nothing; its one action, d (reap), runs fleet reap's own checks (off with --readonly).",
    ].join("\n"),
  },
  usage: ["top [--repo <path>]... [--readonly] [--interval-ms <ms>] [--once [--json]] [--publish-herdr] [--jobs-ledger <path>] [--ledger <path>] [--spend-ledger <path>] [--prices <path>] [--host orca|herdr|none]..."],
  args: {
    repo: { type: "string", valueHint: "path", multiple: true, description: "A repository whose worktrees to show (repeatable; the repositories of the jobs ledger's workers are added)" },
    readonly: { type: "boolean", description: "Turn the reap key (d) off" },
    "interval-ms": { type: "int", min: 200, max: 3_600_000, default: 2000, valueHint: "ms", description: "Refresh interval" },
    once: { type: "boolean", description: "Print one frame as plain text and exit (no escape codes off a terminal)" },
    json: { ...ARGS.json, description: "With --once: the frame's data as one document {rows, totals}" },
    "publish-herdr": { type: "boolean", description: "Push each worker's spend, verdict and pushed flag into its herdr pane (herdr pane report-metadata)" },
    "jobs-ledger": { type: "string", valueHint: "path", description: "Jobs ledger (default $MOGUI_JOBS_LEDGER, else $MOGUI_HOME/jobs-ledger.jsonl)" },
    ledger: { type: "string", valueHint: "path", description: "Dispatch ledger (default $DISPATCH_GATE_LEDGER, else $MOGUI_HOME/dispatch-ledger.jsonl)" },
    "spend-ledger": { type: "string", valueHint: "path", description: "Spend ledger for the header's spend caps (default $MOGUI_SPEND_LEDGER, else $MOGUI_HOME/spend-ledger.jsonl)" },
    prices: { type: "string", valueHint: "path", description: "Price table (default $MOGUI_HOME/config/prices.json when it exists)" },
    policy: { type: "string", valueHint: "path", description: "Surface policy for reap's precious ignored set, as for fleet reap" },
    host: { type: "string", valueHint: "orca|herdr|none", multiple: true, description: "Hosts to ask (repeatable; default orca and herdr)" },
    remote: { type: "string", valueHint: "name", default: "origin", description: "The remote whose branches prove a claimed push" },
    concurrency: { type: "int", min: 1, max: 64, default: 8, valueHint: "n", description: "Worktrees checked at once" },
    "timeout-ms": { type: "int", min: 1, max: 3_600_000, default: 30_000, valueHint: "ms", description: "Timeout for each git, orca and herdr call" },
  },
  exits: {
    ok: { code: 0, meaning: "quit (q, Ctrl-C, SIGINT, SIGTERM) with the terminal restored; with --once, the frame was printed" },
    ledgerUnavailable: { code: 2, meaning: "a ledger unreadable or corrupt (LEDGER_UNAVAILABLE); a price table or surface policy invalid" },
    notARepo: { code: 2, meaning: "usage (a bad flag or value, --json without --once); a --repo that is not a git repository" },
  },
  notes: [
    "Without a terminal on stdout, top prints one frame as with --once. Keys: ? help, / filter (Esc clears), j/k or\n" +
      "arrows, Enter detail, s sort, r refresh, d reap (asks y/N; the checks are fleet reap's), q quit.\n" +
      "Each host is asked once per refresh (herdr pane list, orca terminal list), git ls-remote once per repository\n" +
      "(reused for 30 s). Transcripts are read incrementally, in memory: top appends to no ledger. See docs/top.md.",
  ],
  examples: ["mogui top --repo ~/src/app", "mogui top --repo . --once", "mogui top --repo . --once --json", "mogui top --repo . --readonly --publish-herdr"],
  async run({ ctx, args, fail }) {
    if (args.json && !args.once) return fail("notARepo", "top: --json needs --once (the screen has no JSON form)");
    // Warnings of the set-up (a tier policy that does not load) stay; those of a refresh are the refresh's.
    const setup: string[] = [];
    const req = topRequest(ctx, args, setup);
    const warnings: string[] = [];
    const sink = boundedWarnings((w: LedgerWarning) => warnings.push(`${w.path}${w.line ? `:${w.line}` : ""}: ${w.message}`));
    const table = systemProcTable(ctx);
    // Warnings of the readers go to the screen's header, never across it on stderr.
    const quiet = { ...ctx, io: { ...ctx.io, stderr: (t: string) => void warnings.push(t.trim()) } };
    const source = new TopSource(quiet, req, table);
    const publisher = args["publish-herdr"] ? new HerdrPublisher(quiet, Math.max(3 * args["interval-ms"], 10_000), req.timeoutMs) : null;
    const read = async (force: boolean): Promise<TopFrame> => {
      warnings.length = 0;
      const f = await source.frame({ forceRemote: force, onLedgerWarning: sink.warn });
      if (publisher) f.totals.warnings.push(...(await publisher.publish(f, source.lastHerdrPanes)));
      f.totals.warnings.push(...[...setup, ...warnings].filter((w) => !f.totals.warnings.includes(w)));
      return f;
    };
    const once = args.once || !ctx.io.stdoutIsTTY;
    try {
      if (once) {
        const f = await read(true);
        if (args.json) printDoc(ctx, f, true);
        else printLines(ctx, renderOnce(f, ctx.io.stdoutIsTTY ? processTerminal().columns() : Number(ctx.env.COLUMNS) || 160, useColor(ctx, ctx.io.stdoutIsTTY)));
        return "ok";
      }
      await runTui({
        term: processTerminal(),
        frame: read,
        detail: (row) => detailLines(row, req),
        reap: (row) => reapRow(quiet, req, table, row, sink.warn),
        intervalMs: args["interval-ms"],
        colour: useColor(ctx, true),
        readonly: args.readonly,
        describe,
        stop: () => source.stop(),
      });
      return "ok";
    } catch (e) {
      if (e instanceof FleetRepoError) return fail("notARepo", `top: ${e.message}`);
      if (e instanceof JobsLedgerError) return fail(e.kind, `top: ${e.detail}`);
      throw e;
    }
  },
});
