import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand, failWith } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { renderCheck, templateCheck } from "../../../src/ops-repo/template/check.ts";
import { commandTemplate, TEMPLATE_ARG } from "../../../src/ops-repo/template/source.ts";
import { errnoCode, errorMessage } from "../../../src/lib/errors.ts";

const NAME = "template check";

const EXITS = {
  ok: { code: 0, meaning: "current: no drift, installed version == template version" },
  drift: { code: 1, meaning: "drift or behind: absent/unknown files, symlinks, unfilled {{PLACEHOLDER}} tokens, no MANIFEST.json, version differs (adoption notes listed)" },
  unreadable: { code: 2, meaning: "could not check: ops root or template unreadable, malformed manifest, template VERSION or CHANGELOG unreadable (invalid UTF-8 included)" },
} as const;

const unreadable = (msg: string): never => failWith(EXITS, "unreadable", `${NAME}: ${msg}`);

/** --ops default: the working directory, when it looks like an ops repository (MANIFEST.json or docs/). */
function opsRoot(cwd: string, flag: string | undefined): string {
  const p = resolve(cwd, flag ?? ".");
  let dir = false;
  try {
    dir = statSync(p).isDirectory();
  } catch {
    /* below */
  }
  if (!dir) return unreadable(flag ? `ops root unreadable: ${p}` : "ops root unreadable; pass --ops <path>");
  if (!flag && !existsSync(join(p, "MANIFEST.json")) && !existsSync(join(p, "docs"))) return unreadable("ops root unreadable; pass --ops <path>");
  return p;
}

export default defineCommand({
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
    ops: { ...ARGS.ops, alias: "ops-repo", description: "The ops repository (default: the working directory; --ops-repo is an alias)" },
    template: TEMPLATE_ARG,
    "no-template": { type: "boolean", description: "Check only against the repository's own MANIFEST.json" },
    json: { ...ARGS.json, description: "Print the report as one compact JSON document (keys sorted)" },
  },
  rules: { exclusive: [["template", "no-template"]] },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: EXITS,
  notes: ["Instance-owned paths (docs/lineage/, .beads/, config/, contracts/, docs/runbooks/role-state.md) and the\n" + "template-side files (TEMPLATE-VERSION, CHANGELOG.md, ONBOARDING.md, onboarding/) are never unknown."],
  examples: [`mogui ${NAME} --ops ~/work/acme-ops`, `mogui ${NAME} --ops . --json`],
  async run({ ctx, args }) {
    const ops = opsRoot(ctx.cwd, args.ops);
    const src = args["no-template"] ? null : await commandTemplate(ctx.cwd, args.template, unreadable);
    let outcome;
    try {
      outcome = templateCheck(ops, src);
    } catch (e) {
      return unreadable(`could not read inputs: ${errnoCode(e) ?? errorMessage(e)}`);
    }
    if (args.json) printDoc(ctx, outcome.report, true);
    else printLines(ctx, renderCheck(outcome.report, outcome.code));
    if (outcome.code === EXITS.unreadable.code) logger(ctx, NAME).log(`could not check: ${outcome.report.questions_unanswered.join("; ")}`);
    return outcome.code === EXITS.unreadable.code ? "unreadable" : outcome.code === EXITS.drift.code ? "drift" : "ok";
  },
});
