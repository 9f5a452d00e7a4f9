/** `mogui adapter doctor`: which host tools this machine has (reference §14). Always exit 0: it reports, it never gates. */
import { doctor } from "../../../src/evidence/adapter/doctor.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";

export default defineCommand({
  meta: {
    name: "adapter doctor",
    description: ["Report which host tools are present: git, node, orca (`orca status --json`), bd and bun. A tool is present", "when its probe exits 0 within the timeout. Always exits 0: this is a report, not a gate."].join("\n"),
  },
  usage: ["adapter doctor [--json]"],
  args: {
    json: { ...ARGS.json, description: "Print one compact JSON document {missing, present, results} (default: one line per tool)" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the presence report was printed (whatever it found)" },
    usage: { code: 2, meaning: "usage error: an unknown flag or argument" },
  },
  notes: ["The orca executable is resolved like everywhere else: ORCA_CLI_COMMAND > orca-dev (ORCA_DEV_REPO_ROOT set) > orca."],
  examples: ["mogui adapter doctor", "mogui adapter doctor --json"],
  async run({ ctx, args }) {
    const report = await doctor(ctx);
    if (args.json) {
      printDoc(ctx, report, true);
      return "ok";
    }
    printLines(
      ctx,
      report.results.map((r) => `${r.present ? "present" : "missing"}\t${r.name}\t${r.detail.split("\n")[0] ?? ""}`),
    );
    return "ok";
  },
});
