/** `mogui adapter <doctor>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "adapter", description: "Host adapter: which host tools this machine has." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "adapter"),
});

export default group;
