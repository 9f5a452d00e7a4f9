/**
 * `mogui dispatch-gate [--ledger PATH] <subcommand> ...`: the group. The reference puts `--ledger` BEFORE the
 * subcommand; the dispatcher's leading-flag rule makes `dispatch-gate --ledger X check ...` the same as
 * `dispatch-gate check --ledger X ...` (no router of its own).
 */
import { defineGroup, type Group, subCommandsOf } from "../../../src/lib/command.ts";
import { GROUP_EXITS } from "../../../src/lib/exits.ts";
import { commands } from "../index.ts";

const group: Group = defineGroup({
  meta: {
    name: "dispatch-gate",
    description: ["The supervised-dispatch gate: `check` decides whether a dispatch may start (and issues a ticket),", "`register` binds the started job to it, `watch` detects a stalled worker log, `report` summarises the ledger."].join("\n"),
  },
  exits: GROUP_EXITS,
  usage: ["dispatch-gate [--ledger <path>] <check|register|watch|report> [flags]"],
  subCommands: subCommandsOf(commands, "dispatch-gate"),
  notes: ["The ledger is --ledger (before or after the subcommand) > $DISPATCH_GATE_LEDGER > $MOGUI_HOME/dispatch-ledger.jsonl.\n" + "Tickets and the gate lock live in $MOGUI_HOME/dispatch-tickets/. Run 'mogui dispatch-gate <subcommand> --help'."],
  examples: ["mogui dispatch-gate --ledger /tmp/l.jsonl report", "mogui dispatch-gate check --help"],
});

export default group;
