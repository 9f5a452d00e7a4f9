/** `mogui config schema <name>`: the JSON Schema of an instance config file, generated from the loader's own schema. */
import { configNames, jsonSchemaFor } from "../../../src/evidence/config/registry.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { UsageError } from "../../../src/lib/errors.ts";
import { printJson } from "../../../src/lib/output.ts";

export default defineCommand({
  meta: {
    name: "config schema",
    description: ["Print the JSON Schema (draft 2020-12) of an instance config file. It is generated from the same valibot", "schema the loader validates with, so an editor that checks a file against it agrees with mogui."].join("\n"),
  },
  usage: ["config schema <name> [--json]"],
  args: {
    name: { type: "positional", required: true, description: `One of: ${configNames().join(", ")}` },
    json: { ...ARGS.json, description: "Print compact JSON (default: indented, as in config/*.schema.json)" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the JSON Schema was printed" },
    usage: { code: 2, meaning: "usage error: unknown config name" },
  },
  examples: ["mogui config schema workspace-descriptor > workspace-descriptor.schema.json", "mogui config schema instance-runtime --json"],
  async run({ ctx, args }) {
    const name = args.name;
    if (!configNames().includes(name)) throw new UsageError(`unknown config '${name}': expected one of ${configNames().join(", ")}`, "config schema");
    // Key order kept (printJson, not printDoc): the output is byte for byte the committed config/<name>.schema.json,
    // whose keys follow the JSON Schema convention ($schema first), as editors expect.
    printJson(ctx, jsonSchemaFor(name), args.json);
    return "ok";
  },
});
