/** `mogui template <check|apply|show>`: the group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "template", description: "The ops-repository template embedded in this binary: check, apply, show." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "template"),
  examples: ["mogui template show ONBOARDING.md", "mogui template --ops . check --json"],
});

export default group;
