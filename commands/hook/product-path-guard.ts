import { defineMoguiCommand } from "../../src/lib/command.ts";
import { decide, recordDecision, type GuardDecision } from "../../src/hooks/product-path-guard.ts";
import { HOOK_ARGS, startHook } from "../../src/hooks/run.ts";

export default defineMoguiCommand({
  meta: {
    name: "hook product-path-guard",
    description: [
      "PreToolUse hook (Edit|Write|MultiEdit|NotebookEdit|Bash): block writes into the product repository.",
      "Reads the host's hook JSON on stdin. File tools are blocked when the target (symlinks resolved) is inside",
      "the product repo, unless MOGUI_INLINE_EDIT_OVERRIDE=1. Bash commands are split into segments and blocked",
      "for redirections into the product, write-capable arguments (find -exec, xargs, sed -i, --in-place ...),",
      "opaque interpreters (bash -c, python -c ...), git mutations, --git-dir without --work-tree, cd into the",
      "product (legacy mode) and any non-read-only command that touches it. A missing or invalid product_repo",
      "blocks everything (fail closed).",
    ].join("\n"),
  },
  usage: ["hook product-path-guard [--input-file <path>] < hook.json"],
  args: HOOK_ARGS,
  notes: [
    [
      "BLOCK prints '[product-path-guard] BLOCKED: <reason>' on stderr and exits 2 (the host shows the reason to",
      "the agent); allow exits 0 silently. The product repo comes from $MOGUI_INSTANCE_RUNTIME_CONFIG, else",
      "$INSTANCE_RUNTIME_CONFIG, else $MOGUI_HOME/config/instance-runtime.json (MOGUI_PRODUCT_REPO wins per field).",
      "MOGUI_PRODUCT_GUARD_FAIL_CLOSED=1 replaces the read-only command set with the allowlist file",
      "($MOGUI_PRODUCT_GUARD_ALLOWLIST, else $MOGUI_HOME/config/product-path-guard-readonly-allowlist.txt; one",
      "command prefix per line). Every decision is a row in $MOGUI_EVENT_LOG (else $MOGUI_HOME/event-log.jsonl);",
      "an unwritable log never blocks.",
    ].join("\n"),
  ],
  examples: [
    `echo '{"tool_name":"Bash","tool_input":{"command":"echo hi > /src/product/x"}}' | mogui hook product-path-guard`,
  ],
  async run(ctx, args) {
    const call = startHook(ctx, args, "product-path-guard", "PreToolUse");
    // Fail closed (D32): no input, or input that is not a JSON object, is never waved through.
    const why = call.inputError ?? (call.empty ? "empty or unreadable stdin (no hook JSON)" : undefined);
    const d: GuardDecision = why
      ? { block: true, reason: `unreadable hook input: ${why}`, commandClass: "unparseable", targetScope: "product", toolKind: "bash" }
      : decide(ctx, call.input, call.cwd);
    recordDecision(ctx, d, call.cwd, call.sessionKind);
    if (!d.block) return 0;
    ctx.io.stderr(`[product-path-guard] BLOCKED: ${d.reason}\n`);
    return 2;
  },
});
