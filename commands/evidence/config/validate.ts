/** `mogui config validate <name> [--file F]`: check an instance config file with the loader the commands use. */
import { readFileSync } from "node:fs";
import { CONFIG_KINDS, configNames, configPath } from "../../../src/evidence/config/registry.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { errnoCode, errorMessage, UsageError } from "../../../src/lib/errors.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";

export default defineCommand({
  meta: {
    name: "config validate",
    description: ["Validate an instance config file with the same schema and loader the commands use. Without --file, checks", "the file the commands would load: the loader's environment variable, else $MOGUI_HOME/config/<name>.json."].join("\n"),
  },
  usage: ["config validate <name> [--file <path>] [--json]"],
  args: {
    name: { type: "positional", required: true, description: `One of: ${configNames().join(", ")}` },
    file: { type: "string", valueHint: "path", description: "The file to check (default: the loader's env variable, else $MOGUI_HOME/config/<name>.json)" },
    json: { ...ARGS.json, description: 'One compact JSON document: {"config","error"?,"path","valid"} (an invalid file too)' },
  },
  notes: ["Environment variables: instance-runtime $INSTANCE_RUNTIME_CONFIG; model-tier-policy $DISPATCH_TIER_POLICY;\n" + "workspace-descriptor $WORKSPACE_DESCRIPTOR, then $MOGUI_WORKSPACE_DESCRIPTOR."],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the file is valid" },
    invalid: { code: 1, meaning: "the file is invalid (the reason on stderr)" },
    usage: { code: 2, meaning: "usage error, or the file cannot be read" },
  },
  examples: ["mogui config validate workspace-descriptor --file config/workspace-descriptor.example.json", "mogui config validate model-tier-policy --json"],
  async run({ ctx, args, fail }) {
    const kind = CONFIG_KINDS[args.name];
    if (!kind) throw new UsageError(`unknown config '${args.name}': expected one of ${configNames().join(", ")}`, "config validate");
    const path = configPath(ctx, kind, args.file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      return fail("usage", `config validate: cannot read ${path}: ${errnoCode(e) ?? errorMessage(e)}`);
    }
    try {
      kind.validate(text, path);
    } catch (e) {
      if (args.json) printDoc(ctx, { config: kind.name, error: errorMessage(e), path, valid: false }, true);
      return fail("invalid", `config validate: ${errorMessage(e)}`);
    }
    if (args.json) printDoc(ctx, { config: kind.name, path, valid: true }, true);
    else printLines(ctx, [`valid: ${kind.name}: ${path}`]);
    return "ok";
  },
});
