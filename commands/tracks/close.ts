import { defineMoguiCommand } from "../../src/lib/command.ts";
import { idArg, jsonArg, ledgerArg, runtime, write } from "../../src/tracks/command-support.ts";

export default defineMoguiCommand({
  meta: { name: "tracks close", description: "Close an active track with its resolution (status CLOSED) in the work ledger." },
  usage: ["tracks close <track-id> --resolution <text> [--ledger <path>] [--json]"],
  args: {
    "track-id": idArg,
    resolution: { type: "string", valueHint: "text", required: true, description: "How it ended (merged, abandoned, ...)" },
    ledger: ledgerArg,
    json: jsonArg,
  },
  examples: ["mogui tracks close T-12 --resolution 'merged in #40'"],
  async run(ctx, args) {
    const rt = runtime(ctx, args.ledger as string | undefined);
    return write(ctx, Boolean(args.json), () => rt.closeTrack(args["track-id"] as string, args.resolution as string));
  },
});
