/** `mogui acceptance-loop split`: write the split manifest (with pinned regressions applied) without running anything. */
import { resolve } from "node:path";
import { ACCEPTANCE_USAGE, loadForCli, prepareRunDir } from "./_shared.ts";
import { configToDict } from "../../../src/evidence/acceptance/config.ts";
import { renderSplitMarkdown } from "../../../src/evidence/acceptance/casebook.ts";
import { AcceptanceRunLayout } from "../../../src/evidence/acceptance/layout.ts";
import { RegressionLog } from "../../../src/evidence/acceptance/regression-log.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printLines } from "../../../src/lib/output.ts";

export default defineCommand({
  meta: {
    name: "acceptance-loop split",
    description: ["Apply the regression log (if configured) to the case book and write manifest.json, split.json and", "split.md into the output dir (default: the config's run_dir). Prints the path of split.json."].join("\n"),
  },
  usage: ["acceptance-loop split --config <path> [--output-dir <dir>]"],
  args: {
    config: { type: "string", valueHint: "path", required: true, description: "The acceptance config JSON" },
    "output-dir": { type: "string", valueHint: "dir", description: "Where to write the split files (default: run_dir)" },
  },
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "split files written (path of split.json on stdout)" },
    usage: { ...ACCEPTANCE_USAGE, meaning: `${ACCEPTANCE_USAGE.meaning}; the output folder cannot be created or written` },
  },
  notes: ["Pinned regression cases the case book no longer defines come back as holdout; the book's own definition wins."],
  examples: ["mogui acceptance-loop split --config acceptance.json --output-dir /tmp/split"],
  async run({ ctx, args }) {
    const { config, casebook } = loadForCli(ctx, args.config);
    const book = config.regressionLog ? new RegressionLog(config.regressionLog, ctx.now).apply(casebook) : casebook;
    const root = args["output-dir"] ? resolve(ctx.cwd, args["output-dir"]) : config.runDir;
    prepareRunDir(root);
    const layout = new AcceptanceRunLayout(root);
    layout.writeJson(layout.manifest, configToDict(config));
    layout.writeJson(layout.split, book.manifest());
    layout.writeText(layout.splitMd, renderSplitMarkdown(book));
    printLines(ctx, [layout.split]);
    return "ok";
  },
});
