/** `mogui config <schema|validate|init|example>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "config", description: "Instance config files: their JSON Schema, validation, the examples the binary carries." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "config"),
});

export default group;
