/** `mogui fleet <scan|reap>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "fleet", description: "Fleet hygiene: every worktree of some repositories, and a safe bulk cleanup of the finished ones." },
  exits: GROUP_EXITS,
  subCommands: {
    scan: () => import("./scan.ts").then((m) => m.default),
    reap: () => import("./reap.ts").then((m) => m.default),
  },
  examples: ["mogui fleet --json scan --repo ./app"],
});
