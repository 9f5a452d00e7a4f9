import { resolve } from "node:path";
import { InstanceConfigError, loadInstanceConfig, requireProductRepo } from "../../../src/lib/config/instance.ts";
import { makeHost, hostKind } from "../../../src/lib/host/index.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand, failWith } from "../../../src/lib/command.ts";
import { errnoCode, errorMessage, UsageError } from "../../../src/lib/errors.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { GRADE_OPTIONS, hostCall, jobsRun, paths, policyOf, WORKER_ARGS } from "./_shared.ts";
import { SPAWN_EXITS, SpawnError, spawnJob } from "../../../src/workers/worker/spawn.ts";
import { readFileSync } from "node:fs";

function readBrief(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    return failWith(SPAWN_EXITS, "ledgerUnavailable", `worker spawn: brief unreadable: ${path}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
}

export default defineCommand({
  meta: {
    name: "worker spawn",
    description: [
      "Spawn a worker: classify the surface (T and spawn_mode), refuse a brief that is not lint-clean, check the",
      "agent name is free, create a worktree from freshly fetched origin/main, start the agent in a new pane, record",
      "the job, inject the brief and prove it landed (its marker in the pane's recent output; never 'OK' or `working`).",
    ].join("\n"),
  },
  usage: ["worker spawn --issue <id> --stage <stage> --name <agent> --model <model> --owner <session> --brief <file> --path <surface path>... [--workspace <ws>] [--repo <dir>] [--max-tokens <N>] [--landing-strict] [--json]"],
  args: {
    issue: { type: "string", valueHint: "id", required: true, description: "Issue reference (first part of the job id)" },
    stage: { type: "string", valueHint: "stage", required: true, description: "Stage (impl, verify, fix ...; second part of the job id)" },
    name: { type: "string", valueHint: "agent", required: true, description: "Unique agent name, ^[a-z][a-z0-9_-]{0,31}$" },
    model: { type: "string", valueHint: "model", required: true, description: "Model to run (required: there is no default)" },
    effort: { type: "string", valueHint: "level", description: "Effort level (part of the launch profile model@effort)" },
    kind: { type: "string", valueHint: "kind", description: "Agent kind (claude, codex ...); default from the model's provider family" },
    owner: { type: "string", valueHint: "session", required: true, description: "The spawning session's name: how `collect --owner` finds this job later" },
    brief: { type: "string", valueHint: "file", required: true, description: "The brief (see `mogui worker brief-lint`)" },
    path: { type: "string", valueHint: "path", multiple: true, description: "A repo path the job will change (repeat); classifies the surface" },
    "diff-lines": { type: "int", min: 0, max: 100_000_000, valueHint: "n", description: "Expected diff size (a local surface is T0 only at <= 30 lines)" },
    grade: { type: "enum", options: GRADE_OPTIONS, valueHint: "grade", description: "Task grade S+|S|A+|A|B|C" },
    "profile-grade": { type: "enum", options: GRADE_OPTIONS, valueHint: "grade", description: "Grade of the chosen profile (equal, or the adjacent grade above)" },
    workspace: { type: "string", valueHint: "ws", description: "herdr workspace for the new pane (required on herdr; never guessed)" },
    repo: { type: "string", valueHint: "dir", description: "The canonical checkout (default MOGUI_PRODUCT_REPO / instance config)" },
    branch: { type: "string", valueHint: "name", description: "Branch for the worktree (default <branch_prefix><job id>)" },
    worktree: { type: "string", valueHint: "dir", description: "Worktree path (default $MOGUI_HOME/worktrees/<repo>/<job id>)" },
    "max-tokens": { type: "int", min: 1, max: Number.MAX_SAFE_INTEGER, valueHint: "N", description: "The job's token cap: a claude worker gets the spend brake hook (default: the tier policy's job_token_caps)" },
    "landing-strict": { type: "boolean", description: "Exit 76 when the brief did not land (the job is still recorded)" },
    "timeout-ms": { ...ARGS.timeoutMs, description: "Timeout for each host and git call (default 30000)" },
    host: WORKER_ARGS.host,
    ledger: WORKER_ARGS.ledger,
    "inbox-root": WORKER_ARGS["inbox-root"],
    policy: WORKER_ARGS.policy,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  exits: SPAWN_EXITS,
  notes: [
    "Job id: <issue>-<stage>-<YYYYMMDD-HHMM> (UTC); inbox <inbox root>/jobs/<job id>/ (the brief's report channel).",
    "Landing proof: backoff 0.5 s -> 2 s over 30 s (60 s for codex); at most one re-injection.",
    [
      "Spend brake (D44): with a cap (--max-tokens, else the tier policy's job_token_caps for the model's tier) a",
      "claude worker's worktree gets `mogui hook spend-brake --job <id> --max-tokens <N>` merged into",
      ".claude/settings.local.json before the agent starts; the cap is recorded on the job row (max_tokens) for",
      "`spend watch --follow`, which covers the other agent kinds.",
    ].join("\n"),
  ],
  examples: ["mogui worker spawn --issue rob1234 --stage impl --name rob1234-fix --model claude-opus-5 --owner orch-a --brief brief.md --path tools/x.py --workspace w1"],
  run: jobsRun(async ({ ctx, args, fail }) => {
    const cmd = "worker spawn";
    const host = hostKind(ctx, args.host, cmd);
    const workspace = args.workspace ?? null;
    if (host === "herdr" && !workspace) throw new UsageError("--workspace is required on herdr (never omitted or guessed)", cmd);
    const surface = args.path;
    if (surface.length === 0) throw new UsageError("at least one --path is required (the surface the job will change)", cmd);
    let repo = args.repo;
    try {
      repo ??= requireProductRepo(loadInstanceConfig(ctx));
    } catch (e) {
      if (e instanceof InstanceConfigError) throw new UsageError(`${e.message} (or pass --repo)`, cmd);
      throw e;
    }
    const p = paths(ctx, { ledger: args.ledger, inboxRoot: args["inbox-root"] });
    const briefPath = resolve(ctx.cwd, args.brief);
    const policy = policyOf(ctx, args.policy, "spawn");
    const timeout = args["timeout-ms"];
    const out = await hostCall("spawn", () =>
      spawnJob(ctx, makeHost(ctx, host, timeout), policy, {
        issue: args.issue,
        stage: args.stage,
        name: args.name,
        model: args.model,
        effort: args.effort ?? null,
        kind: args.kind ?? null,
        owner: args.owner,
        brief: briefPath,
        briefText: readBrief(briefPath),
        repo: resolve(ctx.cwd, repo!),
        hostKind: host,
        workspace,
        paths: surface,
        diffLines: args["diff-lines"] ?? null,
        grade: args.grade,
        profileGrade: args["profile-grade"],
        branch: args.branch ?? null,
        worktree: args.worktree ? resolve(ctx.cwd, args.worktree) : null,
        ledger: p.ledger,
        inboxRoot: p.inboxRoot,
        moguiHome: p.home,
        maxTokens: args["max-tokens"],
      }),
    ).catch((e: unknown) => {
      if (e instanceof SpawnError) return fail(e.kind, e.message);
      throw e;
    });
    for (const f of out.findings ?? []) logger(ctx, "worker spawn").log(`${briefPath}:${f.line}: ${f.code}: ${f.message}`);
    const doc = { ...out.doc, ...(out.findings ? { findings: out.findings } : {}), ...(out.classification ? { classification: out.classification } : {}) };
    if (args.json) printDoc(ctx, doc, true);
    else if (out.doc.spawned) printLines(ctx, [`${out.doc.job_id}\t${out.doc.host} pane ${out.doc.pane_id}\t${out.doc.tier} ${out.doc.spawn_mode}\tlanded=${(out.doc.landing as { landed: boolean }).landed}`]);
    if (!out.doc.spawned) return fail(out.exit, `${cmd}: ${String(out.doc.refused)}`);
    if (out.exit === "notLanded") {
      const why = `the brief did not land in ${String(out.doc.pane_id)}: ${(out.doc.landing as { evidence: string }).evidence}; the job is recorded`;
      if (args["landing-strict"]) return fail("notLanded", `${cmd}: ${why}`);
      logger(ctx, cmd).warn(why);
    }
    return "ok";
  }),
});
