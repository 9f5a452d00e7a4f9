import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand, failWith } from "../../src/lib/command.ts";
import { errnoCode, UsageError } from "../../src/lib/errors.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { GhError, ghJson, repoArgs, REPO_RE, requireGhAuth } from "../../src/publishing/github/gh.ts";
import { checkBody, renderBody } from "../../src/publishing/github/pr-body.ts";

const NAME = "pr-body-check";

const EXITS = {
  ok: { code: 0, meaning: "every section filled and no home path" },
  incomplete: { code: 1, meaning: "a section is missing, empty or unmodified template guidance, or a home path was found" },
  unavailable: { code: 2, meaning: "usage error; gh missing or not authenticated; the PR or a file could not be read" },
} as const;

const TEMPLATES = [".github/pull_request_template.md", ".github/PULL_REQUEST_TEMPLATE.md", "pull_request_template.md"];

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    return failWith(EXITS, "unavailable", `${NAME}: cannot read ${what} ${path}: ${errnoCode(e) ?? "error"}`);
  }
}

function defaultTemplate(cwd: string): string | null {
  for (const t of TEMPLATES) {
    try {
      return readFileSync(join(cwd, t), "utf8");
    } catch {
      /* try the next spelling */
    }
  }
  return null;
}

export default defineCommand({
  meta: {
    name: "pr-body-check",
    description: [
      "Check a pull request's description: the sections Problem, Why this approach, What this changes and",
      "Expected effect must exist, be non-empty and differ from the template's guidance. Prints",
      "`<heading>: filled | missing heading | present but empty | present but unmodified template guidance`,",
      "and `Line n: [home_path] absolute path detected` for /Users/ or /home/ paths (never the path itself).",
    ].join("\n"),
  },
  usage: ["pr-body-check <pr> [--repo <owner/name>] [--template-file <path>] [--json]", "pr-body-check --body-file <path> [--template-file <path>] [--json]"],
  args: {
    pr: { type: "positional", required: false, valueHint: "number", description: "Pull request number (read with gh pr view)" },
    repo: { type: "string", valueHint: "owner/name", description: "Repository (default: gh's current repository)" },
    "body-file": { type: "string", valueHint: "path", description: "Check this file instead of asking gh" },
    "template-file": { type: "string", valueHint: "path", description: "The PR template (default .github/pull_request_template.md when present)" },
    json: { ...ARGS.json, description: "Print one compact JSON document {home_path_lines, ok, sections:[{heading, state}]}" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  exits: EXITS,
  examples: ["mogui pr-body-check 42", "mogui pr-body-check --body-file body.md --template-file .github/pull_request_template.md"],
  async run({ ctx, args, fail }) {
    const { pr, repo } = args;
    const bodyFile = args["body-file"];
    if (!pr && !bodyFile) throw new UsageError("name a pull request number or --body-file", "pr-body-check");
    if (pr && !/^[1-9]\d*$/.test(pr)) throw new UsageError(`<pr> must be a pull request number (got '${pr}')`, "pr-body-check");
    if (repo && !REPO_RE.test(repo)) throw new UsageError(`--repo must be owner/name (got '${repo}')`, "pr-body-check");
    const tfile = args["template-file"];
    const template = tfile ? readText(resolve(ctx.cwd, tfile), "template") : defaultTemplate(ctx.cwd);
    let body: string;
    if (bodyFile) body = readText(resolve(ctx.cwd, bodyFile), "body file");
    else {
      try {
        await requireGhAuth(ctx);
        const v = (await ghJson(ctx, ["pr", "view", pr!, "--json", "body", ...repoArgs(repo)])) as { body?: unknown };
        body = typeof v.body === "string" ? v.body : "";
      } catch (e) {
        if (e instanceof GhError) return fail("unavailable", `${NAME}: ${e.message}`);
        throw e;
      }
    }
    const r = checkBody(body, template);
    if (args.json) printDoc(ctx, { home_path_lines: r.home_path_lines, ok: r.ok, sections: r.sections }, true);
    else printLines(ctx, renderBody(r));
    return r.ok ? "ok" : "incomplete";
  },
});
