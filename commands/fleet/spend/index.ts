/** `mogui spend <record|report|watch>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "spend", description: "Token spend measured from the workers' own transcripts: record, report, watch." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "spend"),
  examples: ["mogui spend --json report --by model"],
});

export default group;
