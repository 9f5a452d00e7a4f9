/** `mogui adapter doctor`: which host tools this machine has (reference §14). Always exit 0: it reports, it never gates. */
import { doctor } from "../../../src/evidence/adapter/doctor.ts";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";

export default defineMoguiCommand({
  meta: {
    name: "adapter doctor",
    description: [
      "Report which host tools are present: git, node, orca (`orca status --json`), bd and bun. A tool is present",
      "when its probe exits 0 within the timeout. Always exits 0: this is a report, not a gate.",
    ].join("\n"),
  },
  usage: ["adapter doctor [--json]"],
  args: {
    json: { type: "boolean", description: "Print one compact JSON document {missing, present, results} (default: one line per tool)" },
  },
  notes: ["The orca executable is resolved like everywhere else: ORCA_CLI_COMMAND > orca-dev (ORCA_DEV_REPO_ROOT set) > orca."],
  examples: ["mogui adapter doctor", "mogui adapter doctor --json"],
  async run(ctx, args) {
    const report = await doctor(ctx);
    if (args.json) {
      printJson(ctx, sortKeys(report), true);
      return 0;
    }
    printLines(
      ctx,
      report.results.map((r) => `${r.present ? "present" : "missing"}\t${r.name}\t${r.detail.split("\n")[0] ?? ""}`),
    );
    return 0;
  },
});
