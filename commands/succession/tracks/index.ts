/** `mogui tracks <register|update|close|list>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "tracks", description: "The work ledger of tracks: register, update, close, list." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "tracks"),
  examples: ["mogui tracks --json list --all"],
});

export default group;
