import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { idArg, ledgerArg, runtime, TRACK_EXITS, write } from "./_shared.ts";

export default defineCommand({
  meta: { name: "tracks update", description: "Set an active track's status (and an optional note) in the work ledger." },
  usage: ["tracks update <track-id> --status <status> [--note <text>] [--ledger <path>] [--json]"],
  args: {
    "track-id": idArg,
    status: { type: "string", valueHint: "status", required: true, description: "New status, e.g. IN_PROGRESS, BLOCKED" },
    note: { type: "string", valueHint: "text", default: "", description: "A one-line note (replaces the previous note)" },
    ledger: ledgerArg,
    json: ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: TRACK_EXITS,
  examples: ["mogui tracks update T-12 --status BLOCKED --note 'waiting for review'"],
  async run({ ctx, args, fail }) {
    const rt = runtime(ctx, args.ledger, fail);
    return write(ctx, args.json, fail, () => rt.updateTrack(args["track-id"], args.status, args.note));
  },
});
