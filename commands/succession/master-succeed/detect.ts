import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { emit } from "../../../src/succession/master/io.ts";
import { ADVISORY_RATIO, detectTrigger, IMMEDIATE_PHRASES } from "../../../src/succession/master/trigger.ts";

const NAME = "master-succeed detect";

function ratio(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(n)) throw new UsageError(`--context-ratio must be a number (got '${raw}')`, NAME);
  return n;
}

export default defineMoguiCommand({
  meta: {
    name: NAME,
    description: [
      "Classify a succession trigger. An explicit instruction is IMMEDIATE; a context ratio >= 0.60 or a",
      "milestone is only ADVISORY (propose succession, never start it); anything else is NONE. Never spawns.",
    ].join("\n"),
  },
  usage: ["master-succeed detect <text> [--context-ratio <ratio>] [--milestone <text>] [--json]"],
  args: {
    text: { type: "positional", required: true, description: "The instruction or message to classify" },
    "context-ratio": { type: "string", valueHint: "ratio", description: `Context window use, 0..1 (ADVISORY at >= ${ADVISORY_RATIO.toFixed(2)})` },
    milestone: { type: "string", valueHint: "text", description: "A natural milestone that was reached (ADVISORY)" },
    json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  },
  notes: [`IMMEDIATE phrases (case-insensitive substrings): ${IMMEDIATE_PHRASES.map((p) => `'${p}'`).join(", ")}.`],
  examples: ['mogui master-succeed detect "succession now" --json', 'mogui master-succeed detect "status?" --context-ratio 0.65'],
  async run(ctx, args) {
    const decision = detectTrigger(args.text as string, {
      contextRatio: ratio(args["context-ratio"] as string | undefined),
      milestone: (args.milestone as string | undefined)?.trim() || undefined,
    });
    emit(ctx, decision, Boolean(args.json));
    return 0;
  },
});
