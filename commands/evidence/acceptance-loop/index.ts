/** `mogui acceptance-loop <validate|split|run|inspect>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: {
    name: "acceptance-loop",
    description: "The deterministic acceptance loop: validate a config, write its split, run it, inspect a finished run.",
  },
  exits: GROUP_EXITS,
  subCommands: {
    validate: () => import("./validate.ts").then((m) => m.default),
    split: () => import("./split.ts").then((m) => m.default),
    run: () => import("./run.ts").then((m) => m.default),
    inspect: () => import("./inspect.ts").then((m) => m.default),
  },
});
