import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { GhError, REPO_RE, requireGhAuth } from "../../src/publishing/github/gh.ts";
import { currentRepo, renderSteward, stewardStatus } from "../../src/publishing/github/pr-steward.ts";

export default defineCommand({
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
    json: { ...ARGS.json, description: "Print one compact JSON document {conditions:[{detail, name, state}], pr, ready, repo}" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  exits: {
    ok: { code: 0, meaning: "READY (unreachable today: the gates condition is never visible from the API)" },
    notReady: { code: 1, meaning: "NOT READY: at least one condition is not met or unverified" },
    unavailable: { code: 2, meaning: "usage error; gh missing or not authenticated; the repository or PR could not be read" },
  },
  examples: ["mogui pr-steward-status 42 --repo acme/widget"],
  async run({ ctx, args, fail }) {
    const pr = args.pr;
    if (!/^[1-9]\d*$/.test(pr)) throw new UsageError(`<pr> must be a pull request number (got '${pr}')`, "pr-steward-status");
    let repo = args.repo ?? ctx.env.GH_REPO?.trim();
    if (repo && !REPO_RE.test(repo)) throw new UsageError(`the repository must be owner/name (got '${repo}')`, "pr-steward-status");
    let report;
    try {
      await requireGhAuth(ctx);
      repo ??= await currentRepo(ctx);
      report = await stewardStatus(ctx, repo, Number(pr));
    } catch (e) {
      if (e instanceof GhError) return fail("unavailable", `pr-steward-status: ${e.message}`);
      throw e;
    }
    if (args.json) printDoc(ctx, { conditions: report.conditions, pr: report.pr, ready: report.ready, repo: report.repo }, true);
    else printLines(ctx, renderSteward(report));
    return report.ready ? "ok" : "notReady";
  },
});
