/** `mogui approval classify`: the gate class of an action (reference §15), so scripts can ask before they act. */
import { ActionSpecError, actionSpec, classify, requiresHuman } from "../../../src/evidence/approval/gates.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";

export default defineCommand({
  meta: {
    name: "approval classify",
    description: [
      "Print the approval gate class of an action described by its flags: G0_READ_ONLY, G1_REVERSIBLE_LOCAL,",
      "G2_SHARED_STATE or G3_IRREVERSIBLE. The strictest class wins; an action with no flag at all is",
      "G2_SHARED_STATE (fail closed). G2 and G3 need a HUMAN approval.",
    ].join("\n"),
  },
  usage: ["approval classify [--read-only] [--writes-local] [--writes-shared] [--irreversible] [--description <text>] [--json]"],
  args: {
    "read-only": { type: "boolean", description: "The action only reads" },
    "writes-local": { type: "boolean", description: "The action writes local, reversible state" },
    "writes-shared": { type: "boolean", description: "The action writes shared state (a remote, a ledger others read, a PR)" },
    irreversible: { type: "boolean", description: "The action cannot be undone" },
    description: { type: "string", valueHint: "text", description: "What the action is (echoed in --json)" },
    json: { ...ARGS.json, description: "Print {action, gate, requires_human} as one compact JSON document" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the gate class was printed" },
    usage: { code: 2, meaning: "usage error: --read-only combined with a write or --irreversible" },
  },
  examples: ["mogui approval classify --read-only", "mogui approval classify --writes-shared --json", "mogui approval classify --irreversible"],
  async run({ ctx, args }) {
    const action = actionSpec({
      readOnly: args["read-only"],
      writesLocal: args["writes-local"],
      writesShared: args["writes-shared"],
      irreversible: args.irreversible,
      description: args.description ?? "",
    });
    let gate;
    try {
      gate = classify(action);
    } catch (e) {
      if (e instanceof ActionSpecError) throw new UsageError(`--read-only cannot be combined with --writes-local, --writes-shared or --irreversible`, "approval classify");
      throw e;
    }
    if (args.json) {
      const a = { read_only: action.readOnly, writes_local: action.writesLocal, writes_shared: action.writesShared, irreversible: action.irreversible, description: action.description };
      printDoc(ctx, { action: a, gate, requires_human: requiresHuman(gate) }, true);
    } else printLines(ctx, [gate]);
    return "ok";
  },
});
