/** `mogui config <schema|validate|init|example>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "config", description: "Instance config files: their JSON Schema, validation, the examples the binary carries." },
  exits: GROUP_EXITS,
  subCommands: {
    schema: () => import("./schema.ts").then((m) => m.default),
    validate: () => import("./validate.ts").then((m) => m.default),
    init: () => import("./init.ts").then((m) => m.default),
    example: () => import("./example.ts").then((m) => m.default),
  },
});
