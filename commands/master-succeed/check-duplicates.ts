import { defineMoguiCommand } from "../../src/lib/command.ts";
import { emit, selfHandle } from "../../src/succession/io.ts";
import { detectDuplicates } from "../../src/succession/sessions.ts";

export default defineMoguiCommand({
  meta: {
    name: "master-succeed check-duplicates",
    description: [
      "List Orca terminals other than yours whose handle, pty id, session id, worktree, branch or title contain",
      "the session marker (disconnected ones included): a second live master of the same session.",
    ].join("\n"),
  },
  usage: ["master-succeed check-duplicates [--self-handle <handle>] --marker <text> [--json]"],
  args: {
    "self-handle": { type: "string", valueHint: "handle", description: "Your own terminal handle, never reported (default $ORCA_TERMINAL_HANDLE)" },
    marker: { type: "string", valueHint: "text", required: true, description: "Session marker to look for (e.g. the session id)" },
    json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  },
  examples: ["mogui master-succeed check-duplicates --self-handle term_... --marker 3f0c-session-id --json"],
  async run(ctx, args) {
    const duplicates = await detectDuplicates(ctx, args.marker as string, selfHandle(ctx, args["self-handle"] as string | undefined, "master-succeed check-duplicates"));
    emit(ctx, { duplicates }, Boolean(args.json));
    return 0;
  },
});
