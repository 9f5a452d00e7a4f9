/** `mogui l1-digest <tick>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "l1-digest", description: "The L1 observation digest: one read-only tick of repo drift triage and job status." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "l1-digest"),
});

export default group;
