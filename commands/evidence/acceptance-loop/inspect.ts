/** `mogui acceptance-loop inspect`: print a finished run's report.json exactly as written. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ACCEPTANCE_EXIT } from "../../../src/evidence/acceptance/cli.ts";
import { AcceptanceRunLayout } from "../../../src/evidence/acceptance/layout.ts";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";

export default defineMoguiCommand({
  meta: { name: "acceptance-loop inspect", description: "Print <run-dir>/report.json verbatim (the JSON report of a finished run)." },
  usage: ["acceptance-loop inspect --run-dir <dir>"],
  args: { "run-dir": { type: "string", valueHint: "dir", required: true, description: "The run directory of an acceptance-loop run" } },
  examples: ["mogui acceptance-loop inspect --run-dir runs/my-loop"],
  async run(ctx, args) {
    const path = new AcceptanceRunLayout(resolve(ctx.cwd, args["run-dir"] as string)).reportJson;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      throw new ExitError(ACCEPTANCE_EXIT.CONFIG, `acceptance-loop: no report at ${path}`);
    }
    ctx.io.stdout(text);
    return 0;
  },
});
