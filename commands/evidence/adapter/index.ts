/** `mogui adapter <doctor>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "adapter", description: "Host adapter: which host tools this machine has." },
  exits: GROUP_EXITS,
  subCommands: {
    doctor: () => import("./doctor.ts").then((m) => m.default),
  },
});
