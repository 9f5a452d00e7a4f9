/** `mogui master-succeed <subcommand>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: {
    name: "master-succeed",
    description: "Master succession: detect a trigger, write the handoff, spawn and verify the successor, retire the predecessor.",
  },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "master-succeed"),
});

export default group;
