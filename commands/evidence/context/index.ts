/** `mogui context <resolve>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "context", description: "Workspace context: what kind of place a path is in a declared workspace." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "context"),
});

export default group;
