import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { renderCheck, templateCheck } from "../../../src/ops-repo/template/check.ts";
import { commandTemplate } from "../../../src/ops-repo/template/source.ts";

const NAME = "template check";
const fail = (msg: string) => new ExitError(2, `${NAME}: ${msg}`);

/** --ops default: the working directory, when it looks like an ops repository (MANIFEST.json or docs/). */
function opsRoot(cwd: string, flag: string | undefined): string {
  const p = resolve(cwd, flag ?? ".");
  let dir = false;
  try {
    dir = statSync(p).isDirectory();
  } catch {
    /* below */
  }
  if (!dir) throw fail(flag ? `ops root unreadable: ${p}` : "ops root unreadable; pass --ops <path>");
  if (!flag && !existsSync(join(p, "MANIFEST.json")) && !existsSync(join(p, "docs"))) throw fail("ops root unreadable; pass --ops <path>");
  return p;
}

export default defineMoguiCommand({
  meta: {
    name: NAME,
    description: [
      "Compare an ops repository with the template (the one embedded in this binary unless --template names",
      "another): files the template requires but the repository lacks, files the template does not know,",
      "symlinks, {{PLACEHOLDER}} tokens left unfilled in its .md/.json/.txt files, the installed vs template",
      "version, and the CHANGELOG sections not adopted yet. Template files must be valid UTF-8. Read-only.",
    ].join("\n"),
  },
  usage: [`${NAME} [--ops <path>] [--template <path> | --no-template] [--json]`],
  args: {
    ops: { type: "string", valueHint: "path", description: "The ops repository (default: the working directory)" },
    template: { type: "string", valueHint: "path", description: "Template skeleton or a clone holding master-ops/ (default: embedded)" },
    "no-template": { type: "boolean", description: "Check only against the repository's own MANIFEST.json" },
    json: { type: "boolean", description: "Print the report as one JSON document" },
  },
  rules: { exclusive: [["template", "no-template"]] },
  notes: [
    "Instance-owned paths (docs/lineage/, .beads/, config/, contracts/, docs/runbooks/role-state.md) and the\n" +
      "template-side files (TEMPLATE-VERSION, CHANGELOG.md, ONBOARDING.md, onboarding/) are never unknown.",
  ],
  examples: [`mogui ${NAME} --ops ~/work/acme-ops`, `mogui ${NAME} --ops . --json`],
  async run(ctx, args) {
    const ops = opsRoot(ctx.cwd, args.ops as string | undefined);
    const src = args["no-template"] ? null : await commandTemplate(ctx.cwd, args.template as string | undefined, NAME);
    let outcome;
    try {
      outcome = templateCheck(ops, src);
    } catch (e) {
      throw fail(`could not read inputs: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (args.json) printJson(ctx, sortKeys(outcome.report), false);
    else printLines(ctx, renderCheck(outcome.report, outcome.code));
    if (outcome.code === 2) ctx.io.stderr(`${NAME}: could not check: ${outcome.report.questions_unanswered.join("; ")}\n`);
    return outcome.code;
  },
});
