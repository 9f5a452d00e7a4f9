import { resolve } from "node:path";
import { readStdinText } from "../../../src/succession/bootstrap/stdin.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { LockTimeoutError } from "../../../src/lib/lock.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { appendEntry, FIELDS, LineageAppendError, LineageValidationError } from "../../../src/succession/lineage/lineage.ts";
import { successionRun } from "../_shared.ts";
import { readText } from "../../../src/succession/master/io.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

const NAME = "lineage append";

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Append one generation to MASTER-LINEAGE.md: validate the fixed schema, refuse a generation that already",
      "has its own `- **Generation**: <n>` line, append, and verify by re-reading (the original bytes are",
      "restored when the check fails). Lineage records; it never decides the next action.",
    ].join("\n"),
  },
  usage: ["lineage append --ledger <MASTER-LINEAGE.md> --entry <file|-> [--json]"],
  args: {
    ledger: { ...ARGS.ledger, valueHint: "file", required: true, description: "The lineage markdown ledger (created when absent)" },
    entry: { type: "string", valueHint: "file|-", required: true, description: "The entry as a JSON object, from a file or stdin (-)" },
    json: ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false, readsStdin: [["entry", "-"]] },
  exits: {
    ok: { code: 0, meaning: "appended and verified" },
    invalid: { code: 2, meaning: "usage; entry unreadable, invalid, or its generation already recorded" },
    notVerified: { code: 3, meaning: "the append could not be verified or the lock not taken (the original bytes were restored)" },
  },
  notes: [`Fields: ${FIELDS.map(([k]) => k).join(", ")} (notes optional). generation, repeated_question_count and\nreopened_decision_count are non-negative integers; verification is PASS, PARTIAL or FAILED.`],
  examples: ["mogui lineage append --ledger docs/lineage/MASTER-LINEAGE.md --entry gen-7.json"],
  run: successionRun(async ({ ctx, args, fail }) => {
    const ledger = resolve(ctx.cwd, args.ledger);
    const text = args.entry === "-" ? await readStdinText(5_000) : readText(ctx, args.entry, NAME);
    if (args.entry === "-" && !text.trim()) return fail("invalid", `${NAME}: --entry - read nothing on stdin`);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return fail("invalid", `${NAME}: the entry is not valid JSON: ${errorMessage(e)}`);
    }
    let section: string;
    try {
      section = appendEntry(ledger, raw);
    } catch (e) {
      if (e instanceof LineageValidationError) return fail("invalid", `${NAME}: ${e.message}`);
      if (e instanceof LineageAppendError || e instanceof LockTimeoutError) return fail("notVerified", `${NAME}: ${e.message}`);
      throw e;
    }
    printDoc(ctx, { appended: true, generation: (raw as Record<string, unknown>).generation, ledger, section }, args.json);
    return "ok";
  }),
});
