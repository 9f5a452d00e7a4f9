import { resolve } from "node:path";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { parseLedger } from "../../../src/succession/lineage/lineage.ts";
import { successionRun } from "../_shared.ts";
import { readText } from "../../../src/succession/master/io.ts";

const NAME = "lineage show";

export default defineCommand({
  meta: {
    name: NAME,
    description: "Parse MASTER-LINEAGE.md back into its generations: one line each, or every field with --json.",
  },
  usage: ["lineage show --ledger <MASTER-LINEAGE.md> [--json]"],
  args: {
    ledger: { ...ARGS.ledger, valueHint: "file", required: true, description: "The lineage markdown ledger" },
    json: { ...ARGS.json, description: "One compact JSON document {entries, ledger, warnings}" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "parsed" },
    unreadable: { code: 2, meaning: "usage; ledger unreadable" },
  },
  examples: ["mogui lineage show --ledger docs/lineage/MASTER-LINEAGE.md --json"],
  run: successionRun(async ({ ctx, args }) => {
    const ledger = resolve(ctx.cwd, args.ledger);
    const { entries, warnings } = parseLedger(readText(ctx, ledger, NAME));
    const log = logger(ctx, NAME);
    for (const w of warnings) log.warn(`${ledger}: ${w}`);
    if (args.json) {
      printDoc(ctx, { entries, ledger, warnings }, true);
      return "ok";
    }
    if (!entries.length) log.log(`no generations in ${ledger}`);
    printLines(
      ctx,
      entries.map((e) => `Gen ${e.generation ?? "?"}\t${e.timestamp ?? "-"}\t${e.inherited_role ?? "-"}\tverification=${e.verification ?? "-"}\t${e.parent_session ?? "-"} -> ${e.successor_session ?? "-"}`),
    );
    return "ok";
  }),
});
