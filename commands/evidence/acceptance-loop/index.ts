/** `mogui acceptance-loop <validate|split|run|inspect>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: {
    name: "acceptance-loop",
    description: "The deterministic acceptance loop: validate a config, write its split, run it, inspect a finished run.",
  },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "acceptance-loop"),
});

export default group;
