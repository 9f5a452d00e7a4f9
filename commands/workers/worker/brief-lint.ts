import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { lintBrief } from "../../../src/workers/worker/brief.ts";
import { WORKER_ARGS } from "./_shared.ts";
import { errnoCode, errorMessage } from "../../../src/lib/errors.ts";

export default defineCommand({
  meta: {
    name: "worker brief-lint",
    description: [
      "Check a brief: the six parts (task + acceptance criteria, worktree path + branch, constraints, completion",
      "criteria + report format, prohibitions, report channel = the job's inbox path), a declared T, an explicit",
      "environment whenever it mentions e2e, and every [Dn] directive mapped to an [ACn] (Dn) criterion that names",
      "an observable check (a command in backticks and what its output must or must not show).",
    ].join("\n"),
  },
  usage: ["worker brief-lint <brief.md> [--inbox <dir>] [--filled] [--json]"],
  args: {
    brief: { type: "positional", required: true, valueHint: "brief.md", description: "The brief to check" },
    inbox: { type: "string", valueHint: "dir", description: "The job's inbox: the report channel must name exactly this path" },
    filled: { type: "boolean", description: "Also refuse placeholders left unfilled ({{INBOX}} ...), as spawn does" },
    json: WORKER_ARGS.json,
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "clean" },
    findings: { code: 1, meaning: "findings (one line each: file:line: CODE: message)" },
    usage: { code: 2, meaning: "usage; the brief is unreadable" },
  },
  notes: ["Template: fixtures/worker/brief-template.md. Format: docs/workers.md, section 'Brief format'."],
  examples: ["mogui worker brief-lint brief.md", "mogui worker brief-lint brief.md --inbox ~/.mogui/inbox/jobs/rob1-impl-20260801-0930 --filled --json"],
  async run({ ctx, args, fail }) {
    const path = resolve(ctx.cwd, args.brief);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      return fail("usage", `worker brief-lint: unreadable: ${path}: ${errnoCode(e) ?? errorMessage(e)}`);
    }
    const inbox = args.inbox ? resolve(ctx.cwd, args.inbox) : undefined;
    const { findings, facts } = lintBrief(text, { inbox, filled: args.filled });
    if (args.json) printDoc(ctx, { brief: path, clean: findings.length === 0, findings, facts }, true);
    else if (findings.length)
      printLines(
        ctx,
        findings.map((f) => `${path}:${f.line}: ${f.code}: ${f.message}`),
      );
    else printLines(ctx, [`${path}: clean (T ${facts.tier}, ${facts.directives.length} directives, ${facts.criteria.length} criteria)`]);
    return findings.length ? "findings" : "ok";
  },
});
