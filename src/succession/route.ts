/**
 * `--json` anywhere on the line (§5.1): `mogui master-succeed --json detect x` must work like `... detect x --json`.
 * The dispatcher only matches command paths at the start of argv, so each lifecycle group registers a hidden
 * passthrough command that lifts `--json` (and `--debug`) out of the group prefix and runs the subcommand.
 */
import { commandEntry } from "../../commands/index.ts";
import { parseArgv } from "../lib/args.ts";
import { defineMoguiCommand, type MoguiCommand } from "../lib/command.ts";
import { UsageError } from "../lib/errors.ts";
import { renderCommandHelp } from "../lib/help.ts";

export function groupRouter(group: string, subs: readonly string[], description: string): MoguiCommand {
  const router: MoguiCommand = defineMoguiCommand({
    meta: { name: group, description },
    usage: [`${group} <${subs.join("|")}> [flags]   (--json may come before the subcommand)`],
    args: {},
    passthrough: true,
    async run(ctx, args) {
      // main leaves a passthrough command's --debug in place: take it from anywhere, as main does for the rest.
      const argv = args._.filter((a) => a !== "--debug");
      if (argv.length !== args._.length) ctx.debug = true;
      const at = argv.findIndex((a) => !a.startsWith("-"));
      const lifted = at < 0 ? argv : argv.slice(0, at);
      const unknown = lifted.find((a) => a !== "--json");
      if (unknown === "--help" || unknown === "-h") {
        ctx.io.stdout(renderCommandHelp(group, router));
        return 0;
      }
      if (unknown) throw new UsageError(`unknown flag ${unknown} for 'mogui ${group}'`, group);
      const sub = at < 0 ? undefined : argv[at];
      if (!sub || !subs.includes(sub)) {
        const what = sub ? `unknown subcommand '${sub}'; ` : "";
        throw new UsageError(`'mogui ${group}' needs a subcommand: ${what}one of ${subs.join(", ")}`);
      }
      const rest = argv.slice(at + 1);
      const end = rest.indexOf("--");
      const flags = end < 0 ? rest : rest.slice(0, end);
      // In front: after a `--` it would be a positional.
      if (lifted.includes("--json") && !flags.includes("--json")) rest.unshift("--json");
      const path = `${group} ${sub}`;
      const cmd = (await commandEntry(path)!.load()).default;
      if (flags.includes("--help") || flags.includes("-h")) {
        ctx.io.stdout(renderCommandHelp(path, cmd));
        return 0;
      }
      return cmd.run(ctx, parseArgv(path, rest, cmd.args, cmd.rules));
    },
  });
  return router;
}
