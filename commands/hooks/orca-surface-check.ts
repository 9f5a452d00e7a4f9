import { readFileSync, writeFileSync } from "node:fs";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc } from "../../src/lib/output.ts";
import { baselineFrom, compareSurface, measureSurface, parseBaseline, Unmeasurable, type Baseline } from "../../src/hooks/orca/orca-surface.ts";
import { errnoCode } from "../../src/lib/errors.ts";

const BASELINE_ENV = "BASELINE_FILE";
const BASELINE_NAME = "orca-surface-baseline.json";

function readBaseline(path: string, required: boolean): Baseline | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (!required && errnoCode(e) === "ENOENT") return null;
    throw new Unmeasurable(`baseline ${path} unreadable (${errnoCode(e)}); record one with --write-baseline`);
  }
  return parseBaseline(text, path);
}

export default defineCommand({
  meta: {
    name: "orca-surface-check",
    description: [
      "Has the Orca CLI surface changed since the recorded baseline? Compares the app version (orca status),",
      "the agent-context schema version, the command count and a fingerprint of each watched command",
      "(sha256 of its name, sorted flags and usage). Unchanged: `[orca-surface] <ver> · schema v<n> · <k>",
      "watched commands verified` (silent with QUIET=1). Drift: one `[orca-surface] DRIFT: ...` line per change.",
    ].join("\n"),
  },
  usage: ["orca-surface-check [--baseline <path>] [--write-baseline] [--json]"],
  args: {
    baseline: { type: "string", valueHint: "path", description: `Baseline file (default $${BASELINE_ENV}, else $MOGUI_HOME/${BASELINE_NAME})` },
    "write-baseline": { type: "boolean", description: "Record the current surface as the baseline (keeps the watched list) and exit 0" },
    json: { ...ARGS.json, description: "Print {appVersion, schemaVersion, commandCount, watched, drift:[...]}" },
  },
  examples: ["mogui orca-surface-check", "mogui orca-surface-check --write-baseline"],
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "unchanged (or --write-baseline recorded the surface)" },
    drift: { code: 1, meaning: "drift: one [orca-surface] DRIFT line per change on stderr" },
    unmeasurable: { code: 2, meaning: "unmeasurable: orca missing, failing or not running; baseline missing or malformed" },
    usage: { code: 2, meaning: "usage error (unknown flag)" },
  },
  async run({ ctx, args, fail }) {
    const path = resolveStatePath(ctx, args.baseline, BASELINE_ENV, BASELINE_NAME);
    try {
      const surface = await measureSurface(ctx);
      if (args["write-baseline"]) {
        const b = baselineFrom(surface, readBaseline(path, false));
        writeFileSync(path, `${JSON.stringify(b, null, 2)}\n`);
        logger(ctx, "").log(`[orca-surface] baseline written: ${path} (${Object.keys(b.watched).length} watched commands)`);
        return "ok";
      }
      const base = readBaseline(path, true)!;
      const drift = compareSurface(base, surface);
      const k = Object.keys(base.watched).length;
      if (args.json) printDoc(ctx, { appVersion: surface.appVersion, commandCount: surface.commandCount, drift, schemaVersion: surface.schemaVersion, watched: k }, true);
      for (const d of drift) logger(ctx, "").log(`[orca-surface] DRIFT: ${d}`);
      if (drift.length) return "drift";
      if (!args.json && ctx.env.QUIET !== "1") ctx.io.stdout(`[orca-surface] ${surface.appVersion} · schema v${surface.schemaVersion ?? "?"} · ${k} watched commands verified\n`);
      return "ok";
    } catch (e) {
      if (e instanceof Unmeasurable) return fail("unmeasurable", `[orca-surface] UNMEASURABLE: ${e.message}`);
      throw e;
    }
  },
});
