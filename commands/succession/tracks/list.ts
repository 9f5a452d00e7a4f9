import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { SHARED_EXITS } from "../../../src/lib/exits.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { ledgerArg, runtime } from "./_shared.ts";

export default defineCommand({
  meta: {
    name: "tracks list",
    description: "List the work ledger's tracks (active ones unless --all), replayed from its events; bad lines are warnings.",
  },
  usage: ["tracks list [--all] [--ledger <path>] [--json]"],
  args: {
    all: { type: "boolean", description: "Include closed tracks" },
    ledger: ledgerArg,
    json: { ...ARGS.json, description: "One compact JSON document {ledger, tracks, warnings}" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "listed (bad ledger lines are warnings on stderr)" },
    ledgerUnavailable: { ...SHARED_EXITS.ledgerUnavailable, meaning: "usage; the work ledger cannot be read" },
  },
  examples: ["mogui tracks list", "mogui tracks list --all --json"],
  async run({ ctx, args, fail }) {
    const rt = runtime(ctx, args.ledger, fail);
    const tracks = args.all ? rt.tracks() : rt.activeTracks();
    if (args.json) {
      printDoc(ctx, { ledger: rt.path, tracks, warnings: rt.warnings }, true);
      return "ok";
    }
    if (!tracks.length) logger(ctx, "").log(`No ${args.all ? "" : "active "}tracks in ${rt.path}.`);
    printLines(
      ctx,
      tracks.map((t) => `${t.track_id}\t${t.status}\t${t.title}${t.note ? `\t(${t.note})` : ""}`),
    );
    return "ok";
  },
});
