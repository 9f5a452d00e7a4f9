import { resolve } from "node:path";
import { ARGS, UNBOUNDED_MAX, UNBOUNDED_MIN } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { inventory, InventoryFail, inventoryJson, renderInventory } from "../../src/publishing/redaction/inventory.ts";
import { orgRulesPath } from "../../src/publishing/redaction/rules.ts";

const P = "redaction-inventory";
const DEFAULT_DICT = "/usr/share/dict/words";

export default defineCommand({
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
    dir: { type: "string", alias: "C", valueHint: "dir", default: ".", description: "The repository to inventory (default: the current directory)" },
    baseline: { type: "string", valueHint: "path", default: ".redaction-inventory-baseline", description: "Reviewed tokens, one a line (default .redaction-inventory-baseline in <dir>)" },
    // The original: `--min-count INT`, no bound (issue 26 §3): 0 or less reports every token.
    "min-count": { type: "int", min: UNBOUNDED_MIN, max: UNBOUNDED_MAX, default: 1, valueHint: "n", description: "Report a token only when it occurs at least n times (default 1)" },
    json: { ...ARGS.json, description: "Print the report as one compact JSON document (keys sorted)" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "no uncovered candidates" },
    candidates: { code: 1, meaning: "uncovered candidates listed (the normal triage state)" },
    undecidable: { code: 2, meaning: "cannot decide: REDACTION_EXTRA_PATTERNS unset or missing, no usable rule, not a git repository, no tracked files; usage error" },
  },
  notes: [
    "Rules come from $REDACTION_EXTRA_PATTERNS (`id|description|regex` per line); only counts are printed.\n" +
      `Latin words next to Hangul are checked against ${DEFAULT_DICT} ($REDACTION_INVENTORY_DICT overrides);\n` +
      "without it a built-in English list is used and a note says so on stderr.",
  ],
  examples: ["mogui redaction-inventory", "mogui redaction-inventory --min-count 3 --json"],
  async run({ ctx, args, fail }) {
    const root = resolve(ctx.cwd, args.dir);
    try {
      const inv = await inventory(ctx, {
        root,
        rulesPath: orgRulesPath(ctx),
        baselinePath: resolve(root, args.baseline),
        minCount: args["min-count"],
        dictPath: ctx.env.REDACTION_INVENTORY_DICT?.trim() || DEFAULT_DICT,
        onNote: (m) => logger(ctx, P).log(`note: ${m}`),
      });
      if (args.json) printDoc(ctx, inventoryJson(inv), true);
      else printLines(ctx, renderInventory(inv));
      return inv.total ? "candidates" : "ok";
    } catch (e) {
      if (e instanceof InventoryFail) return fail("undecidable", `${P}: FAIL. ${e.message}`);
      return fail("undecidable", `${P}: FAIL. internal error (${(e as Error).name}); nothing was decided`);
    }
  },
});
