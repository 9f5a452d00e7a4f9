/** `mogui lineage <append|show>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "lineage", description: "The master lineage ledger (MASTER-LINEAGE.md): append a generation, show the ledger." },
  exits: GROUP_EXITS,
  subCommands: {
    append: () => import("./append.ts").then((m) => m.default),
    show: () => import("./show.ts").then((m) => m.default),
  },
});
