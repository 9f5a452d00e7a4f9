import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { ADVISORY_RATIO, detectTrigger, IMMEDIATE_PHRASES } from "../../../src/succession/master/trigger.ts";

const NAME = "master-succeed detect";

/** A ratio is a fraction, not a whole number: parsed here (the `int` type does not apply). */
function ratio(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(n)) throw new UsageError(`--context-ratio must be a number (got '${raw}')`, NAME);
  return n;
}

export default defineCommand({
  meta: {
    name: NAME,
    description: ["Classify a succession trigger. An explicit instruction is IMMEDIATE; a context ratio >= 0.60 or a", "milestone is only ADVISORY (propose succession, never start it); anything else is NONE. Never spawns."].join("\n"),
  },
  usage: ["master-succeed detect <text> [--context-ratio <ratio>] [--milestone <text>] [--json]"],
  args: {
    text: { type: "positional", required: true, description: "The instruction or message to classify" },
    "context-ratio": { type: "string", valueHint: "ratio", description: `Context window use, 0..1 (ADVISORY at >= ${ADVISORY_RATIO.toFixed(2)})` },
    milestone: { type: "string", valueHint: "text", description: "A natural milestone that was reached (ADVISORY)" },
    json: ARGS.json,
  },
  notes: [`IMMEDIATE phrases (case-insensitive substrings): ${IMMEDIATE_PHRASES.map((p) => `'${p}'`).join(", ")}.`],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "classified (the status is in the JSON)" },
    usage: { code: 2, meaning: "usage: unknown flag, missing or conflicting flags, a malformed value" },
  },
  examples: ['mogui master-succeed detect "succession now" --json', 'mogui master-succeed detect "status?" --context-ratio 0.65'],
  async run({ ctx, args }) {
    const decision = detectTrigger(args.text, {
      contextRatio: ratio(args["context-ratio"]),
      milestone: args.milestone?.trim() || undefined,
    });
    printDoc(ctx, decision, args.json);
    return "ok";
  },
});
