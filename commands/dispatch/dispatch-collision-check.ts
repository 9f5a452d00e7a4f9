import { collisionCheck, warningLine } from "../../src/dispatch/pipeline/collision.ts";
import { gateLedgerPath } from "../../src/dispatch/gate/paths.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { printLines } from "../../src/lib/output.ts";
import { resolve } from "node:path";

export default defineCommand({
  meta: {
    name: "dispatch-collision-check",
    description: [
      "Warn when a contract's `- Scope:` files overlap work already in flight: the files of open PRs in",
      "$MOGUI_PRODUCT_GITHUB (via gh), and the scopes of other contracts in the same directory that the ledger",
      "shows dispatched and Orca still shows open. Fail-open: it always exits 0 and prints only warning lines.",
    ].join("\n"),
  },
  usage: ["dispatch-collision-check <contract> [<ledger>]"],
  args: {
    contract: { type: "positional", required: true, valueHint: "contract", description: "The contract (markdown) about to be dispatched" },
    ledger: {
      type: "positional",
      required: false,
      valueHint: "ledger",
      description: "Dispatch ledger (default $DISPATCH_GATE_LEDGER, else $MOGUI_HOME/dispatch-ledger.jsonl)",
    },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  exits: {
    ok: { code: 0, meaning: "checked (fail-open): zero or more `WARNING: scope overlap ...` lines on stdout, whatever the ledger holds" },
    usage: { code: 2, meaning: "usage error: no contract argument, an unknown flag" },
  },
  notes: [
    "Output lines: `WARNING: scope overlap with <owner> on <file, file>`, where <owner> is `PR #<n>` or\n" +
      "`<contract file> (task <id>)`. Scope tokens are backticked spans, words with a `/` and dotted file names;\n" +
      "a trailing `/` is a directory and `*`/`?`/`[...]` are globs, resolved against `git ls-files` of the current\n" +
      "directory. The gh source is skipped silently when gh is missing or MOGUI_PRODUCT_GITHUB is unset; only the\n" +
      "64 newest registered dispatches are looked at, each with an 8 s orca dispatch-show (30 s in all); gh gets\n" +
      "15 s a call and 30 s in all.",
  ],
  examples: ["mogui dispatch-collision-check contracts/fix-login.md", "MOGUI_PRODUCT_GITHUB=acme/app mogui dispatch-collision-check contracts/x.md"],
  async run({ ctx, args }) {
    const contract = resolve(ctx.cwd, args.contract);
    const ledger = gateLedgerPath(ctx, args.ledger);
    printLines(ctx, (await collisionCheck(ctx, contract, ledger)).map(warningLine));
    return "ok";
  },
});
