import { defineMoguiCommand } from "../src/lib/command.ts";
import { ExitError, UsageError } from "../src/lib/errors.ts";
import { orcaWait, WaitFailure } from "../src/ops/orca-wait.ts";

const DEFAULT_TIMEOUT_MS = 3_300_000;

export default defineMoguiCommand({
  meta: {
    name: "orca-wait",
    description: [
      "Wait for Orca orchestration messages the sanctioned way (no sleep loops, no jq). First drain the unread",
      "backlog (short `orca orchestration check --unread --wait` calls, at most 100); when it was empty, block",
      "on one `check --unread --wait --timeout-ms N` for the next message. Prints `type|id|from|subject` per",
      "message. --once skips the drain and does the single blocking check.",
    ].join("\n"),
  },
  usage: ["orca-wait [--once] [--timeout-ms <n>] [--types <a,b>]"],
  args: {
    once: { type: "boolean", description: "No backlog drain: one blocking check" },
    "timeout-ms": { type: "string", valueHint: "n", description: `How long the blocking check waits (default ${DEFAULT_TIMEOUT_MS}, 55 min)` },
    types: { type: "string", valueHint: "a,b", description: "Only these message types (worker_done, escalation, ...)" },
  },
  notes: [
    [
      "A wait that times out prints nothing and exits 0 (Orca treats a timeout as a checkpoint); the stderr line",
      "says so. The orca executable: $ORCA_CLI_COMMAND > orca-dev when $ORCA_DEV_REPO_ROOT is set > orca (D5).",
    ].join("\n"),
  ],
  examples: ["mogui orca-wait --types worker_done,escalation", "mogui orca-wait --once --timeout-ms 60000"],
  async run(ctx, args) {
    const raw = args["timeout-ms"] as string | undefined;
    if (raw !== undefined && (!/^\d+$/.test(raw) || Number(raw) < 1)) throw new UsageError(`--timeout-ms takes a whole number of milliseconds (got '${raw}')`, "orca-wait");
    const types = args.types as string | undefined;
    if (types !== undefined && !/^[a-z_]+(,[a-z_]+)*$/.test(types)) throw new UsageError(`--types takes a comma-separated list of message types (got '${types}')`, "orca-wait");
    const timeoutMs = raw ? Number(raw) : DEFAULT_TIMEOUT_MS;
    try {
      const n = await orcaWait(ctx, { once: Boolean(args.once), timeoutMs, types }, (l) => ctx.io.stdout(`${l}\n`));
      if (n === 0) ctx.io.stderr(`orca-wait: no message within ${timeoutMs} ms\n`);
      return 0;
    } catch (e) {
      if (e instanceof WaitFailure) throw new ExitError(e.code, e.message);
      throw e;
    }
  },
});
