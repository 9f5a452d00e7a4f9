import { defineMoguiCommand } from "../../src/lib/command.ts";
import { idArg, jsonArg, ledgerArg, runtime, write } from "../../src/tracks/command-support.ts";

export default defineMoguiCommand({
  meta: { name: "tracks update", description: "Set an active track's status (and an optional note) in the work ledger." },
  usage: ["tracks update <track-id> --status <status> [--note <text>] [--ledger <path>] [--json]"],
  args: {
    "track-id": idArg,
    status: { type: "string", valueHint: "status", required: true, description: "New status, e.g. IN_PROGRESS, BLOCKED" },
    note: { type: "string", valueHint: "text", description: "A one-line note (replaces the previous note)" },
    ledger: ledgerArg,
    json: jsonArg,
  },
  examples: ["mogui tracks update T-12 --status BLOCKED --note 'waiting for review'"],
  async run(ctx, args) {
    const rt = runtime(ctx, args.ledger as string | undefined);
    return write(ctx, Boolean(args.json), () => rt.updateTrack(args["track-id"] as string, args.status as string, (args.note as string | undefined) ?? ""));
  },
});
