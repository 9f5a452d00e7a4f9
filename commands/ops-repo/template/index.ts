/** `mogui template <check|apply|show>`: the group; its flags may also come before the subcommand. */
import { defineGroup } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";

export default defineGroup({
  meta: { name: "template", description: "The ops-repository template embedded in this binary: check, apply, show." },
  exits: GROUP_EXITS,
  subCommands: {
    check: () => import("./check.ts").then((m) => m.default),
    apply: () => import("./apply.ts").then((m) => m.default),
    show: () => import("./show.ts").then((m) => m.default),
  },
  examples: ["mogui template show ONBOARDING.md", "mogui template --ops . check --json"],
});
