import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { printJson, printLines } from "../../../src/lib/output.ts";
import { invalidRelPath } from "../../../src/ops-repo/template/paths.ts";
import { commandTemplate, templateVersion } from "../../../src/ops-repo/template/source.ts";

const NAME = "template show";

export default defineMoguiCommand({
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
    template: { type: "string", valueHint: "path", description: "Template skeleton or a clone holding master-ops/ (default: embedded)" },
    json: { type: "boolean", description: "List as JSON {template, template_version, files}" },
  },
  examples: [`mogui ${NAME} ONBOARDING.md`, `mogui ${NAME} onboarding/01-preflight.md`, `mogui ${NAME}`],
  async run(ctx, args) {
    const src = await commandTemplate(ctx.cwd, args.template as string | undefined, NAME);
    const path = args.path as string | undefined;
    if (path === undefined) {
      if (args.json) printJson(ctx, { files: src.list(), template: src.label, template_version: templateVersion(src) }, true);
      else printLines(ctx, src.list());
      return 0;
    }
    const bad = invalidRelPath(path);
    const bytes = bad ? null : src.read(path);
    if (bytes === null) throw new ExitError(1, `${NAME}: no such template file: ${path}${bad ? ` (${bad})` : ""}`);
    ctx.io.stdout(new TextDecoder().decode(bytes));
    return 0;
  },
});
