import { defineCommand } from "../../../src/lib/command.ts";
import { emitDecision, GATE_EXITS, gateWarn, LEDGER_FLAG } from "./_shared.ts";
import { gatePaths } from "../../../src/dispatch/gate/paths.ts";
import { runRegister } from "../../../src/dispatch/gate/register.ts";

export default defineCommand({
  meta: {
    name: "dispatch-gate register",
    description: [
      "Bind a started worker job to the pending dispatch a check allowed: pick its ticket (or, with --contract-sha",
      "and no tickets, its pending ledger row), verify the orchestration task, the job and the worker's model, then",
      "consume the ticket and append the register row plus a `dispatch_submitted` lifecycle row. One JSON decision.",
    ].join("\n"),
  },
  usage: ["dispatch-gate register --job-id <id> --probe-cmd <shell-command> [--contract-sha <hex>] [--runtime <name>] [flags]", "dispatch-gate --ledger <path> register ..."],
  args: {
    "job-id": { type: "string", valueHint: "id", required: true, description: "The worker job (Orca dispatch id) to register" },
    "probe-cmd": { type: "string", valueHint: "shell-command", required: true, description: "Shell command whose stdout must contain the job id (exit 0; 30 s timeout)" },
    "contract-sha": { type: "string", valueHint: "hex", description: "Contract sha or a prefix of at least 12 hex digits" },
    runtime: { type: "string", valueHint: "name", description: "Only consider tickets and pending rows of this runtime" },
    "orchestration-task": { type: "string", valueHint: "id", description: "Orca task to probe with dispatch-show (required unless the dispatch uses sentinel-log)" },
    "tier-policy": { type: "string", valueHint: "path", description: "Tier policy for model verification (same resolution as check)" },
    "declared-model": { type: "string", valueHint: "id", description: "The model the worker was launched with" },
    "model-probe-cmd": { type: "string", valueHint: "shell-command", description: "Shell command whose last non-blank stdout line is the measured model (30 s timeout)" },
    ledger: LEDGER_FLAG,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "ALLOW: registered; the ticket is consumed and the register + dispatch_submitted rows appended" },
    deny: { code: 2, meaning: "DENY (INVALID_REQUEST, NO_MATCHING_TICKET, AMBIGUOUS_TICKET, ORCHESTRATION_UNVERIFIED, UNVERIFIED_JOB, MODEL_TIER_ESCALATION), or a usage error" },
    ...GATE_EXITS,
  },
  notes: [
    "Denials: INVALID_REQUEST, NO_MATCHING_TICKET, AMBIGUOUS_TICKET (nothing written); ORCHESTRATION_UNVERIFIED with\n" +
      "probe_failure orca_missing | probe_timeout | probe_unparseable | task_omitted | task_not_found, and\n" +
      "MODEL_TIER_ESCALATION (a DENY row is written); UNVERIFIED_JOB (nothing written). Warnings: MODEL_UNVERIFIED,\n" +
      "MODEL_PROBE_FAILED, MODEL_MISMATCH. The probe commands are run by /bin/sh exactly as given.",
  ],
  examples: ["mogui dispatch-gate register --job-id ctx_0123 --contract-sha 2d71a0c4b3e9 --runtime codex --orchestration-task task_01 \\\n      --probe-cmd 'orca orchestration dispatch-show --task task_01 --json' --declared-model gpt-5.6-luna"],
  async run({ ctx, args }) {
    const paths = gatePaths(ctx, args.ledger);
    const out = await runRegister(
      ctx,
      paths,
      {
        jobId: args["job-id"],
        probeCmd: args["probe-cmd"],
        contractSha: args["contract-sha"],
        runtime: args.runtime,
        orchestrationTask: args["orchestration-task"],
        tierPolicyPath: args["tier-policy"],
        declaredModel: args["declared-model"],
        modelProbeCmd: args["model-probe-cmd"],
      },
      gateWarn(ctx),
    );
    return emitDecision(ctx, out.decision);
  },
});
