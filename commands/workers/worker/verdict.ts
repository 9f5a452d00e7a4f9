import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { GRADE_OPTIONS, jobsRun, paths, policyIfPresent, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { getJob, record, TERMINAL_STATES } from "../../../src/workers/worker/jobs.ts";
import { DEFAULT_FAMILIES, providerFamily } from "../../../src/workers/worker/policy.ts";
import { decideVerdict, FindingsError, parseFindings } from "../../../src/workers/worker/verdict.ts";
import { errnoCode, errorMessage } from "../../../src/lib/errors.ts";

export default defineCommand({
  meta: {
    name: "worker verdict",
    description: [
      "Record a verifier's verdict. Findings carry BLOCKER / SHOULD / NICE: only BLOCKERs open a rework round;",
      "SHOULD / NICE are recorded as follow-ups. A 4th round is refused and the job is marked escalated. A T3 job",
      "refuses a verifier of the implementer's provider family; a self-verification never counts as independent.",
    ].join("\n"),
  },
  usage: ["worker verdict --job <id> --findings <file> --verifier-model <model> --verifier-session <name> [--verifier-grade G] [--self] [--json]"],
  args: {
    job: { type: "string", valueHint: "id", required: true, description: "The job being verified" },
    findings: { type: "string", valueHint: "file", required: true, description: "Findings: JSON [{severity,title}] or lines `- [BLOCKER] title`" },
    "verifier-model": { type: "string", valueHint: "model", required: true, description: "The verifier's model (its provider family is checked for T3)" },
    "verifier-session": { type: "string", valueHint: "name", required: true, description: "The verifier's session/agent name (the implementer's own name = self-verification)" },
    "verifier-grade": { type: "enum", options: GRADE_OPTIONS, valueHint: "G", description: "The verifier's grade (must be >= the implementer's)" },
    self: { type: "boolean", description: "This is the implementer's self-check" },
    ledger: WORKER_ARGS.ledger,
    policy: WORKER_ARGS.policy,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "recorded: pass, rework round opened, or a self-check (not independent)" },
    ledgerUnavailable: { ...WORKER_EXITS.ledgerUnavailable, meaning: "usage; findings unreadable or a bad severity; ledger unavailable; unknown job" },
    refused: { code: 3, meaning: "refused: T3 verifier of the implementer's provider family (or unknown family), or verifier grade too low" },
    escalated: { code: 4, meaning: "a 4th rework round was refused: the job is marked escalated" },
    settled: { code: 5, meaning: "the job is already terminal" },
  },
  examples: ["mogui worker verdict --job rob1-impl-20260801-0930 --findings findings.md --verifier-model gpt-5.4 --verifier-session rob1-verify"],
  run: jobsRun(async ({ ctx, args, fail }) => {
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    const file = resolve(ctx.cwd, args.findings);
    let findings;
    try {
      findings = parseFindings(readFileSync(file, "utf8"));
    } catch (e) {
      const why = e instanceof FindingsError ? e.message : (errnoCode(e) ?? errorMessage(e));
      return fail("ledgerUnavailable", `worker verdict: findings ${file}: ${why}`);
    }
    // No policy file: the built-in vendor families (D13) still tell the providers apart.
    const families = policyIfPresent(ctx, args.policy, "verdict")?.provider_families ?? DEFAULT_FAMILIES;
    const job = await getJob(ctx, ledger, args.job, "verdict");
    if (TERMINAL_STATES.includes(job.state)) return fail("settled", `worker verdict: job ${job.id} is already ${job.state}`);
    const model = args["verifier-model"];
    const provider = providerFamily({ provider_families: families }, model);
    const d = decideVerdict(job, {
      findings,
      verifierModel: model,
      verifierProvider: provider,
      verifierSession: args["verifier-session"],
      verifierGrade: args["verifier-grade"],
      self: args.self,
    });
    const row = { event: "verdict", job_id: job.id, ...d, verifier_model: model, verifier_provider: provider, verifier_session: args["verifier-session"], findings_file: file };
    record(ctx, ledger, "verdict", row);
    if (d.outcome === "escalated") record(ctx, ledger, "verdict", { event: "job_decision", job_id: job.id, state: "escalated", note: d.reason });
    if (args.json) printDoc(ctx, row, true);
    else printLines(ctx, [`${d.outcome}\t${d.reason}`, ...d.followups.map((f) => `  follow-up ${f.severity}: ${f.title}`)]);
    if (d.outcome === "refused") return fail("refused", `worker verdict: refused: ${d.reason}`);
    if (d.outcome === "escalated") return fail("escalated", `worker verdict: ${d.reason}`);
    return "ok";
  }),
});
