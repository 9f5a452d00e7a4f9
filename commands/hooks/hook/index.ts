/** `mogui hook <name>`: the host hooks (each reads the host's hook JSON on stdin) and `hook install`. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "hook", description: "The host hooks mogui provides (each reads the host's hook JSON on stdin), and their installer." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "hook"),
  examples: ["mogui hook install --host claude --dry-run"],
});

export default group;
