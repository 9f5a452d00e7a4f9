import { resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { errorMessage, UsageError } from "../../../src/lib/errors.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { checkGrades, classify, diffSurface } from "../../../src/workers/worker/classify.ts";
import { GRADE_OPTIONS, policyOf, TIER_OPTIONS, WORKER_ARGS } from "./_shared.ts";

export default defineCommand({
  meta: {
    name: "worker classify",
    description: [
      "Compute the scale T (T0-T3) and spawn_mode from the change surface, mechanically, with the surface policy:",
      "irreversible -> T3, product -> T2, tooling -> T1, local (<= 30 diff lines) -> T0. A proposed T below the floor",
      "is refused (the floor wins: 'downgrade refused'); a higher one is accepted. Unmatched paths: NEEDS_CLASSIFICATION.",
    ].join("\n"),
  },
  usage: ["worker classify --path <path>... [--lines <n>] [--proposed T0|T1|T2|T3] [--grade G] [--profile-grade G] [--verifier-grade G] [--json]", "worker classify --repo <dir> [--base <ref>] [--proposed T] [--json]"],
  args: {
    path: { type: "string", valueHint: "path", multiple: true, description: "A changed (or planned) repo-relative path; repeat" },
    lines: { type: "int", min: 0, max: 100_000_000, valueHint: "n", description: "Diff size in changed lines (needed for T0)" },
    repo: { type: "string", valueHint: "dir", description: "Read the changed paths and line count from this checkout's diff" },
    base: { type: "string", valueHint: "ref", default: "origin/main", description: "Diff base with --repo" },
    proposed: { type: "enum", options: TIER_OPTIONS, valueHint: "T", description: "An upstream T proposal: raised freely, never lowered" },
    grade: { type: "enum", options: GRADE_OPTIONS, valueHint: "G", description: "Task grade S+|S|A+|A|B|C" },
    "profile-grade": { type: "enum", options: GRADE_OPTIONS, valueHint: "G", description: "The implementer profile's grade (>= task grade, at most the adjacent grade above)" },
    "verifier-grade": { type: "enum", options: GRADE_OPTIONS, valueHint: "G", description: "The verifier's grade (>= the implementer's)" },
    policy: WORKER_ARGS.policy,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "classified: T and spawn_mode printed" },
    usage: { code: 2, meaning: "usage; surface policy missing or invalid; git diff failed" },
    needsClassification: { code: 3, meaning: "NEEDS_CLASSIFICATION: a path no surface names; nothing may be spawned" },
    refused: { code: 4, meaning: "refused: downgrade below the surface floor, or a grade rule (verifier below implementer, promotion past the adjacent grade)" },
  },
  rules: {
    exclusive: [
      ["path", "repo"],
      ["lines", "repo"],
    ],
  },
  examples: ["mogui worker classify --path deploy/prod.yaml --proposed T1", "mogui worker classify --repo . --base origin/main --json"],
  async run({ ctx, args, fail }) {
    const cmd = "worker classify";
    const policy = policyOf(ctx, args.policy, "classify");
    let surface = args.path;
    let lines = args.lines ?? null;
    if (args.repo) {
      try {
        const d = await diffSurface(ctx, resolve(ctx.cwd, args.repo), args.base);
        surface = d.paths;
        lines = d.lines;
      } catch (e) {
        return fail("usage", `${cmd}: ${errorMessage(e)}`);
      }
    } else if (surface.length === 0) throw new UsageError("give --path (repeatable) or --repo", cmd);
    const grades = checkGrades(args.grade, args["profile-grade"], args["verifier-grade"]);
    const c = classify(policy, surface, lines, args.proposed ?? null, grades);
    if (args.json) printDoc(ctx, { ...c, policy: policy.path }, true);
    else {
      const head = c.verdict === "NEEDS_CLASSIFICATION" ? "NEEDS_CLASSIFICATION" : `${c.tier} ${c.spawn_mode}${c.verdict === "DOWNGRADE_REFUSED" ? " (downgrade refused)" : ""}`;
      printLines(ctx, [head, ...c.paths.map((p) => `  ${p.path}\t${p.class ?? "unmatched"}${p.surface ? `\t${p.surface}` : ""}`), ...c.notes.map((n) => `  note: ${n}`), ...grades.refusals.map((r) => `  refused: ${r}`)]);
    }
    if (c.verdict === "NEEDS_CLASSIFICATION") return fail("needsClassification", `${cmd}: NEEDS_CLASSIFICATION: no surface names ${c.unmatched.join(", ")}; nothing may be spawned`);
    if (c.verdict === "DOWNGRADE_REFUSED") return fail("refused", `${cmd}: downgrade refused: ${args.proposed} is below the floor ${c.floor}`);
    if (c.verdict === "GRADE_REFUSED") return fail("refused", `${cmd}: grade refused: ${grades.refusals.join("; ")}`);
    return "ok";
  },
});
