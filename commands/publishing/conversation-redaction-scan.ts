import { ARGS, UNBOUNDED_MAX } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { formatViolation, scanConversations } from "../../src/publishing/github/conversation-scan.ts";
import { GhError, REPO_RE, requireGhAuth } from "../../src/publishing/github/gh.ts";

const REPO_ENV = "MOGUI_PRODUCT_GITHUB";

export default defineCommand({
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
    // The original: `--limit N` handed to gh, no upper bound (issue 26 §3); gh needs at least 1.
    limit: { type: "int", min: 1, max: UNBOUNDED_MAX, default: 30, valueHint: "n", description: "How many PRs and how many issues to read (default 30)" },
    json: { ...ARGS.json, description: "Print one compact JSON document {count, repo, violations:[{author, locator, number, pattern, surface}]}" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  exits: {
    ok: { code: 0, meaning: "no home path in the scanned conversations" },
    violations: { code: 1, meaning: "violations found (surface|number|author|locator|pattern per line, never the value)" },
    unavailable: { code: 2, meaning: "usage error (no or bad repository, bad --limit); gh missing, not authenticated, or an API call failed" },
  },
  notes: ["MOGUI_PRODUCT_REPO is a local checkout path (D3) and is never read here."],
  examples: ["mogui conversation-redaction-scan --repo acme/widget", "MOGUI_PRODUCT_GITHUB=acme/widget mogui conversation-redaction-scan --limit 100"],
  async run({ ctx, args, fail }) {
    const repo = args.repo ?? ctx.env[REPO_ENV]?.trim();
    if (!repo) throw new UsageError(`name the repository: --repo owner/name or $${REPO_ENV}`, "conversation-redaction-scan");
    if (!REPO_RE.test(repo)) throw new UsageError(`the repository must be owner/name (got '${repo}')`, "conversation-redaction-scan");
    let violations;
    try {
      await requireGhAuth(ctx);
      violations = await scanConversations(ctx, repo, args.limit);
    } catch (e) {
      if (e instanceof GhError) return fail("unavailable", `conversation-redaction-scan: ${e.message}`);
      throw e;
    }
    if (args.json) printDoc(ctx, { count: violations.length, repo, violations }, true);
    else {
      printLines(ctx, violations.map(formatViolation));
      logger(ctx, "conversation-redaction-scan").log(`${violations.length} violation(s) in ${repo}`);
    }
    return violations.length ? "violations" : "ok";
  },
});
