/** `mogui tracks <register|update|close|list>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "tracks", description: "The work ledger of tracks: register, update, close, list." },
  exits: GROUP_EXITS,
  subCommands: {
    register: () => import("./register.ts").then((m) => m.default),
    update: () => import("./update.ts").then((m) => m.default),
    close: () => import("./close.ts").then((m) => m.default),
    list: () => import("./list.ts").then((m) => m.default),
  },
  examples: ["mogui tracks --json list --all"],
});
