import { resolve } from "node:path";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import { printLines } from "../../src/lib/output.ts";
import { parseLedger } from "../../src/lineage/lineage.ts";
import { emit, readText } from "../../src/succession/io.ts";

const NAME = "lineage show";

export default defineMoguiCommand({
  meta: {
    name: NAME,
    description: "Parse MASTER-LINEAGE.md back into its generations: one line each, or every field with --json.",
  },
  usage: ["lineage show --ledger <MASTER-LINEAGE.md> [--json]"],
  args: {
    ledger: { type: "string", valueHint: "file", required: true, description: "The lineage markdown ledger" },
    json: { type: "boolean", description: "One compact JSON document {entries, ledger, warnings}" },
  },
  examples: ["mogui lineage show --ledger docs/lineage/MASTER-LINEAGE.md --json"],
  async run(ctx, args) {
    const ledger = resolve(ctx.cwd, args.ledger as string);
    const { entries, warnings } = parseLedger(readText(ctx, ledger, NAME));
    for (const w of warnings) ctx.io.stderr(`${NAME}: warning: ${ledger}: ${w}\n`);
    if (args.json) {
      emit(ctx, { entries, ledger, warnings }, true);
      return 0;
    }
    if (!entries.length) ctx.io.stderr(`${NAME}: no generations in ${ledger}\n`);
    printLines(
      ctx,
      entries.map((e) => `Gen ${e.generation ?? "?"}\t${e.timestamp ?? "-"}\t${e.inherited_role ?? "-"}\tverification=${e.verification ?? "-"}\t${e.parent_session ?? "-"} -> ${e.successor_session ?? "-"}`),
    );
    return 0;
  },
});
