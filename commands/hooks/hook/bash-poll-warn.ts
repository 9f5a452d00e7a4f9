import { defineCommand } from "../../../src/lib/command.ts";
import { POLL_WARNING, pollLoop } from "../../../src/hooks/session/bash-warnings.ts";
import { alwaysOk, HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { toolInput } from "../../../src/hooks/session/stdin.ts";

export default defineCommand({
  meta: {
    name: "hook bash-poll-warn",
    description: [
      "PreToolUse hook (Bash): warn about hand-rolled poll loops. A `while true` (or `until`) loop with `sleep`,",
      "or `sleep N` chained with `orca orchestration check`, `git rev-parse`, `gh pr view` or `curl`, prints",
      "one warning on stderr: event waits belong to `mogui orca-wait`. Never blocks.",
    ].join("\n"),
  },
  usage: ["hook bash-poll-warn [--input-file <path>] < hook.json"],
  args: HOOK_ARGS,
  examples: [`echo '{"tool_name":"Bash","tool_input":{"command":"while true; do sleep 5; done"}}' | mogui hook bash-poll-warn`],
  exits: alwaysOk("always (a poll loop only prints a warning on stderr)"),
  async run({ ctx, args }) {
    const call = startHook(ctx, args, "bash-poll-warn", "PreToolUse");
    const command = toolInput(call.input).command;
    // The reference's warning text, pinned byte for byte by its tests; a hook's hot path: written as is.
    if (typeof command === "string" && pollLoop(command)) ctx.io.stderr(`${POLL_WARNING}\n`);
    return "ok";
  },
});
