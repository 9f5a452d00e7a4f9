/** `mogui context <resolve>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "context", description: "Workspace context: what kind of place a path is in a declared workspace." },
  exits: GROUP_EXITS,
  subCommands: {
    resolve: () => import("./resolve.ts").then((m) => m.default),
  },
});
