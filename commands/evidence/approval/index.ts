/** `mogui approval <classify>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "approval", description: "Approval gates: the gate class (G0-G3) of an action described by flags." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "approval"),
});

export default group;
