import { resolve } from "node:path";
import { readStdinText } from "../../src/bootstrap/stdin.ts";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import { ExitError } from "../../src/lib/errors.ts";
import { LockTimeoutError } from "../../src/lib/lock.ts";
import { appendEntry, FIELDS, LineageAppendError, LineageValidationError } from "../../src/lineage/lineage.ts";
import { emit, readText } from "../../src/succession/io.ts";

const NAME = "lineage append";

async function entryText(ctx: Parameters<typeof readText>[0], src: string): Promise<string> {
  if (src !== "-") return readText(ctx, src, NAME);
  const t = await readStdinText(5_000);
  if (!t.trim()) throw new ExitError(2, `${NAME}: --entry - read nothing on stdin`);
  return t;
}

export default defineMoguiCommand({
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
    ledger: { type: "string", valueHint: "file", required: true, description: "The lineage markdown ledger (created when absent)" },
    entry: { type: "string", valueHint: "file|-", required: true, description: "The entry as a JSON object, from a file or stdin (-)" },
    json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  },
  notes: [
    `Fields: ${FIELDS.map(([k]) => k).join(", ")} (notes optional). generation, repeated_question_count and\n` +
      "reopened_decision_count are non-negative integers; verification is PASS, PARTIAL or FAILED.",
  ],
  examples: ["mogui lineage append --ledger docs/lineage/MASTER-LINEAGE.md --entry gen-7.json"],
  async run(ctx, args) {
    const ledger = resolve(ctx.cwd, args.ledger as string);
    const text = await entryText(ctx, args.entry as string);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new ExitError(2, `${NAME}: the entry is not valid JSON: ${(e as Error).message}`);
    }
    let section: string;
    try {
      section = appendEntry(ledger, raw);
    } catch (e) {
      if (e instanceof LineageValidationError) throw new ExitError(2, `${NAME}: ${e.message}`);
      if (e instanceof LineageAppendError || e instanceof LockTimeoutError) throw new ExitError(3, `${NAME}: ${e.message}`);
      throw e;
    }
    emit(ctx, { appended: true, generation: (raw as Record<string, unknown>).generation, ledger, section }, Boolean(args.json));
    return 0;
  },
});
