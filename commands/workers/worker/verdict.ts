import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { grade, JSON_ARG, LEDGER_ARG, paths, POLICY_ARG, policyIfPresent, str } from "../../../src/workers/worker/cli.ts";
import { getJob, record, TERMINAL_STATES } from "../../../src/workers/worker/jobs.ts";
import { DEFAULT_FAMILIES, providerFamily } from "../../../src/workers/worker/policy.ts";
import { decideVerdict, FindingsError, parseFindings } from "../../../src/workers/worker/verdict.ts";

export const VERDICT_EXIT = { OK: 0, USAGE: 2, REFUSED: 3, ESCALATED: 4, SETTLED: 5 } as const;

export default defineMoguiCommand({
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
    "verifier-grade": { type: "string", valueHint: "G", description: "The verifier's grade (must be >= the implementer's)" },
    self: { type: "boolean", description: "This is the implementer's self-check" },
    ...LEDGER_ARG,
    ...POLICY_ARG,
    ...JSON_ARG,
  },
  examples: ["mogui worker verdict --job rob1-impl-20260801-0930 --findings findings.md --verifier-model gpt-5.4 --verifier-session rob1-verify"],
  async run(ctx, args) {
    const ledger = paths(ctx, args).ledger;
    const file = resolve(ctx.cwd, str(args, "findings")!);
    let findings;
    try {
      findings = parseFindings(readFileSync(file, "utf8"));
    } catch (e) {
      const why = e instanceof FindingsError ? e.message : ((e as NodeJS.ErrnoException).code ?? (e as Error).message);
      throw new ExitError(VERDICT_EXIT.USAGE, `worker verdict: findings ${file}: ${why}`);
    }
    // No policy file: the built-in vendor families (D13) still tell the providers apart.
    const families = policyIfPresent(ctx, args, "verdict")?.provider_families ?? DEFAULT_FAMILIES;
    const job = await getJob(ctx, ledger, str(args, "job")!, "verdict");
    if (TERMINAL_STATES.includes(job.state)) throw new ExitError(VERDICT_EXIT.SETTLED, `worker verdict: job ${job.id} is already ${job.state}`);
    const model = str(args, "verifier-model")!;
    const provider = providerFamily({ provider_families: families }, model);
    const d = decideVerdict(job, {
      findings, verifierModel: model, verifierProvider: provider,
      verifierSession: str(args, "verifier-session")!, verifierGrade: grade(args, "verifier-grade", "verdict"), self: Boolean(args.self),
    });
    const row = { event: "verdict", job_id: job.id, ...d, verifier_model: model, verifier_provider: provider, verifier_session: str(args, "verifier-session"), findings_file: file };
    record(ctx, ledger, "verdict", row);
    if (d.outcome === "escalated") record(ctx, ledger, "verdict", { event: "job_decision", job_id: job.id, state: "escalated", note: d.reason });
    if (args.json) printJson(ctx, sortKeys(row), true);
    else printLines(ctx, [`${d.outcome}\t${d.reason}`, ...d.followups.map((f) => `  follow-up ${f.severity}: ${f.title}`)]);
    if (d.outcome === "refused") {
      ctx.io.stderr(`worker verdict: refused: ${d.reason}\n`);
      return VERDICT_EXIT.REFUSED;
    }
    if (d.outcome === "escalated") {
      ctx.io.stderr(`worker verdict: ${d.reason}\n`);
      return VERDICT_EXIT.ESCALATED;
    }
    return VERDICT_EXIT.OK;
  },
});
