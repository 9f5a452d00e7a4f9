import { defineMoguiCommand } from "../../src/lib/command.ts";
import { ExitError, UsageError } from "../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../src/lib/output.ts";
import { formatViolation, scanConversations } from "../../src/hooks/ops/conversation-scan.ts";
import { GhError, REPO_RE, requireGhAuth } from "../../src/hooks/ops/gh.ts";

const REPO_ENV = "MOGUI_PRODUCT_GITHUB";

export default defineMoguiCommand({
  meta: {
    name: "conversation-redaction-scan",
    description: [
      "Scan a repository's conversations through gh (PR bodies, PR comments and reviews, issue bodies and issue",
      "comments; the newest N of each) for local home paths (/Users/<x>, /home/<x>). Prints",
      "`surface|number|author|locator|pattern` per violation: where it is and which rule matched, never the value.",
    ].join("\n"),
  },
  usage: ["conversation-redaction-scan [--repo <owner/name>] [--limit <n>] [--json]"],
  args: {
    repo: { type: "string", valueHint: "owner/name", description: `GitHub repository (default $${REPO_ENV}, DECISIONS D3)` },
    limit: { type: "string", valueHint: "n", description: "How many PRs and how many issues to read (default 30)" },
    json: { type: "boolean", description: "Print {repo, count, violations:[{surface, number, author, locator, pattern}]}" },
  },
  notes: ["MOGUI_PRODUCT_REPO is a local checkout path (D3) and is never read here."],
  examples: ["mogui conversation-redaction-scan --repo acme/widget", "MOGUI_PRODUCT_GITHUB=acme/widget mogui conversation-redaction-scan --limit 100"],
  async run(ctx, args) {
    const repo = (args.repo as string | undefined) ?? ctx.env[REPO_ENV]?.trim();
    if (!repo) throw new UsageError(`name the repository: --repo owner/name or $${REPO_ENV}`, "conversation-redaction-scan");
    if (!REPO_RE.test(repo)) throw new UsageError(`the repository must be owner/name (got '${repo}')`, "conversation-redaction-scan");
    const rawLimit = (args.limit as string | undefined) ?? "30";
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 1000) throw new UsageError(`--limit takes a whole number from 1 to 1000 (got '${rawLimit}')`, "conversation-redaction-scan");
    let violations;
    try {
      await requireGhAuth(ctx);
      violations = await scanConversations(ctx, repo, Number(rawLimit));
    } catch (e) {
      if (e instanceof GhError) throw new ExitError(2, `conversation-redaction-scan: ${e.message}`);
      throw e;
    }
    if (args.json) printJson(ctx, sortKeys({ count: violations.length, repo, violations }), true);
    else {
      printLines(ctx, violations.map(formatViolation));
      ctx.io.stderr(`conversation-redaction-scan: ${violations.length} violation(s) in ${repo}\n`);
    }
    return violations.length ? 1 : 0;
  },
});
