import { defineMoguiCommand } from "../../src/lib/command.ts";
import { ExitError, UsageError } from "../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../src/lib/output.ts";
import { GhError, REPO_RE, requireGhAuth } from "../../src/hooks/ops/gh.ts";
import { currentRepo, renderSteward, stewardStatus } from "../../src/hooks/ops/pr-steward.ts";

export default defineMoguiCommand({
  meta: {
    name: "pr-steward-status",
    description: [
      "Is a pull request ready to merge? Four conditions through gh and GraphQL: checks concluded and green,",
      "review threads resolved and replied to, mergeable with the base contained in the head, and gates re-run",
      "(never visible from the API, so always UNVERIFIED: the overall verdict stays NOT READY until a human",
      "confirms the gates).",
    ].join("\n"),
  },
  usage: ["pr-steward-status <pr> [--repo <owner/name>] [--json]"],
  args: {
    pr: { type: "positional", required: true, valueHint: "number", description: "Pull request number" },
    repo: { type: "string", valueHint: "owner/name", description: "Repository (default $GH_REPO, else gh's current repository)" },
    json: { type: "boolean", description: "Print {repo, pr, ready, conditions:[{name, state, detail}]}" },
  },
  examples: ["mogui pr-steward-status 42 --repo acme/widget"],
  async run(ctx, args) {
    const pr = args.pr as string;
    if (!/^[1-9]\d*$/.test(pr)) throw new UsageError(`<pr> must be a pull request number (got '${pr}')`, "pr-steward-status");
    let repo = (args.repo as string | undefined) ?? ctx.env.GH_REPO?.trim();
    if (repo && !REPO_RE.test(repo)) throw new UsageError(`the repository must be owner/name (got '${repo}')`, "pr-steward-status");
    let report;
    try {
      await requireGhAuth(ctx);
      repo ??= await currentRepo(ctx);
      report = await stewardStatus(ctx, repo, Number(pr));
    } catch (e) {
      if (e instanceof GhError) throw new ExitError(2, `pr-steward-status: ${e.message}`);
      throw e;
    }
    if (args.json) printJson(ctx, sortKeys({ conditions: report.conditions, pr: report.pr, ready: report.ready, repo: report.repo }), true);
    else printLines(ctx, renderSteward(report));
    return report.ready ? 0 : 1;
  },
});
