/** `mogui acceptance-loop inspect`: print a finished run's report.json exactly as written. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ACCEPTANCE_USAGE } from "./_shared.ts";
import { AcceptanceRunLayout } from "../../../src/evidence/acceptance/layout.ts";
import { defineCommand } from "../../../src/lib/command.ts";

export default defineCommand({
  meta: { name: "acceptance-loop inspect", description: "Print <run-dir>/report.json verbatim (the JSON report of a finished run)." },
  usage: ["acceptance-loop inspect --run-dir <dir>"],
  args: { "run-dir": { type: "string", valueHint: "dir", required: true, description: "The run directory of an acceptance-loop run" } },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "report.json printed" },
    usage: { ...ACCEPTANCE_USAGE, meaning: "usage error, or no report in the run dir" },
  },
  examples: ["mogui acceptance-loop inspect --run-dir runs/my-loop"],
  async run({ ctx, args, fail }) {
    const path = new AcceptanceRunLayout(resolve(ctx.cwd, args["run-dir"])).reportJson;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return fail("usage", `acceptance-loop: no report at ${path}`);
    }
    ctx.io.stdout(text);
    return "ok";
  },
});
