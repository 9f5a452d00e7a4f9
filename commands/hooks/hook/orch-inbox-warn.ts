import { defineCommand } from "../../../src/lib/command.ts";
import { alwaysOk, HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { inboxLine } from "../../../src/hooks/session/session-hooks.ts";

export default defineCommand({
  meta: {
    name: "hook orch-inbox-warn",
    description: [
      "UserPromptSubmit hook: peek at the coordinator's Orca inbox (`orca orchestration check --peek --json`,",
      "read-only) and, when unread messages wait, print `[orch-inbox] unacked=<n> | subject ; subject` (the",
      "first three subjects, 48 characters each). Silent when the inbox is empty or Orca is unreachable;",
      "always exits 0.",
    ].join("\n"),
  },
  usage: ["hook orch-inbox-warn [--input-file <path>] < hook.json"],
  args: HOOK_ARGS,
  notes: ["The orca executable: $ORCA_CLI_COMMAND > orca-dev when $ORCA_DEV_REPO_ROOT is set > orca (D5)."],
  examples: ["mogui hook orch-inbox-warn < /dev/null"],
  exits: alwaysOk("always: one line when unread mail waits; silent when empty or Orca is unreachable"),
  async run({ ctx, args }) {
    const call = startHook(ctx, args, "orch-inbox-warn", "UserPromptSubmit");
    const line = await inboxLine(ctx, call.cwd);
    if (line) ctx.io.stdout(`${line}\n`);
    return "ok";
  },
});
