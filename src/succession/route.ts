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
      const argv = args._;
      const at = argv.findIndex((a) => !a.startsWith("-"));
      const lifted = at < 0 ? argv : argv.slice(0, at);
      const unknown = lifted.find((a) => a !== "--json" && a !== "--debug");
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
      if (lifted.includes("--debug")) ctx.debug = true;
      const rest = argv.slice(at + 1);
      if (lifted.includes("--json") && !rest.includes("--json")) rest.push("--json");
      const path = `${group} ${sub}`;
      const cmd = (await commandEntry(path)!.load()).default;
      if (rest.includes("--help") || rest.includes("-h")) {
        ctx.io.stdout(renderCommandHelp(path, cmd));
        return 0;
      }
      return cmd.run(ctx, parseArgv(path, rest, cmd.args, cmd.rules));
    },
  });
  return router;
}
