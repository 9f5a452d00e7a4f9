/**
 * main(argv) -> exit code. The ONE place that maps errors to exit codes; it never calls process.exit
 * (only src/cli.ts touches process.exitCode).
 */
import { COMMANDS, commandEntry } from "../commands/index.ts";
import { parseArgv } from "./lib/args.ts";
import type { MoguiCommand } from "./lib/command.ts";
import { processCtx, type Ctx } from "./lib/context.ts";
import { withDefaults } from "./lib/runner.ts";
import { ExitError, UsageError, errorMessage } from "./lib/errors.ts";
import { GLOBAL_EXIT } from "./lib/exit-codes.ts";
import { renderCommandHelp, renderExitCodes, renderRootHelp } from "./lib/help.ts";
import { versionInfo, versionLine } from "./version.ts";

/** The longest command path that argv starts with (`sim orca` before `sim`). */
function findCommand(argv: readonly string[]): { path: string; rest: string[] } | undefined {
  for (let n = Math.min(3, argv.length); n >= 1; n--) {
    const path = argv.slice(0, n).join(" ");
    if (commandEntry(path)) return { path, rest: argv.slice(n) };
  }
  return undefined;
}

function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}

function usageFail(ctx: Ctx, e: UsageError): number {
  ctx.io.stderr(`mogui: ${e.message}\n`);
  ctx.io.stderr(e.command ? `Run 'mogui ${e.command} --help' for usage.\n` : "Run 'mogui --help' for usage.\n");
  return GLOBAL_EXIT.USAGE;
}

async function loadCommand(path: string): Promise<MoguiCommand> {
  return (await commandEntry(path)!.load()).default;
}

async function help(ctx: Ctx, topic: string[]): Promise<number> {
  if (topic.length === 0) {
    ctx.io.stdout(renderRootHelp());
    return GLOBAL_EXIT.OK;
  }
  if (topic.join(" ") === "exit-codes") {
    ctx.io.stdout(renderExitCodes());
    return GLOBAL_EXIT.OK;
  }
  const found = findCommand(topic);
  if (!found || found.rest.length) throw new UsageError(`unknown help topic '${topic.join(" ")}'`);
  ctx.io.stdout(renderCommandHelp(found.path, await loadCommand(found.path)));
  return GLOBAL_EXIT.OK;
}

/** `--version [--json]`: the D36 fields, one line or one JSON document. */
function version(ctx: Ctx, rest: string[]): number {
  const bad = rest.find((a) => a !== "--json");
  if (bad !== undefined) throw new UsageError(`--version takes only --json, not ${bad}`);
  const info = versionInfo();
  ctx.io.stdout(rest.length ? `${JSON.stringify(info)}\n` : `${versionLine(info)}\n`);
  return GLOBAL_EXIT.OK;
}

async function dispatch(ctx: Ctx, argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h") return help(ctx, []);
  if (argv[0] === "--version" || argv[0] === "-V" || argv[0] === "version") return version(ctx, argv.slice(1));
  if (argv[0] === "help") return help(ctx, argv.slice(1));
  if (argv[0]!.startsWith("-")) throw new UsageError(`unknown flag ${argv[0]}`);
  const found = findCommand(argv);
  if (!found) {
    const group = Object.keys(COMMANDS).filter((k) => k.startsWith(`${argv[0]} `));
    if (group.length) throw new UsageError(`'mogui ${argv[0]}' needs a subcommand: ${[...new Set(group.map((g) => g.split(" ")[1]))].join(", ")}`);
    throw new UsageError(`unknown command '${argv[0]}'`);
  }
  const cmd = await loadCommand(found.path);
  if (cmd.passthrough) return cmd.run(ctx, { _: found.rest });
  if (wantsHelp(found.rest)) {
    ctx.io.stdout(renderCommandHelp(found.path, cmd));
    return GLOBAL_EXIT.OK;
  }
  const args = parseArgv(found.path, found.rest, cmd.args, cmd.rules);
  return cmd.run(ctx, args);
}

export async function main(argv: readonly string[], ctxIn?: Partial<Ctx>): Promise<number> {
  const ctx: Ctx = { ...processCtx(), ...ctxIn };
  // A subprocess sees the command's environment and directory unless the call says otherwise, so an in-process
  // run with its own env/cwd never leaks the test runner's into orca, git or gh.
  ctx.runner = withDefaults(ctx.runner, () => ({ env: ctx.env, cwd: ctx.cwd }));
  const args = [...argv];
  // --debug is global, but a passthrough command's argv (the simulators) is never touched.
  const head = findCommand(args.filter((a) => a !== "--debug"));
  const passthrough = head && (await commandEntry(head.path)!.load()).default.passthrough;
  if (!passthrough && args.includes("--debug")) {
    ctx.debug = true;
    args.splice(0, args.length, ...args.filter((a) => a !== "--debug"));
  }
  try {
    return await dispatch(ctx, args);
  } catch (e) {
    if (e instanceof UsageError) return usageFail(ctx, e);
    if (e instanceof ExitError) {
      ctx.io.stderr(`${e.message}\n`);
      return e.code;
    }
    ctx.io.stderr(`mogui: internal error: ${errorMessage(e)}\n`);
    if (ctx.debug && e instanceof Error && e.stack) ctx.io.stderr(`${e.stack}\n`);
    return GLOBAL_EXIT.INTERNAL;
  }
}
