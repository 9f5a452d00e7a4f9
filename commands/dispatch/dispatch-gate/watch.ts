import { resolve } from "node:path";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { sortedJson } from "../../../src/lib/output.ts";
import { GATE_EXIT, LEDGER_FLAG, parseIntFlag } from "../../../src/dispatch/gate/cli.ts";
import { checkStall } from "../../../src/dispatch/gate/watch.ts";

const NAME = "dispatch-gate watch";

export default defineMoguiCommand({
  meta: {
    name: NAME,
    description: [
      "Has a worker's log stopped moving? Compares the log's last modification with now: idle longer than",
      "--max-idle seconds is STALLED (exit 3); a missing log is MISSING (exit 2). Prints one JSON document.",
    ].join("\n"),
  },
  usage: ["dispatch-gate watch --log <path> [--max-idle <seconds>]"],
  args: {
    log: { type: "string", valueHint: "path", required: true, description: "The worker's log (sentinel log) to watch" },
    "max-idle": { type: "string", valueHint: "seconds", default: "360", description: "Idle seconds tolerated before STALLED" },
    ledger: { ...LEDGER_FLAG, description: "Accepted for symmetry with the other subcommands (watch does not read the ledger)" },
  },
  examples: ["mogui dispatch-gate watch --log /tmp/worker.log --max-idle 600"],
  async run(ctx, args) {
    const maxIdle = parseIntFlag(NAME, "max-idle", (args["max-idle"] as string | undefined) ?? "360")!;
    if (maxIdle < 0) throw new UsageError(`--max-idle must not be negative (got ${maxIdle})`, NAME);
    const d = checkStall(resolve(ctx.cwd, args.log as string), maxIdle, ctx.now() / 1000);
    ctx.io.stdout(`${sortedJson(d)}\n`);
    if (d.status === "STALLED") {
      ctx.io.stderr("dispatch-gate: STALLED\n");
      return GATE_EXIT.STALLED;
    }
    if (d.status === "MISSING") {
      ctx.io.stderr("dispatch-gate: LOG_MISSING\n");
      return GATE_EXIT.DENY;
    }
    return GATE_EXIT.OK;
  },
});
