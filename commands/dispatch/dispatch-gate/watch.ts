import { UNBOUNDED_MIN, UNBOUNDED_MAX } from "../../../src/lib/args.ts";
import { resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { LEDGER_FLAG } from "./_shared.ts";
import { checkStall } from "../../../src/dispatch/gate/watch.ts";

export default defineCommand({
  meta: {
    name: "dispatch-gate watch",
    description: ["Has a worker's log stopped moving? Compares the log's last modification with now: idle longer than", "--max-idle seconds is STALLED (exit 3); a missing log is MISSING (exit 2). Prints one JSON document."].join("\n"),
  },
  usage: ["dispatch-gate watch --log <path> [--max-idle <seconds>]"],
  args: {
    log: { type: "string", valueHint: "path", required: true, description: "The worker's log (sentinel log) to watch" },
    // The original: argparse `--max-idle INT`, no bound (issue 26 §3); a negative value is always STALLED.
    "max-idle": { type: "int", min: UNBOUNDED_MIN, max: UNBOUNDED_MAX, valueHint: "seconds", default: 360, description: "Idle seconds tolerated before STALLED" },
    ledger: { ...LEDGER_FLAG, description: "Accepted for symmetry with the other subcommands (watch does not read the ledger)" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "OK: the log moved within --max-idle seconds" },
    missing: { code: 2, meaning: "MISSING: the log does not exist (stderr `dispatch-gate: LOG_MISSING`), or a usage error" },
    stalled: { code: 3, meaning: "STALLED: idle longer than --max-idle (stderr `dispatch-gate: STALLED`)" },
  },
  examples: ["mogui dispatch-gate watch --log /tmp/worker.log --max-idle 600"],
  async run({ ctx, args, fail }) {
    const d = checkStall(resolve(ctx.cwd, args.log), args["max-idle"], ctx.now() / 1000);
    printDoc(ctx, d, true);
    if (d.status === "STALLED") return fail("stalled", "dispatch-gate: STALLED");
    if (d.status === "MISSING") return fail("missing", "dispatch-gate: LOG_MISSING");
    return "ok";
  },
});
