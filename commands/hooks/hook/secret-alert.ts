import { defineCommand } from "../../../src/lib/command.ts";
import { HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { str } from "../../../src/hooks/session/stdin.ts";
import { isoSeconds } from "../../../src/hooks/session/firelog.ts";
import { alertRules, appendAlert, hookOutput, scanToolCall } from "../../../src/publishing/redaction/alert.ts";

const H = "secret-alert";

export default defineCommand({
  meta: {
    name: "hook secret-alert",
    description: [
      "PostToolUse hook (Claude Code): scan each tool call's result and input with the redaction-scan engine.",
      'When a secret appears: `decision: "block"` with a masked `reason` and `additionalContext` tell the',
      "session, `systemMessage` tells the operator, the output handed back has every secret masked",
      "(`updatedMCPToolOutput` for MCP tools; `updatedToolOutput`, which Claude Code honours from v2.1.121),",
      "and one row (rule, line, fingerprint; never the secret) is appended to $MOGUI_HOME/secret-alerts.jsonl.",
      "An older Claude Code cannot replace a built-in tool's output: the secret is then already in the",
      "transcript, which is why the advice is to rotate it (sweep with `mogui redaction-scan --transcripts`).",
    ].join("\n"),
  },
  usage: ["hook secret-alert [--input-file <path>] < hook.json"],
  args: HOOK_ARGS,
  examples: [`echo '{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"ok"}}' | mogui hook secret-alert`],
  exits: {
    ok: { code: 0, meaning: "scanned: nothing found (no output), or secrets found (the PostToolUse JSON on stdout, masked)" },
    usage: { code: 2, meaning: "the hook input could not be read or is not a JSON object, the rules could not load, or a usage error (stderr, which Claude Code shows the session)" },
  },
  async run({ ctx, args, fail }) {
    const call = startHook(ctx, args, H, "PostToolUse");
    if (call.inputError) return fail("usage", `${H}: ${call.inputError}; nothing was scanned`);
    if (call.empty) return "ok";
    try {
      const c = alertRules(ctx, call.cwd);
      const r = scanToolCall(c, call.input);
      if (r.alerts.length === 0) return "ok";
      const tool = str(call.input, "tool_name") ?? "";
      const row = {
        ts: isoSeconds(ctx.now()),
        hook: H,
        session_id: str(call.input, "session_id") ?? null,
        transcript_path: str(call.input, "transcript_path") ?? null,
        tool_name: tool || null,
        cwd: call.cwd,
        alerts: r.alerts,
      };
      const err = appendAlert(ctx, row);
      // A hook's hot path (latency-benchmarked): written as is, the logger is not loaded here.
      if (err) ctx.io.stderr(`[mogui hook] warning: secret alert ledger not written: ${err}\n`);
      ctx.io.stdout(`${JSON.stringify(hookOutput(tool, r))}\n`);
      return "ok";
    } catch (e) {
      // Never a crash (exit 1 is ignored by Claude Code): a scan that could not run says so, exit 2.
      return fail("usage", `${H}: the scan could not run (${e instanceof Error ? e.message.split("\n")[0] : typeof e}); this tool call was not checked`);
    }
  },
});
