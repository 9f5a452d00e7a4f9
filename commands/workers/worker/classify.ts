import { resolve } from "node:path";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { errorMessage, ExitError, UsageError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { checkGrades, classify, diffSurface } from "../../../src/workers/worker/classify.ts";
import { grade, intArg, JSON_ARG, list, POLICY_ARG, policyOf, str } from "../../../src/workers/worker/cli.ts";
import { isTier, type Tier } from "../../../src/workers/worker/tiers.ts";

export const CLASSIFY_EXIT = { OK: 0, USAGE: 2, NEEDS_CLASSIFICATION: 3, REFUSED: 4 } as const;

export default defineMoguiCommand({
  meta: {
    name: "worker classify",
    description: [
      "Compute the scale T (T0-T3) and spawn_mode from the change surface, mechanically, with the surface policy:",
      "irreversible -> T3, product -> T2, tooling -> T1, local (<= 30 diff lines) -> T0. A proposed T below the floor",
      "is refused (the floor wins: 'downgrade refused'); a higher one is accepted. Unmatched paths: NEEDS_CLASSIFICATION.",
    ].join("\n"),
  },
  usage: [
    "worker classify --path <path>... [--lines <n>] [--proposed T0|T1|T2|T3] [--grade G] [--profile-grade G] [--verifier-grade G] [--json]",
    "worker classify --repo <dir> [--base <ref>] [--proposed T] [--json]",
  ],
  args: {
    path: { type: "string", valueHint: "path", multiple: true, description: "A changed (or planned) repo-relative path; repeat" },
    lines: { type: "string", valueHint: "n", description: "Diff size in changed lines (needed for T0)" },
    repo: { type: "string", valueHint: "dir", description: "Read the changed paths and line count from this checkout's diff" },
    base: { type: "string", valueHint: "ref", description: "Diff base with --repo (default origin/main)" },
    proposed: { type: "string", valueHint: "T", description: "An upstream T proposal: raised freely, never lowered" },
    grade: { type: "string", valueHint: "G", description: "Task grade S+|S|A+|A|B|C" },
    "profile-grade": { type: "string", valueHint: "G", description: "The implementer profile's grade (>= task grade, at most the adjacent grade above)" },
    "verifier-grade": { type: "string", valueHint: "G", description: "The verifier's grade (>= the implementer's)" },
    ...POLICY_ARG,
    ...JSON_ARG,
  },
  rules: { exclusive: [["path", "repo"], ["lines", "repo"]] },
  examples: ["mogui worker classify --path deploy/prod.yaml --proposed T1", "mogui worker classify --repo . --base origin/main --json"],
  async run(ctx, args) {
    const cmd = "worker classify";
    const policy = policyOf(ctx, args, "classify");
    const proposedRaw = str(args, "proposed");
    if (proposedRaw !== undefined && !isTier(proposedRaw)) throw new UsageError(`--proposed must be T0, T1, T2 or T3 (got '${proposedRaw}')`, cmd);
    let surface = list(args, "path");
    let lines = intArg(args, "lines", "classify") ?? null;
    if (str(args, "repo")) {
      try {
        const d = await diffSurface(ctx, resolve(ctx.cwd, str(args, "repo")!), str(args, "base") ?? "origin/main");
        surface = d.paths;
        lines = d.lines;
      } catch (e) {
        throw new ExitError(2, `worker classify: ${errorMessage(e)}`);
      }
    } else if (surface.length === 0) throw new UsageError("give --path (repeatable) or --repo", cmd);
    const grades = checkGrades(grade(args, "grade", "classify"), grade(args, "profile-grade", "classify"), grade(args, "verifier-grade", "classify"));
    const c = classify(policy, surface, lines, (proposedRaw as Tier | undefined) ?? null, grades);
    if (args.json) printJson(ctx, sortKeys({ ...c, policy: policy.path }), true);
    else {
      const head = c.verdict === "NEEDS_CLASSIFICATION" ? "NEEDS_CLASSIFICATION" : `${c.tier} ${c.spawn_mode}${c.verdict === "DOWNGRADE_REFUSED" ? " (downgrade refused)" : ""}`;
      printLines(ctx, [head, ...c.paths.map((p) => `  ${p.path}\t${p.class ?? "unmatched"}${p.surface ? `\t${p.surface}` : ""}`), ...c.notes.map((n) => `  note: ${n}`), ...grades.refusals.map((r) => `  refused: ${r}`)]);
    }
    if (c.verdict === "NEEDS_CLASSIFICATION") {
      ctx.io.stderr(`worker classify: NEEDS_CLASSIFICATION: no surface names ${c.unmatched.join(", ")}; nothing may be spawned\n`);
      return CLASSIFY_EXIT.NEEDS_CLASSIFICATION;
    }
    if (c.verdict === "DOWNGRADE_REFUSED") {
      ctx.io.stderr(`worker classify: downgrade refused: ${proposedRaw} is below the floor ${c.floor}\n`);
      return CLASSIFY_EXIT.REFUSED;
    }
    if (c.verdict === "GRADE_REFUSED") {
      ctx.io.stderr(`worker classify: grade refused: ${grades.refusals.join("; ")}\n`);
      return CLASSIFY_EXIT.REFUSED;
    }
    return CLASSIFY_EXIT.OK;
  },
});
