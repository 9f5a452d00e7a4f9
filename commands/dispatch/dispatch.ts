import { resolve } from "node:path";
import { runDispatch } from "../../src/dispatch/pipeline/pipeline.ts";
import { gateLedgerPath } from "../../src/dispatch/gate/paths.ts";
import { DISPATCH_EXIT, summaryLine } from "../../src/dispatch/pipeline/report.ts";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";

/** The pipeline's codes (DISPATCH_EXIT, also the `exit` field of the --json report), by name. */
const EXITS = {
  ok: { code: DISPATCH_EXIT.OK, meaning: "dispatched and registered (delivery agent-started or UNVERIFIED), or --check-only passed the dry gate" },
  input: { code: DISPATCH_EXIT.INPUT, meaning: "contract file missing, or --spec missing without --check-only" },
  refused: {
    code: DISPATCH_EXIT.REFUSED,
    meaning:
      "refused before anything started: gate DENY, model/runtime vendor mismatch, top tier without --top-approved, no sender terminal (ORCA_TERMINAL_HANDLE unset), no Orca Run bound (without --run-create), codex pre-trust failed, bad tier policy / instance config / ledger; or a usage error",
  },
  orca: {
    code: DISPATCH_EXIT.ORCA,
    meaning:
      "an Orca step failed (run-current/run-create, task-create, terminal create, dispatch --inject), or answered so late that Orca could not say what it did; nothing was registered (a worker that may run is named with the worker-reap command); a dispatch that never started is recorded dispatch_aborted",
  },
  register: { code: DISPATCH_EXIT.REGISTER, meaning: "register denied or failed after the inject: the worker IS running, resolve the registration by hand" },
  delivery: { code: DISPATCH_EXIT.DELIVERY, meaning: "delivery FAILED: the worker pane shows a trust/login gate or a provider limit" },
} as const;
const NAME_OF = new Map(Object.entries(EXITS).map(([name, row]) => [row.code as number, name as keyof typeof EXITS]));

export default defineCommand({
  meta: {
    name: "dispatch",
    description: [
      "Supervised worker dispatch: gate the contract, create an Orca task, start (or reuse) a worker terminal,",
      "inject the task, register the dispatch with the gate and check that the worker actually started.",
      "Refuses before any gate call when the model's vendor does not fit the runtime or a top-tier model has no",
      "owner approval. Progress goes to stderr; stdout gets one summary line (or one JSON document with --json).",
    ].join("\n"),
  },
  usage: ["dispatch --contract <file> --spec <text> (--terminal <handle> | --worktree <selector>) [flags]", "dispatch --contract <file> --check-only [--model <id>] [--runtime <name>]"],
  args: {
    contract: { type: "string", valueHint: "file", description: "The contract the worker gets (hashed by the gate)" },
    spec: { type: "string", valueHint: "text", description: "The Orca task spec (required unless --check-only)" },
    terminal: { type: "string", valueHint: "handle", description: "Reuse this worker terminal (term_...)" },
    worktree: { type: "string", valueHint: "selector", description: "Start a new worker terminal in this worktree (id:<repoId>::/abs, path:/abs, /abs, name:..., branch:...)" },
    model: { type: "string", valueHint: "id", description: "Worker model (default: the tier policy's first efficient, then top, model the runtime serves)" },
    runtime: { type: "string", valueHint: "name", description: "Worker runtime (default: the first installed of claude codex cursor grok gemini opencode that is not the master's)" },
    "same-host-reason": { type: "string", valueHint: "text", description: "Why the worker may run on the master's own runtime (recorded in the audit row)" },
    "top-approved": { type: "string", valueHint: "text", description: "The owner's approval for a top-tier model (required for tier top)" },
    "tier-policy": { type: "string", valueHint: "file", description: "Tier policy (default $DISPATCH_TIER_POLICY, $MOGUI_HOME/config/model-tier-policy.json, the built-in template)" },
    "est-chars": { type: "int", min: 0, max: Number.MAX_SAFE_INTEGER, valueHint: "n", description: "Input size for the gate (default: the contract's character count)" },
    "max-tokens": { type: "int", min: 1, max: Number.MAX_SAFE_INTEGER, valueHint: "N", description: "The job's token cap: a claude worker's worktree gets the spend brake hook, job = the Orca task id (default: the tier policy's job_token_caps)" },
    "transcript-glob": { type: "string", valueHint: "glob", description: "Transcript glob for the register model probe (the newest match is probed)" },
    "check-only": { type: "boolean", description: "Dry gate and collision warnings only: nothing recorded, nothing started" },
    ledger: { ...ARGS.ledger, description: "Gate ledger (default $DISPATCH_GATE_LEDGER, else $MOGUI_HOME/dispatch-ledger.jsonl)" },
    json: { ...ARGS.json, description: "Print one compact JSON document (the run's report) on stdout" },
    "run-create": { type: "boolean", description: "When no Orca Run is bound to this terminal, create and bind one (orca orchestration run-create)" },
    "delivery-poll-ms": { type: "int", min: 0, max: 600_000, valueHint: "ms", description: "Pause before each delivery poll (default 5000)", hidden: true },
    "orca-timeout-ms": { type: "int", min: 0, max: 600_000, valueHint: "ms", description: "Timeout of each Orca call (default 30000)", hidden: true },
  },
  rules: { exclusive: [["terminal", "worktree"]] },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  exits: EXITS,
  notes: [
    "Steps: dry gate (--no-record) -> orca orchestration run-current -> [codex: codex-worker-pretrust of the worktree]\n" +
      "-> recorded gate -> orca orchestration task-create -> [orca terminal create + wait tui-idle] -> orca orchestration\n" +
      "dispatch --inject -> dispatch-gate register (job probe: dispatch-show; model probe: the newest transcript) ->\n" +
      "host_diversity_audit ledger row -> delivery: up to 6 reads of the pane, 5 s apart, classified hook-trust | limit |\n" +
      "agent-started.",
    "Precondition: an Orca Run bound to this terminal (Orca's task-create needs one). Without one the run stops before the\n" +
      "gate records anything: bind one with `orca orchestration run-create --objective <text>` or `run-use --id <run>`, or\n" +
      "pass --run-create. --worktree takes Orca's worktree id as printed (id:<repoId>::/abs/path), path:/abs, /abs, or any\n" +
      "other Orca selector (resolved through `orca worktree list` where pre-trust or the transcript probe needs the path).",
    "D38: an Orca call that times out may still have acted: mogui asks Orca (task-list, terminal list, dispatch-show) and\n" +
      "goes on with what exists, or says what does not. A run that ends before the worker starts appends `dispatch_aborted`\n" +
      "to the ledger, which gives the gate's fan-out slot back; --json's `left_behind` lists what stays in Orca.",
    "The master host runtime comes from $MOGUI_MASTER_HOST_RUNTIME, else the instance config ($MOGUI_INSTANCE_RUNTIME_CONFIG,\n" + "$INSTANCE_RUNTIME_CONFIG, $MOGUI_HOME/config/instance-runtime.json), else the fallback 'codex' (with a warning).",
  ],
  examples: [
    "mogui dispatch --contract contracts/fix-login.md --check-only",
    'mogui dispatch --contract contracts/fix-login.md --spec "$(cat contracts/fix-login.md)" --worktree path:/work/app-wt/fix-login --runtime codex',
    "mogui dispatch --contract c.md --spec 'Fix the flaky test' --terminal term_0f... --model claude-opus-5 --top-approved 'owner: yes, 1 run'",
    'mogui dispatch --contract c.md --spec "$(cat c.md)" --worktree id:3f2c9a10-...::/work/app-wt/fix-login --runtime codex --run-create',
  ],
  async run({ ctx, args }) {
    const report = await runDispatch(
      ctx,
      {
        contract: args.contract ? resolve(ctx.cwd, args.contract) : "",
        spec: args.spec,
        terminal: args.terminal,
        worktree: args.worktree,
        model: args.model,
        runtime: args.runtime,
        sameHostReason: args["same-host-reason"],
        topApproved: args["top-approved"],
        tierPolicy: args["tier-policy"] ? resolve(ctx.cwd, args["tier-policy"]) : undefined,
        estChars: args["est-chars"],
        transcriptGlob: args["transcript-glob"],
        maxTokens: args["max-tokens"],
        checkOnly: args["check-only"],
        ledger: gateLedgerPath(ctx, args.ledger),
        deliveryPollMs: args["delivery-poll-ms"],
        runCreate: args["run-create"],
        orcaTimeoutMs: args["orca-timeout-ms"],
      },
      // The run's step lines (`✓ gate ALLOW ...`, `✗ ...`, `WARNING: ...`) are its progress, pinned by the tests:
      // each line as is (no prefix), through the logger for its colour.
      (line) => logger(ctx, "").log(line),
    );
    if (args.json) printDoc(ctx, report, true);
    else printLines(ctx, [summaryLine(report)]);
    return NAME_OF.get(report.exit) ?? "internal";
  },
});
