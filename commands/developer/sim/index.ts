/** `mogui sim <orca|herdr|install-shims>`: the built-in simulators of the real CLIs mogui drives. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "sim", description: "The stateful Orca and herdr CLI simulators, and shims that put them on PATH." },
  exits: GROUP_EXITS,
  subCommands: {
    orca: () => import("./orca.ts").then((m) => m.default),
    "install-shims": () => import("./install-shims.ts").then((m) => m.default),
    herdr: () => import("./herdr.ts").then((m) => m.default),
  },
  examples: ["mogui sim install-shims \"$HOME/.mogui/sim-bin\""],
});
