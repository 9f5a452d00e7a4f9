import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { idArg, ledgerArg, runtime, TRACK_EXITS, write } from "./_shared.ts";

export default defineCommand({
  meta: {
    name: "tracks register",
    description: "Register a work track in the work ledger (a closed track may be registered again; an active one may not).",
  },
  usage: ["tracks register <track-id> --title <text> [--ref <ref>]... [--ledger <path>] [--json]"],
  args: {
    "track-id": idArg,
    title: { type: "string", valueHint: "text", required: true, description: "What the track is about" },
    ref: { type: "string", valueHint: "ref", multiple: true, description: "A reference (issue, PR, path); repeatable" },
    ledger: ledgerArg,
    json: ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: TRACK_EXITS,
  examples: ['mogui tracks register T-12 --title "Ship the parser" --ref gh#12'],
  async run({ ctx, args, fail }) {
    const rt = runtime(ctx, args.ledger, fail);
    return write(ctx, args.json, fail, () => rt.registerTrack(args["track-id"], args.title, args.ref));
  },
});
