import { defineMoguiCommand } from "../../src/lib/command.ts";
import { ExitError, UsageError } from "../../src/lib/errors.ts";
import { ORCA_MESSAGE_TYPES, orcaWait, WaitFailure } from "../../src/hooks/ops/orca-wait.ts";

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
    types: { type: "string", valueHint: "a,b", description: "Only these Orca message types: status, dispatch, worker_done, merge_ready, escalation, handoff, decision_gate, question, heartbeat" },
  },
  notes: [
    [
      "A wait that times out prints nothing and exits 0 (Orca treats a timeout as a checkpoint); the stderr line",
      "says so. The orca executable: $ORCA_CLI_COMMAND > orca-dev when $ORCA_DEV_REPO_ROOT is set > orca (D5).",
      "--types names Orca's message types, not mogui's ledger events (dispatch_completed is a ledger row, never a message);",
      "an unknown type is a usage error. A failed check prints Orca's error code and message from its error envelope.",
    ].join("\n"),
  ],
  examples: ["mogui orca-wait --types worker_done,escalation", "mogui orca-wait --once --timeout-ms 60000"],
  async run(ctx, args) {
    const raw = args["timeout-ms"] as string | undefined;
    if (raw !== undefined && (!/^\d+$/.test(raw) || Number(raw) < 1)) throw new UsageError(`--timeout-ms takes a whole number of milliseconds (got '${raw}')`, "orca-wait");
    const types = args.types as string | undefined;
    if (types !== undefined && !/^[a-z_]+(,[a-z_]+)*$/.test(types)) throw new UsageError(`--types takes a comma-separated list of message types (got '${types}')`, "orca-wait");
    // Orca would just never match an unknown type and block for the whole wait (docs/orca-cli.md §6).
    const unknown = types?.split(",").filter((t) => !ORCA_MESSAGE_TYPES.includes(t)) ?? [];
    if (unknown.length) throw new UsageError(`--types: '${unknown.join(",")}' is not an Orca message type (valid: ${ORCA_MESSAGE_TYPES.join(", ")})`, "orca-wait");
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
