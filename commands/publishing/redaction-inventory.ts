import { resolve } from "node:path";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { printJson, printLines } from "../../src/lib/output.ts";
import { inventory, InventoryFail, inventoryJson, renderInventory } from "../../src/publishing/redaction/inventory.ts";
import { orgRulesPath } from "../../src/publishing/redaction/rules.ts";

const P = "redaction-inventory";
const DEFAULT_DICT = "/usr/share/dict/words";

export default defineMoguiCommand({
  meta: {
    name: P,
    description: [
      "The inverse audit of the redaction rules: list tokens in tracked files that look private (kebab-case",
      "names, Latin words written next to Hangul, home-directory users, e-mail domains) and that no organisation",
      "rule covers and the reviewed baseline does not list. Exit 1 is the normal triage state, not an error.",
    ].join("\n"),
  },
  usage: ["redaction-inventory [-C <dir>] [--baseline <path>] [--min-count <n>] [--json]"],
  args: {
    dir: { type: "string", alias: "C", valueHint: "dir", description: "The repository to inventory (default: the current directory)" },
    baseline: { type: "string", valueHint: "path", description: "Reviewed tokens, one a line (default .redaction-inventory-baseline in <dir>)" },
    "min-count": { type: "string", valueHint: "n", description: "Report a token only when it occurs at least n times (default 1)" },
    json: { type: "boolean", description: "Print the report as JSON (indented)" },
  },
  notes: [
    "Rules come from $REDACTION_EXTRA_PATTERNS (`id|description|regex` per line); only counts are printed.\n" +
      `Latin words next to Hangul are checked against ${DEFAULT_DICT} ($REDACTION_INVENTORY_DICT overrides);\n` +
      "without it a built-in English list is used and a note says so on stderr.",
  ],
  examples: ["mogui redaction-inventory", "mogui redaction-inventory --min-count 3 --json"],
  async run(ctx, args) {
    const raw = (args["min-count"] as string | undefined) ?? "1";
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--min-count must be a whole number >= 1 (got '${raw}')`, P);
    const root = resolve(ctx.cwd, (args.dir as string | undefined) ?? ".");
    try {
      const inv = await inventory(ctx, {
        root,
        rulesPath: orgRulesPath(ctx),
        baselinePath: resolve(root, (args.baseline as string | undefined) ?? ".redaction-inventory-baseline"),
        minCount: Number(raw),
        dictPath: ctx.env.REDACTION_INVENTORY_DICT?.trim() || DEFAULT_DICT,
        onNote: (m) => ctx.io.stderr(`${P}: note: ${m}\n`),
      });
      if (args.json) printJson(ctx, inventoryJson(inv), false);
      else printLines(ctx, renderInventory(inv));
      return inv.total ? 1 : 0;
    } catch (e) {
      if (e instanceof InventoryFail) {
        ctx.io.stderr(`${P}: FAIL. ${e.message}\n`);
        return 2;
      }
      ctx.io.stderr(`${P}: FAIL. internal error (${(e as Error).name}); nothing was decided\n`);
      return 2;
    }
  },
});
