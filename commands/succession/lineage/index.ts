/** `mogui lineage <append|show>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "lineage", description: "The master lineage ledger (MASTER-LINEAGE.md): append a generation, show the ledger." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "lineage"),
});

export default group;
