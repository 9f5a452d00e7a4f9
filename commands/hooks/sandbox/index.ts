/** `mogui sandbox`: run a command with paths read-only at the kernel level, and prove the mechanism (D39). */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "sandbox", description: "Run a command with paths read-only at the kernel level (bubblewrap, sandbox-exec), and prove the mechanism." },
  exits: GROUP_EXITS,
  subCommands: {
    run: () => import("./run.ts").then((m) => m.default),
    check: () => import("./check.ts").then((m) => m.default),
  },
  examples: ["mogui sandbox check", "mogui sandbox run --deny-write ~/code/product -- claude"],
});
