import { defineCommand } from "../../../src/lib/command.ts";
import { alwaysOk, HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { compactionProbe, contextQualityLog } from "../../../src/hooks/session/session-hooks.ts";
import { str } from "../../../src/hooks/session/stdin.ts";

export default defineCommand({
  meta: {
    name: "hook compaction-probe",
    description: [
      'SessionStart(compact) hook: right after a context compaction (stdin {"source":"compact"}), print the',
      'host JSON {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":...}} asking the',
      "agent to answer the recall probe R1..R4 and record the result in the context-quality ledger",
      "($CONTEXT_QUALITY_LOG, else $MOGUI_HOME/monitors/mg/context-quality.jsonl). Any other input: silent.",
      "Always exits 0.",
    ].join("\n"),
  },
  usage: ["hook compaction-probe [--input-file <path>] < hook.json"],
  args: HOOK_ARGS,
  examples: [`echo '{"source":"compact"}' | mogui hook compaction-probe`],
  exits: alwaysOk("always: the probe JSON after a compaction, silence otherwise"),
  async run({ ctx, args }) {
    const call = startHook(ctx, args, "compaction-probe", "SessionStart");
    if (str(call.input, "source") === "compact") ctx.io.stdout(`${compactionProbe(contextQualityLog(ctx))}\n`);
    return "ok";
  },
});
