import { defineMoguiCommand } from "../../src/lib/command.ts";
import { printLines } from "../../src/lib/output.ts";
import { emit } from "../../src/succession/io.ts";
import { jsonArg, ledgerArg, runtime } from "../../src/tracks/command-support.ts";

export default defineMoguiCommand({
  meta: {
    name: "tracks list",
    description: "List the work ledger's tracks (active ones unless --all), replayed from its events; bad lines are warnings.",
  },
  usage: ["tracks list [--all] [--ledger <path>] [--json]"],
  args: {
    all: { type: "boolean", description: "Include closed tracks" },
    ledger: ledgerArg,
    json: { ...jsonArg, description: "One compact JSON document {ledger, tracks, warnings}" },
  },
  examples: ["mogui tracks list", "mogui tracks list --all --json"],
  async run(ctx, args) {
    const rt = runtime(ctx, args.ledger as string | undefined);
    const tracks = args.all ? rt.tracks() : rt.activeTracks();
    if (args.json) {
      emit(ctx, { ledger: rt.path, tracks, warnings: rt.warnings }, true);
      return 0;
    }
    if (!tracks.length) ctx.io.stderr(`No ${args.all ? "" : "active "}tracks in ${rt.path}.\n`);
    printLines(ctx, tracks.map((t) => `${t.track_id}\t${t.status}\t${t.title}${t.note ? `\t(${t.note})` : ""}`));
    return 0;
  },
});
