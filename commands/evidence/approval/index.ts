/** `mogui approval <classify>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "approval", description: "Approval gates: the gate class (G0-G3) of an action described by flags." },
  exits: GROUP_EXITS,
  subCommands: {
    classify: () => import("./classify.ts").then((m) => m.default),
  },
});
