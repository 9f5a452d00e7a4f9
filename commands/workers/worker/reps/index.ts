/** `mogui worker reps <add|report>`: measured runs (the subcommands' files stay beside the worker group's). */
import { defineGroup, type Group, subCommandsOf } from "../../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../../src/lib/exits.ts";
import { commands } from "../../index.ts";

const group: Group = defineGroup({
  meta: { name: "worker reps", description: "Measured runs of launch profiles: record one (add), aggregate them (report)." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "worker reps"),
  examples: ["mogui worker reps report --json"],
});

export default group;
