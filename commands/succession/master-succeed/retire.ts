import { ARGS, UNBOUNDED_MAX } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { successionRun } from "../_shared.ts";
import { selfHandle } from "../../../src/succession/master/io.ts";
import { processProbe, ttyProbe } from "../../../src/succession/master/probes.ts";
import { RETIRE, retirePredecessor } from "../../../src/succession/master/retire.ts";

const NAME = "master-succeed retire";

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Retire the predecessor master with the three-disappearance proof. Exactly one candidate must match",
      "(exact --target-handle/--target-pty-id/--target-session-id, else a substring --expected); yourself, zero",
      "and several candidates are refused. Dry run unless --execute; with it the terminal is closed and pane,",
      "process (`ps -p`) and tty (`ps -t`) disappearance are measured. CLOSED only when all three were measured.",
    ].join("\n"),
  },
  usage: ["master-succeed retire [--self-handle <handle>] (--target-handle <h> | --target-pty-id <id> | --target-session-id <id> | --expected <text>)", "    [--target-pid <pid>] [--target-tty <tty>] [--execute] [--settle-ms <ms>] [--json]"],
  args: {
    "self-handle": { type: "string", valueHint: "handle", description: "Your own terminal handle, never closed (default $ORCA_TERMINAL_HANDLE)" },
    expected: { type: "string", valueHint: "text", description: "Substring selector over handle, pty id, session id, worktree, branch, title" },
    "target-handle": { type: "string", valueHint: "handle", description: "Exact terminal handle of the predecessor" },
    "target-pty-id": { type: "string", valueHint: "id", description: "Exact pty id of the predecessor" },
    "target-session-id": { type: "string", valueHint: "id", description: "Exact session id of the predecessor" },
    // The original: `--target-pid INT`, `target_pid <= 0` refused; no upper bound (issue 26 §3).
    "target-pid": { type: "int", min: 1, max: UNBOUNDED_MAX, valueHint: "pid", description: "Predecessor agent pid, measured by you (folder panes report none)" },
    "target-tty": { type: "string", valueHint: "tty", description: "Predecessor tty, e.g. /dev/pts/3 or ttys004" },
    execute: { type: "boolean", description: "Really close and measure (default: dry run)" },
    "settle-ms": { type: "int", min: 0, max: 3_600_000, valueHint: "ms", description: "Re-probe a still-present pid/tty for this long after close", default: 2000 },
    json: ARGS.json,
  },
  notes: ["disappearances: measured = gone; still_present = survived (REFUSED); skipped:<why> = could not be measured\n" + "(no pid/tty given, or `ps` missing or timed out), which caps the result at CLOSED_PARTIAL."],
  mcp: { readOnly: false, destructive: true, idempotent: false, openWorld: false, confirmWith: { remove: "execute" } },
  exits: {
    ok: { code: 0, meaning: "DRY_RUN, CLOSED or CLOSED_PARTIAL" },
    usage: { code: 2, meaning: "usage; self matched as a candidate; bad --target-pid; orca terminal list failed" },
    refused: { code: 3, meaning: "REFUSED: no or several candidates, close failed, or pane/process/tty still present (D20)" },
  },
  examples: [
    "mogui master-succeed retire --self-handle term_me --target-handle term_old --target-pid 4242 --target-tty /dev/pts/3",
    "mogui master-succeed retire --self-handle term_me --target-handle term_old --target-pid 4242 --target-tty /dev/pts/3 --execute --json",
  ],
  run: successionRun(async ({ ctx, args }) => {
    const report = await retirePredecessor(ctx, {
      selfHandle: selfHandle(ctx, args["self-handle"], NAME),
      selector: args.expected,
      execute: args.execute,
      targetHandle: args["target-handle"],
      targetPtyId: args["target-pty-id"],
      targetSessionId: args["target-session-id"],
      targetPid: args["target-pid"],
      targetTty: args["target-tty"],
      settleMs: args["settle-ms"],
      processProbe: processProbe(ctx),
      ttyProbe: ttyProbe(ctx),
    });
    printDoc(ctx, report, args.json);
    // D20: a refusal is a failure the caller must see in the exit status, not only in the JSON.
    return report.status === RETIRE.REFUSED ? "refused" : "ok";
  }),
});
