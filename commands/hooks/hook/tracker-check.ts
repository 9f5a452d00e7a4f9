import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { opsRepo } from "../../../src/hooks/session/ops-repo.ts";
import { alwaysOk, HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { trackerLines } from "../../../src/hooks/session/session-hooks.ts";

export default defineCommand({
  meta: {
    name: "hook tracker-check",
    description: [
      "SessionStart hook: check that the issue tracker (`bd where`, run from the session's cwd) resolves to",
      "<ops>/.beads and that BEADS_DIR agrees, then print the active protections: guard suppressions",
      "($MOGUI_HOME/guard-suppressions.jsonl) and dispatch-ledger rows that used <ops>/model-tier-policy.json.",
      "Problems are WARNING lines; always exits 0.",
    ].join("\n"),
  },
  usage: ["hook tracker-check [--ops <path>] [--input-file <path>] < hook.json"],
  args: {
    ops: { ...ARGS.ops, description: "The ops repository (default $MOGUI_OPS_REPO, else the hook's cwd)" },
    ...HOOK_ARGS,
  },
  examples: ["mogui hook tracker-check --ops ~/work/acme-ops < /dev/null"],
  exits: alwaysOk("always: the tracker line (OK or WARNING) and the protections line"),
  async run({ ctx, args }) {
    const call = startHook(ctx, args, "tracker-check", "SessionStart");
    const ops = opsRepo(ctx, args.ops, call.cwd);
    const lines = await trackerLines(ctx, ops, call.cwd);
    ctx.io.stdout(`${lines.join("\n")}\n`);
    return "ok";
  },
});
