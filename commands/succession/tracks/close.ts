import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { idArg, ledgerArg, runtime, TRACK_EXITS, write } from "./_shared.ts";

export default defineCommand({
  meta: { name: "tracks close", description: "Close an active track with its resolution (status CLOSED) in the work ledger." },
  usage: ["tracks close <track-id> --resolution <text> [--ledger <path>] [--json]"],
  args: {
    "track-id": idArg,
    resolution: { type: "string", valueHint: "text", required: true, description: "How it ended (merged, abandoned, ...)" },
    ledger: ledgerArg,
    json: ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: TRACK_EXITS,
  examples: ["mogui tracks close T-12 --resolution 'merged in #40'"],
  async run({ ctx, args, fail }) {
    const rt = runtime(ctx, args.ledger, fail);
    return write(ctx, args.json, fail, () => rt.closeTrack(args["track-id"], args.resolution));
  },
});
