/** `mogui config schema <name>`: the JSON Schema of an instance config file, generated from the loader's own schema. */
import { configNames, jsonSchemaFor } from "../../../src/lib/config/registry.ts";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { printJson } from "../../../src/lib/output.ts";

export default defineMoguiCommand({
  meta: {
    name: "config schema",
    description: [
      "Print the JSON Schema (draft 2020-12) of an instance config file. It is generated from the same valibot",
      "schema the loader validates with, so an editor that checks a file against it agrees with mogui.",
    ].join("\n"),
  },
  usage: ["config schema <name> [--json]"],
  args: {
    name: { type: "positional", required: true, description: `One of: ${configNames().join(", ")}` },
    json: { type: "boolean", description: "Print compact JSON (default: indented, as in config/*.schema.json)" },
  },
  examples: ["mogui config schema workspace-descriptor > workspace-descriptor.schema.json", "mogui config schema instance-runtime --json"],
  async run(ctx, args) {
    const name = args.name as string;
    if (!configNames().includes(name)) throw new UsageError(`unknown config '${name}': expected one of ${configNames().join(", ")}`, "config schema");
    printJson(ctx, jsonSchemaFor(name), Boolean(args.json));
    return 0;
  },
});
