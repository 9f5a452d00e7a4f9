/** `mogui worker reps <add|report>`: measured runs (the subcommands' files stay beside the worker group's). */
import { defineGroup } from "../../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "worker reps", description: "Measured runs of launch profiles: record one (add), aggregate them (report)." },
  exits: GROUP_EXITS,
  subCommands: {
    add: () => import("../reps-add.ts").then((m) => m.default),
    report: () => import("../reps-report.ts").then((m) => m.default),
  },
  examples: ["mogui worker reps report --json"],
});
