/** `mogui spend <record|report|watch>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "spend", description: "Token spend measured from the workers' own transcripts: record, report, watch." },
  exits: GROUP_EXITS,
  subCommands: {
    record: () => import("./record.ts").then((m) => m.default),
    report: () => import("./report.ts").then((m) => m.default),
    watch: () => import("./watch.ts").then((m) => m.default),
  },
  examples: ["mogui spend --json report --by model"],
});
