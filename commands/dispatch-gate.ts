/**
 * `mogui dispatch-gate [--ledger PATH] <subcommand> ...`: the reference puts `--ledger` BEFORE the subcommand,
 * a form the dispatcher cannot match (it matches command paths from the front). This passthrough command takes
 * the leading global flags, then hands the rest to the subcommand with `--ledger` appended, so both
 * `dispatch-gate --ledger X check ...` and `dispatch-gate check --ledger X ...` work.
 */
import { parseArgv } from "../src/lib/args.ts";
import { defineMoguiCommand, type MoguiCommand } from "../src/lib/command.ts";
import { UsageError } from "../src/lib/errors.ts";
import { renderCommandHelp } from "../src/lib/help.ts";

const SUBCOMMANDS: Record<string, () => Promise<{ default: MoguiCommand }>> = {
  check: () => import("./dispatch-gate/check.ts"),
  register: () => import("./dispatch-gate/register.ts"),
  watch: () => import("./dispatch-gate/watch.ts"),
  report: () => import("./dispatch-gate/report.ts"),
};
const NAMES = Object.keys(SUBCOMMANDS).join(", ");

const router = defineMoguiCommand({
  meta: {
    name: "dispatch-gate",
    description: [
      "The supervised-dispatch gate: `check` decides whether a dispatch may start (and issues a ticket),",
      "`register` binds the started job to it, `watch` detects a stalled worker log, `report` summarises the ledger.",
    ].join("\n"),
  },
  usage: ["dispatch-gate [--ledger <path>] <check|register|watch|report> [flags]"],
  args: {},
  passthrough: true,
  notes: [
    "The ledger is --ledger (before or after the subcommand) > $DISPATCH_GATE_LEDGER > $MOGUI_HOME/dispatch-ledger.jsonl.\n" +
      "Tickets and the gate lock live in $MOGUI_HOME/dispatch-tickets/. Run 'mogui dispatch-gate <subcommand> --help'.",
  ],
  examples: ["mogui dispatch-gate --ledger /tmp/l.jsonl report", "mogui dispatch-gate check --help"],
  async run(ctx, args) {
    const argv = args._.filter((a) => {
      if (a !== "--debug") return true;
      ctx.debug = true;
      return false;
    });
    let ledger: string | undefined;
    let i = 0;
    for (; i < argv.length && argv[i]!.startsWith("-"); i++) {
      const a = argv[i]!;
      if (a === "--help" || a === "-h") {
        ctx.io.stdout(renderCommandHelp("dispatch-gate", router));
        return 0;
      }
      if (ledger !== undefined && (a === "--ledger" || a.startsWith("--ledger="))) throw new UsageError("flag --ledger given more than once", "dispatch-gate");
      if (a.startsWith("--ledger=")) ledger = a.slice("--ledger=".length);
      else if (a === "--ledger") {
        const v = argv[i + 1];
        if (v === undefined || v.startsWith("--")) throw new UsageError("flag --ledger needs a value", "dispatch-gate");
        ledger = v;
        i++;
      } else throw new UsageError(`unknown flag ${a} for 'mogui dispatch-gate'`, "dispatch-gate");
      if (ledger === "") throw new UsageError("--ledger must not be empty", "dispatch-gate");
    }
    const sub = argv[i];
    if (sub === undefined) throw new UsageError(`'mogui dispatch-gate' needs a subcommand: ${NAMES}`, "dispatch-gate");
    const load = SUBCOMMANDS[sub];
    if (!load) throw new UsageError(`unknown subcommand '${sub}' for 'mogui dispatch-gate' (expected one of ${NAMES})`, "dispatch-gate");
    const path = `dispatch-gate ${sub}`;
    const cmd = (await load()).default;
    const rest = argv.slice(i + 1);
    const dd = rest.indexOf("--");
    if ((dd < 0 ? rest : rest.slice(0, dd)).some((a) => a === "--help" || a === "-h")) {
      ctx.io.stdout(renderCommandHelp(path, cmd));
      return 0;
    }
    return cmd.run(ctx, parseArgv(path, ledger === undefined ? rest : [...rest, "--ledger", ledger], cmd.args, cmd.rules));
  },
});

export default router;
