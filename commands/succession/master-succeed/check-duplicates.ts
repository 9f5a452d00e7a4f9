import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { successionRun } from "../_shared.ts";
import { selfHandle } from "../../../src/succession/master/io.ts";
import { duplicateReport } from "../../../src/succession/master/sessions.ts";

export default defineCommand({
  meta: {
    name: "master-succeed check-duplicates",
    description: ["List Orca terminals other than yours whose handle, pty id, session id, worktree, branch or title contain", "the session marker (disconnected ones included): a second live master of the same session."].join("\n"),
  },
  notes: [
    "It relies on the fields `orca terminal list` rows carry; `relies_on` lists them. Orca's documented summary has\n" +
      'no sessionId, processId or pid: when no row carries them, `session_id` / `process_id` say "unmeasured" (and a\n' +
      "stderr line says so): a marker only a session id would show is then not seen. Put the marker in the title.",
  ],
  usage: ["master-succeed check-duplicates [--self-handle <handle>] --marker <text> [--json]"],
  args: {
    "self-handle": { type: "string", valueHint: "handle", description: "Your own terminal handle, never reported (default $ORCA_TERMINAL_HANDLE)" },
    marker: { type: "string", valueHint: "text", required: true, description: "Session marker to look for (e.g. the session id)" },
    json: ARGS.json,
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "listed (possibly none)" },
    usage: { code: 2, meaning: "usage; orca terminal list failed or printed unusable JSON" },
  },
  examples: ["mogui master-succeed check-duplicates --self-handle term_... --marker 3f0c-session-id --json"],
  run: successionRun(async ({ ctx, args }) => {
    const report = await duplicateReport(ctx, args.marker, selfHandle(ctx, args["self-handle"], "master-succeed check-duplicates"));
    const unmeasured = (["session_id", "process_id"] as const).filter((k) => report[k] === "unmeasured");
    if (unmeasured.length) {
      // Text pinned by test/e2e/dispatch/orca-contract.test.ts (no "warning:" tag).
      logger(ctx, "check-duplicates").log(`${unmeasured.join(", ")} unmeasured (orca terminal list rows carry no sessionId/processId/pid); matched on ${report.relies_on.join(", ")}`);
    }
    printDoc(ctx, report, args.json);
    return "ok";
  }),
});
