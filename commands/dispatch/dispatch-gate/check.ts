import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { runCheck, type CheckRequest } from "../../../src/dispatch/gate/check.ts";
import { emitDecision, GATE_EXITS, gateWarn, LEDGER_FLAG, parseIntFlag } from "./_shared.ts";
import { readContract } from "../../../src/dispatch/gate/contract.ts";
import { gatePaths } from "../../../src/dispatch/gate/paths.ts";
import { errnoCode } from "../../../src/lib/errors.ts";

const NAME = "dispatch-gate check";

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Decide whether a worker dispatch may start: validation, tier policy and fan-out caps, contract lint,",
      "budget and routing, in the gate's fixed order. Prints ONE compact JSON decision; exit 0 allow, 2 deny.",
      "Unless --no-record, the decision is appended to the ledger and an ALLOW issues a ticket for register.",
    ].join("\n"),
  },
  usage: ["dispatch-gate check --runtime <name> --model <id> --contract <path> --agents <n> --completion-channel <channel> [flags]", "dispatch-gate --ledger <path> check ..."],
  args: {
    runtime: { type: "string", valueHint: "name", required: true, description: "Worker runtime (lowercase, e.g. codex, claude)" },
    model: { type: "string", valueHint: "id", description: "Worker model id (denied NO_MODEL when absent)" },
    contract: { type: "string", valueHint: "path", required: true, description: "The contract file the worker will get" },
    // argparse ints (parseIntFlag): `1_000` is accepted and a count below 1 is a DENY, not a usage error (§3.2).
    agents: { type: "string", valueHint: "n", required: true, description: "How many agents this dispatch starts" },
    "est-chars": { type: "string", valueHint: "n", description: "Input size estimate (default: the contract's character count)" },
    "completion-channel": { type: "enum", options: ["orchestration", "sentinel-log"], valueHint: "channel", description: "How completion is observed: orchestration | sentinel-log (denied NO_COMPLETION_CHANNEL when absent)" },
    "tier-policy": { type: "string", valueHint: "path", description: "Tier policy (default $DISPATCH_TIER_POLICY, $MOGUI_HOME/config/model-tier-policy.json, the built-in template)" },
    "tier-override": { type: "string", valueHint: "text", description: "Reason to bypass a tier denial: fan-out or spend cap (recorded only when it bypassed one)" },
    "no-record": { type: "boolean", description: "Decide only: no ledger row, no ticket" },
    ledger: LEDGER_FLAG,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "ALLOW: the decision JSON has allow=true (warnings may be present)" },
    deny: { code: 2, meaning: "DENY (any reason code): the decision JSON has allow=false; `dispatch-gate: <REASON>: <message>` on stderr; or a usage error" },
    ...GATE_EXITS,
  },
  notes: [
    "Order: CONTRACT_UNREADABLE, validation (NO_COMPLETION_CHANNEL, NO_MODEL, INVALID_REQUEST), TIER_POLICY_UNAVAILABLE,\n" +
      "tier (TIER_FANOUT_CAP, SPEND_CAP_EXCEEDED / TIER_POLICY), CONTRACT_UNREADABLE, lint warnings, BUDGET_EXCEEDED, ROUTING_VIOLATION, OK.\n" +
      "A ledger that cannot be read, written or locked is exit 2 with `dispatch-gate: LEDGER_UNAVAILABLE: <why>`.",
  ],
  examples: [
    "mogui dispatch-gate check --runtime codex --model gpt-5.6-luna --contract task.md --agents 1 --completion-channel orchestration",
    "mogui dispatch-gate --ledger /tmp/l.jsonl check --runtime claude --model claude-sonnet-5 --contract task.md --agents 2 --completion-channel sentinel-log --no-record",
  ],
  async run({ ctx, args }) {
    const channel = args["completion-channel"];
    const explicit = parseIntFlag(NAME, "est-chars", args["est-chars"]);
    // Without a channel the check denies NO_COMPLETION_CHANNEL before it needs the contract: do not read it.
    const contract = channel === undefined ? null : readContract(resolve(ctx.cwd, args.contract));
    // Reference §3.2: the estimate defaults to the contract's characters (null = unreadable, denied first).
    const estChars = explicit !== undefined ? explicit : channel === undefined ? 0 : (contract?.chars ?? null);
    const req: CheckRequest = {
      runtime: args.runtime,
      model: args.model,
      contract,
      nAgents: parseIntFlag(NAME, "agents", args.agents)!,
      estChars,
      completionChannel: channel,
      tierOverride: args["tier-override"],
      tierPolicyPath: args["tier-policy"],
    };
    const paths = gatePaths(ctx, args.ledger);
    const out = await runCheck(ctx, paths, req, !args["no-record"], gateWarn(ctx));
    // The reference's deny line stays `dispatch-gate: CONTRACT_UNREADABLE`; a second line names the file (issue 26 §2).
    const notes = out.decision.reason === "CONTRACT_UNREADABLE" ? [...out.notes, `cannot read the contract ${resolve(ctx.cwd, args.contract)}: ${whyUnreadable(resolve(ctx.cwd, args.contract))}`] : out.notes;
    return emitDecision(ctx, out.decision, notes);
  },
});

/** Why a contract could not be read, for the note under the deny line: the errno code (ENOENT, EACCES, EISDIR). */
function whyUnreadable(path: string): string {
  try {
    readFileSync(path);
    return "unreadable";
  } catch (e) {
    return errnoCode(e) ?? "unreadable";
  }
}
