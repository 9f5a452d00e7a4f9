/** `mogui sim <orca|herdr|install-shims>`: the built-in simulators of the real CLIs mogui drives. */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: { name: "sim", description: "The stateful Orca and herdr CLI simulators, and shims that put them on PATH." },
  exits: GROUP_EXITS,
  subCommands: subCommandsOf(commands, "sim"),
  examples: ['mogui sim install-shims "$HOME/.mogui/sim-bin"'],
});

export default group;
