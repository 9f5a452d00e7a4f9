import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { lintBrief } from "../../../src/workers/worker/brief.ts";
import { JSON_ARG, str } from "../../../src/workers/worker/cli.ts";

export default defineMoguiCommand({
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
    ...JSON_ARG,
  },
  notes: ["Template: fixtures/worker/brief-template.md. Format: docs/workers.md, section 'Brief format'."],
  examples: ["mogui worker brief-lint brief.md", "mogui worker brief-lint brief.md --inbox ~/.mogui/inbox/jobs/rob1-impl-20260801-0930 --filled --json"],
  async run(ctx, args) {
    const path = resolve(ctx.cwd, str(args, "brief")!);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new ExitError(2, `worker brief-lint: unreadable: ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const inbox = str(args, "inbox") ? resolve(ctx.cwd, str(args, "inbox")!) : undefined;
    const { findings, facts } = lintBrief(text, { inbox, filled: Boolean(args.filled) });
    if (args.json) printJson(ctx, sortKeys({ brief: path, clean: findings.length === 0, findings, facts }), true);
    else if (findings.length) printLines(ctx, findings.map((f) => `${path}:${f.line}: ${f.code}: ${f.message}`));
    else printLines(ctx, [`${path}: clean (T ${facts.tier}, ${facts.directives.length} directives, ${facts.criteria.length} criteria)`]);
    return findings.length ? 1 : 0;
  },
});
