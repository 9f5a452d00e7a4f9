import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { opsRepo } from "../../../src/hooks/session/ops-repo.ts";
import { alwaysOk, HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { roleStateLine, roleStatePath } from "../../../src/hooks/session/session-hooks.ts";

export default defineCommand({
  meta: {
    name: "hook role-state-inject",
    description: [
      "UserPromptSubmit / SessionStart hook: print the master's role state as one context line,",
      "`[role-state] <Current Role> | <Role Lock> | Execution rule: Proposal -> Approval -> Execution. ...`,",
      "read from <ops>/docs/runbooks/role-state.md ($ROLE_STATE_PATH overrides). An unreadable file prints a",
      "WARNING line instead. Always exits 0.",
    ].join("\n"),
  },
  usage: ["hook role-state-inject [--ops <path>] [--input-file <path>] < hook.json"],
  args: {
    ops: { ...ARGS.ops, description: "The ops repository (default $MOGUI_OPS_REPO, else the hook's cwd)" },
    ...HOOK_ARGS,
  },
  examples: ["mogui hook role-state-inject --ops ~/work/acme-ops < /dev/null"],
  exits: alwaysOk("always: the role-state line, or a WARNING line when role-state.md is unreadable"),
  async run({ ctx, args }) {
    const call = startHook(ctx, args, "role-state-inject", "UserPromptSubmit");
    const ops = opsRepo(ctx, args.ops, call.cwd);
    ctx.io.stdout(`${roleStateLine(roleStatePath(ctx, ops))}\n`);
    return "ok";
  },
});
