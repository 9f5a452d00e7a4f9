/** `mogui master-succeed <subcommand>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: {
    name: "master-succeed",
    description: "Master succession: detect a trigger, write the handoff, spawn and verify the successor, retire the predecessor.",
  },
  exits: GROUP_EXITS,
  subCommands: {
    detect: () => import("./detect.ts").then((m) => m.default),
    handoff: () => import("./handoff.ts").then((m) => m.default),
    "verify-successor": () => import("./verify-successor.ts").then((m) => m.default),
    "check-duplicates": () => import("./check-duplicates.ts").then((m) => m.default),
    retire: () => import("./retire.ts").then((m) => m.default),
    spawn: () => import("./spawn.ts").then((m) => m.default),
  },
});
