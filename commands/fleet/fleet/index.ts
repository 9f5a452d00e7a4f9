/** `mogui fleet <scan|reap>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "fleet", description: "Fleet hygiene: every worktree of some repositories, and a safe bulk cleanup of the finished ones." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "fleet"),
  examples: ["mogui fleet --json scan --repo ./app"],
});

export default group;
