import { defineCommand } from "../../../src/lib/command.ts";
import { trimWarning, unfilteredLargeOutput } from "../../../src/hooks/session/bash-warnings.ts";
import { alwaysOk, HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { toolInput } from "../../../src/hooks/session/stdin.ts";

export default defineCommand({
  meta: {
    name: "hook bash-output-trim-warn",
    description: [
      "PreToolUse hook (Bash): warn about commands whose output can flood the context (`gh api graphql`,",
      "`orca terminal list/read`, `git log/diff/show`, `pytest`, `cat`) when they are not filtered through",
      "head/tail/grep/--jq/python3/wc/json.tool/cut. One `[trim-warn] ...` line on stderr; never blocks.",
    ].join("\n"),
  },
  usage: ["hook bash-output-trim-warn [--input-file <path>] < hook.json"],
  args: HOOK_ARGS,
  examples: [`echo '{"tool_name":"Bash","tool_input":{"command":"git log -p"}}' | mogui hook bash-output-trim-warn`],
  exits: alwaysOk("always (an unfiltered large-output command only prints a warning on stderr)"),
  async run({ ctx, args }) {
    const call = startHook(ctx, args, "bash-output-trim-warn", "PreToolUse");
    const command = toolInput(call.input).command;
    const label = typeof command === "string" ? unfilteredLargeOutput(command) : null;
    // The reference's warning text, pinned byte for byte by its tests; a hook's hot path: written as is.
    if (label) ctx.io.stderr(`${trimWarning(label)}\n`);
    return "ok";
  },
});
