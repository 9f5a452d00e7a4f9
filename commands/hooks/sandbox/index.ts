/** `mogui sandbox`: run a command with paths read-only at the kernel level, and prove the mechanism (D39). */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "sandbox", description: "Run a command with paths read-only at the kernel level (bubblewrap, sandbox-exec), and prove the mechanism." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "sandbox"),
  examples: ["mogui sandbox check", "mogui sandbox run --deny-write ~/code/product -- claude"],
});

export default group;
