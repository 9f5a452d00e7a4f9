import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { invalidRelPath } from "../../../src/ops-repo/template/paths.ts";
import { commandTemplate, templateVersion, TEMPLATE_ARG } from "../../../src/ops-repo/template/source.ts";

const NAME = "template show";

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Print one file of the template (the one embedded in this binary unless --template names another), or list",
      "its files. This is how an installer agent reads ONBOARDING.md and the onboarding stage files when all it",
      "has is the mogui binary.",
    ].join("\n"),
  },
  usage: [`${NAME} [<path>] [--template <path>] [--json]`],
  args: {
    path: { type: "positional", required: false, description: "Template-relative file to print (omit to list every file)" },
    template: TEMPLATE_ARG,
    json: { ...ARGS.json, description: "List as one compact JSON document {files, template, template_version}" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "file printed or files listed" },
    missing: { code: 1, meaning: "no such template file" },
    unreadable: { code: 2, meaning: "usage; template path unreadable" },
  },
  examples: [`mogui ${NAME} ONBOARDING.md`, `mogui ${NAME} onboarding/01-preflight.md`, `mogui ${NAME}`],
  async run({ ctx, args, fail }) {
    const src = await commandTemplate(ctx.cwd, args.template, (m) => fail("unreadable", `${NAME}: ${m}`));
    const path = args.path;
    if (path === undefined) {
      if (args.json) printDoc(ctx, { files: src.list(), template: src.label, template_version: templateVersion(src) }, true);
      else printLines(ctx, src.list());
      return "ok";
    }
    const bad = invalidRelPath(path);
    const bytes = bad ? null : src.read(path);
    if (bytes === null) return fail("missing", `${NAME}: no such template file: ${path}${bad ? ` (${bad})` : ""}`);
    ctx.io.stdout(new TextDecoder().decode(bytes));
    return "ok";
  },
});
