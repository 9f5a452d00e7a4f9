import { resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { errorMessage } from "../../../src/lib/errors.ts";
import { appendRow } from "../../../src/lib/ledger.ts";
import { advanceBrake, brakeStatePath, denyText, warnText, type BrakeResult } from "../../../src/fleet/spend/brake.ts";
import { SPEND_LEDGER_ENV, spendLedgerPath } from "../../../src/dispatch/gate/spend-paths.ts";
import { HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";
import { str } from "../../../src/hooks/session/stdin.ts";

export default defineCommand({
  meta: {
    name: "hook spend-brake",
    description: [
      "PreToolUse hook in a WORKER's Claude Code session (D44): stop a runaway worker mid-run. On every tool call it",
      "reads only the bytes the session's transcript (the hook input's transcript_path) gained since the last call,",
      "counts each model response once (the rules of `spend record`), and compares the job's measured tokens (input",
      "+ output + cache read + cache write) with --max-tokens. Under 80%: silent. The first call at 80% or more is",
      "allowed with a one-time warning to the session and the operator. Past the cap every tool call is denied",
      "(exit 2) with the figures and what to do. `worker spawn --max-tokens` and `mogui dispatch --max-tokens` (or",
      "the tier policy's job_token_caps) write this hook into the worker's settings.",
    ].join("\n"),
  },
  usage: ["hook spend-brake --job <id> --max-tokens <N> [--spend-ledger <path>] [--input-file <path>] < hook.json"],
  args: {
    job: { type: "string", valueHint: "id", required: true, description: "The job whose session this is" },
    "max-tokens": { type: "int", min: 1, max: Number.MAX_SAFE_INTEGER, required: true, valueHint: "N", description: "The job's token cap" },
    "spend-ledger": { type: "string", valueHint: "path", description: `Where the warn and deny rows go (default $${SPEND_LEDGER_ENV}, else $MOGUI_HOME/spend-ledger.jsonl)` },
    ...HOOK_ARGS,
  },
  notes: [
    [
      "The warning is printed as the hook's JSON on stdout (systemMessage for the operator, additionalContext for",
      "the session); a denial is exit 2 with the reason on stderr, which Claude Code shows the model. Each warning",
      "and each denial is one row in the spend ledger (event spend_brake, action warn|deny). The read offsets live",
      "in $MOGUI_HOME/spend-brake/<job>.json, replaced atomically: neither a crash nor concurrent calls count a",
      "response twice. A brake that cannot measure (no transcript_path, an unreadable state) allows the call and says why",
      "on stderr: it never blocks a worker it cannot measure.",
    ].join("\n"),
  ],
  examples: [`echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","transcript_path":"/home/me/.claude/projects/-wt-fix/1.jsonl"}' | mogui hook spend-brake --job job-7 --max-tokens 2000000`],
  exits: {
    ok: { code: 0, meaning: "allowed: under 80% of the cap (silent), past 80% for the first time (warned once), or nothing to measure" },
    denied: { code: 2, meaning: "denied: the job's measured tokens are past --max-tokens (the figures on stderr)" },
    usage: { code: 2, meaning: "usage error (unknown flag, missing --job or --max-tokens)" },
  },
  async run({ ctx, args, fail }) {
    const job = args.job;
    const max = args["max-tokens"];
    let r: BrakeResult;
    try {
      const call = startHook(ctx, args, "spend-brake", "PreToolUse");
      const named = str(call.input, "transcript_path");
      if (!named) {
        // spend-brake runs on every tool call (latency-benchmarked): its lines are written as is, no logger loaded.
        ctx.io.stderr(`spend-brake: ${call.inputError ?? "the hook input names no transcript_path"}: nothing measured, allowed\n`);
        return "ok";
      }
      r = advanceBrake(brakeStatePath(ctx, job), job, resolve(call.cwd, named), max);
    } catch (e) {
      ctx.io.stderr(`spend-brake: cannot measure job ${job} (${errorMessage(e)}): allowed\n`);
      return "ok";
    }
    if (r.action !== "none") {
      try {
        appendRow(spendLedgerPath(ctx, args["spend-ledger"]), {
          event: "spend_brake",
          action: r.action,
          job_id: job,
          tokens: r.tokens,
          max_tokens: max,
          percent: r.percent,
          transcript: r.transcript,
          ts: Math.floor(ctx.now() / 1000),
        });
      } catch (e) {
        ctx.io.stderr(`spend-brake: the ${r.action} row was not recorded: ${errorMessage(e)}\n`);
      }
    }
    if (r.action === "deny") return fail("denied", denyText(r));
    if (r.action === "warn") {
      const text = warnText(r);
      ctx.io.stdout(`${JSON.stringify({ systemMessage: text, hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: text } })}\n`);
    }
    return "ok";
  },
});
