import { resolve } from "node:path";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError, UsageError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { JSON_ARG, LEDGER_ARG, paths, str } from "../../../src/workers/worker/cli.ts";
import { getJob, record, reportPath } from "../../../src/workers/worker/jobs.ts";
import { claimedShaFromReport, isSha, verifyPush } from "../../../src/workers/worker/push.ts";

export const VERIFY_PUSH_EXIT = { OK: 0, FAILED: 1, USAGE: 2, MISMATCH: 3 } as const;

export default defineMoguiCommand({
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
    remote: { type: "string", valueHint: "name", description: "Remote name or URL (default origin)" },
    ...LEDGER_ARG,
    ...JSON_ARG,
  },
  rules: { exclusive: [["job", "repo"], ["job", "branch"]] },
  examples: ["mogui worker verify-push --job rob1234-impl-20260801-0930", "mogui worker verify-push --repo . --branch worker/x --sha 1a2b3c4d"],
  async run(ctx, args) {
    const cmd = "worker verify-push";
    const jobId = str(args, "job");
    const remote = str(args, "remote") ?? "origin";
    // git would read a remote that starts with '-' as an option (`--upload-pack=<command>` runs a command).
    if (remote.startsWith("-")) throw new UsageError(`--remote must be a remote name or URL, not an option (got '${remote}')`, cmd);
    const ledger = paths(ctx, args).ledger;
    let repo: string;
    let branch: string;
    let claimed = str(args, "sha")?.toLowerCase();
    if (jobId) {
      const j = await getJob(ctx, ledger, jobId, "verify-push");
      repo = j.spawn.repo;
      branch = j.spawn.branch;
      claimed ??= claimedShaFromReport(reportPath(j, String(j.spawn.report_file ?? "report.md"))) ?? undefined;
      if (!claimed) throw new UsageError(`no --sha and no 'Push SHA:' line in ${reportPath(j, String(j.spawn.report_file ?? "report.md"))}`, cmd);
    } else {
      if (!str(args, "repo") || !str(args, "branch") || !claimed) throw new UsageError("without --job, --repo, --branch and --sha are all required", cmd);
      repo = resolve(ctx.cwd, str(args, "repo")!);
      branch = str(args, "branch")!;
    }
    if (!isSha(claimed)) throw new UsageError(`--sha must be 7-64 lowercase hex digits (got '${claimed}')`, cmd);
    const r = await verifyPush(ctx, repo, remote, branch, claimed);
    if ("error" in r) throw new ExitError(VERIFY_PUSH_EXIT.FAILED, `worker verify-push: ${r.error}`);
    if (jobId) record(ctx, ledger, "verify-push", { event: "push_verified", job_id: jobId, ...r });
    if (args.json) printJson(ctx, sortKeys({ job_id: jobId ?? null, ...r }), true);
    else printLines(ctx, [`${r.ok ? "OK" : "MISMATCH"}\t${r.reason}`]);
    if (!r.ok) {
      ctx.io.stderr(`worker verify-push: ${r.reason}\n`);
      return VERIFY_PUSH_EXIT.MISMATCH;
    }
    return VERIFY_PUSH_EXIT.OK;
  },
});
