import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { emit, selfHandle } from "../../../src/succession/master/io.ts";
import { duplicateReport } from "../../../src/succession/master/sessions.ts";

export default defineMoguiCommand({
  meta: {
    name: "master-succeed check-duplicates",
    description: [
      "List Orca terminals other than yours whose handle, pty id, session id, worktree, branch or title contain",
      "the session marker (disconnected ones included): a second live master of the same session.",
    ].join("\n"),
  },
  notes: [
    "It relies on the fields `orca terminal list` rows carry; `relies_on` lists them. Orca's documented summary has\n" +
      "no sessionId, processId or pid: when no row carries them, `session_id` / `process_id` say \"unmeasured\" (and a\n" +
      "stderr line says so): a marker only a session id would show is then not seen. Put the marker in the title.",
  ],
  usage: ["master-succeed check-duplicates [--self-handle <handle>] --marker <text> [--json]"],
  args: {
    "self-handle": { type: "string", valueHint: "handle", description: "Your own terminal handle, never reported (default $ORCA_TERMINAL_HANDLE)" },
    marker: { type: "string", valueHint: "text", required: true, description: "Session marker to look for (e.g. the session id)" },
    json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  },
  examples: ["mogui master-succeed check-duplicates --self-handle term_... --marker 3f0c-session-id --json"],
  async run(ctx, args) {
    const report = await duplicateReport(ctx, args.marker as string, selfHandle(ctx, args["self-handle"] as string | undefined, "master-succeed check-duplicates"));
    const unmeasured = (["session_id", "process_id"] as const).filter((k) => report[k] === "unmeasured");
    if (unmeasured.length) {
      ctx.io.stderr(`check-duplicates: ${unmeasured.join(", ")} unmeasured (orca terminal list rows carry no sessionId/processId/pid); matched on ${report.relies_on.join(", ")}\n`);
    }
    emit(ctx, report, Boolean(args.json));
    return 0;
  },
});
