import { ARGS, UNBOUNDED_MAX } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { forward } from "../../src/lib/exits.ts";
import { logger } from "../../src/lib/log.ts";
import { ORCA_MESSAGE_TYPES, orcaWait, WaitFailure } from "../../src/hooks/orca/orca-wait.ts";

const DEFAULT_TIMEOUT_MS = 3_300_000;

export default defineCommand({
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
    "timeout-ms": {
      ...ARGS.timeoutMs,
      // The original (bash) hands any N to orca: no bound of its own (issue 26 §3).
      min: 0,
      max: UNBOUNDED_MAX,
      valueHint: "n",
      default: DEFAULT_TIMEOUT_MS,
      description: "How long the blocking check waits, in ms (55 min by default)",
    },
    types: { type: "string", valueHint: "a,b", description: "Only these Orca message types: status, dispatch, worker_done, merge_ready, escalation, handoff, decision_gate, question, heartbeat" },
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "messages printed, or the wait timed out (a checkpoint, as in Orca)" },
    usage: { code: 2, meaning: "usage error (unknown flag, bad --timeout-ms, or a --types entry that is not an Orca message type)" },
    orca: { code: "N", meaning: "orca's own non-zero exit code when `orchestration check` fails (1 for an error envelope); 124 when orca did not answer within the wait plus 30 s; 127 when the orca executable was not found" },
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
  async run({ ctx, args }) {
    const { types } = args;
    if (types !== undefined && !/^[a-z_]+(,[a-z_]+)*$/.test(types)) throw new UsageError(`--types takes a comma-separated list of message types (got '${types}')`, "orca-wait");
    // Orca would just never match an unknown type and block for the whole wait (docs/orca-cli.md §6).
    const unknown = types?.split(",").filter((t) => !ORCA_MESSAGE_TYPES.includes(t)) ?? [];
    if (unknown.length) throw new UsageError(`--types: '${unknown.join(",")}' is not an Orca message type (valid: ${ORCA_MESSAGE_TYPES.join(", ")})`, "orca-wait");
    const timeoutMs = args["timeout-ms"];
    try {
      const n = await orcaWait(ctx, { once: args.once, timeoutMs, types }, (l) => ctx.io.stdout(`${l}\n`));
      if (n === 0) logger(ctx, "orca-wait").log(`no message within ${timeoutMs} ms`);
      return "ok";
    } catch (e) {
      if (!(e instanceof WaitFailure)) throw e;
      // orca's own status (or 124/127 for no answer / no executable) is handed through.
      logger(ctx, "").log(e.message);
      return forward(e.code);
    }
  },
});
