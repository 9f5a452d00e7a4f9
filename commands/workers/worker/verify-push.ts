import { resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { jobsRun, paths, WORKER_ARGS } from "./_shared.ts";
import { WORKER_EXITS } from "../../../src/workers/worker/exits.ts";
import { getJob, record, reportPath } from "../../../src/workers/worker/jobs.ts";
import { claimedShaFromReport, isSha, verifyPush } from "../../../src/workers/worker/push.ts";

export default defineCommand({
  meta: {
    name: "worker verify-push",
    description: [
      "Check a worker's push claim against the remote: `git ls-remote <remote> refs/heads/<branch>` must show the",
      "claimed SHA. A mismatch or a missing branch exits 3 naming both SHAs. With --job the result is recorded, and a",
      "passing check is required before `worker decide --state merged`.",
    ].join("\n"),
  },
  usage: ["worker verify-push --job <id> [--sha <sha>] [--remote <name>] [--json]", "worker verify-push --repo <dir> --branch <name> --sha <sha> [--remote <name>] [--json]"],
  args: {
    job: { type: "string", valueHint: "id", description: "The job (repo and branch from the ledger; SHA from --sha or the report's `Push SHA:` line)" },
    repo: { type: "string", valueHint: "dir", description: "Checkout to run ls-remote in (without --job)" },
    branch: { type: "string", valueHint: "name", description: "Branch the worker pushed (without --job)" },
    sha: { type: "string", valueHint: "sha", description: "The claimed commit SHA (>= 7 hex digits)" },
    remote: { type: "string", valueHint: "name", default: "origin", description: "Remote name or URL" },
    ledger: WORKER_ARGS.ledger,
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  exits: {
    ok: { code: 0, meaning: "the remote branch is at the claimed SHA" },
    failed: { code: 1, meaning: "git ls-remote failed" },
    ledgerUnavailable: WORKER_EXITS.ledgerUnavailable,
    mismatch: { code: 3, meaning: "mismatch or no such remote branch (both SHAs named)" },
  },
  rules: {
    exclusive: [
      ["job", "repo"],
      ["job", "branch"],
    ],
  },
  examples: ["mogui worker verify-push --job rob1234-impl-20260801-0930", "mogui worker verify-push --repo . --branch worker/x --sha 1a2b3c4d"],
  run: jobsRun(async ({ ctx, args, fail }) => {
    const cmd = "worker verify-push";
    const jobId = args.job;
    const remote = args.remote;
    // git would read a remote that starts with '-' as an option (`--upload-pack=<command>` runs a command).
    if (remote.startsWith("-")) throw new UsageError(`--remote must be a remote name or URL, not an option (got '${remote}')`, cmd);
    const ledger = paths(ctx, { ledger: args.ledger }).ledger;
    let repo: string;
    let branch: string;
    let claimed = args.sha?.toLowerCase();
    if (jobId) {
      const j = await getJob(ctx, ledger, jobId, "verify-push");
      repo = j.spawn.repo;
      branch = j.spawn.branch;
      claimed ??= claimedShaFromReport(reportPath(j, String(j.spawn.report_file ?? "report.md"))) ?? undefined;
      if (!claimed) throw new UsageError(`no --sha and no 'Push SHA:' line in ${reportPath(j, String(j.spawn.report_file ?? "report.md"))}`, cmd);
    } else {
      if (!args.repo || !args.branch || !claimed) throw new UsageError("without --job, --repo, --branch and --sha are all required", cmd);
      repo = resolve(ctx.cwd, args.repo);
      branch = args.branch;
    }
    if (!isSha(claimed)) throw new UsageError(`--sha must be 7-64 lowercase hex digits (got '${claimed}')`, cmd);
    const r = await verifyPush(ctx, repo, remote, branch, claimed);
    if ("error" in r) return fail("failed", `${cmd}: ${r.error}`);
    if (jobId) record(ctx, ledger, "verify-push", { event: "push_verified", job_id: jobId, ...r });
    if (args.json) printDoc(ctx, { job_id: jobId ?? null, ...r }, true);
    else printLines(ctx, [`${r.ok ? "OK" : "MISMATCH"}\t${r.reason}`]);
    if (!r.ok) return fail("mismatch", `${cmd}: ${r.reason}`);
    return "ok";
  }),
});
