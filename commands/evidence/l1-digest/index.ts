/** `mogui l1-digest <tick>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "l1-digest", description: "The L1 observation digest: one read-only tick of repo drift triage and job status." },
  exits: GROUP_EXITS,
  subCommands: {
    tick: () => import("./tick.ts").then((m) => m.default),
  },
});
