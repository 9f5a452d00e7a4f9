/** `mogui acceptance-loop validate`: load the config and the case book, print what would run. */
import { ACCEPTANCE_USAGE, loadForCli } from "./_shared.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc } from "../../../src/lib/output.ts";

export default defineCommand({
  meta: {
    name: "acceptance-loop validate",
    description: ["Load an acceptance config and its case book and print a summary: case counts per split, the proposer", "runtime, the run dir and the workspace root. Any config or case book problem is exit 2 naming the file."].join("\n"),
  },
  usage: ["acceptance-loop validate --config <path> [--json]"],
  args: {
    config: { type: "string", valueHint: "path", required: true, description: "The acceptance config JSON" },
    json: ARGS.json,
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the config and the case book are valid (summary on stdout)" },
    usage: ACCEPTANCE_USAGE,
  },
  notes: ["The case book must define train and holdout cases, with the same seed strata in both; ids are unique.\n" + "Split aliases: visible = train, private = holdout, acceptance = scorecard."],
  examples: ["mogui acceptance-loop validate --config acceptance.json"],
  async run({ ctx, args }) {
    const { config, casebook } = loadForCli(ctx, args.config);
    const summary = {
      name: config.name,
      train: casebook.casesForSplit("train").length,
      holdout: casebook.casesForSplit("holdout").length,
      scorecard: casebook.casesForSplit("scorecard").length,
      max_iterations: config.maxIterations,
      proposer_runtime: config.proposerRuntime,
      regression_log: config.regressionLog,
      run_dir: config.runDir,
      workspace_root: config.workspaceRoot,
    };
    printDoc(ctx, summary, args.json);
    return "ok";
  },
});
