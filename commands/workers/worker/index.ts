/** `mogui worker <subcommand>`: the worker-job group; its flags may also come before the subcommand. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "worker", description: "Worker jobs: classify the surface, lint the brief, spawn, verify, decide, collect, sweep." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "worker"),
  examples: ["mogui worker --help", "mogui worker status --owner orch-a"],
});

export default group;
