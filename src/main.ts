/**
 * main(argv, ctx, registry) -> exit code. The ONE place that maps errors to exit codes; it never calls process.exit
 * (only src/cli.ts touches process.exitCode). The command tree is injected (commands/main.ts binds it), so src/
 * never imports commands/.
 */
import { parseArgv, type MoguiArgsDef } from "./lib/args.ts";
import { runCommand, type AnyCommand } from "./lib/command.ts";
import { processCtx, type ColorMode, type Ctx } from "./lib/context.ts";
import { withDefaults } from "./lib/runner.ts";
import { UsageError } from "./lib/errors.ts";
import { GLOBAL_EXIT } from "./lib/exits.ts";
import { exitForError } from "./lib/fail.ts";
import { renderCommandHelp, renderExitCodes, renderGroupHelp, renderRootHelp, useRegistry } from "./lib/help.ts";
import { didYouMean, isGroup, subcommandsOf, type Registry } from "./lib/registry.ts";
import { versionInfo, versionLine } from "./lib/version.ts";

const BUILTINS = ["help", "version", "completion"];

function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}

function topNames(reg: Registry): string[] {
  return [...new Set([...Object.keys(reg.commands).map((k) => k.split(" ")[0]!), ...BUILTINS])];
}

async function loadEntry(reg: Registry, path: string): Promise<AnyCommand | undefined> {
  const e = reg.commands[path];
  return e ? (await e.load()).default : undefined;
}

/** A group's subcommands: its defineGroup's lazy subCommands when it has one, else the registry's paths. */
async function subsOf(reg: Registry, path: string): Promise<{ head?: AnyCommand; names: string[] }> {
  const head = await loadEntry(reg, path);
  if (head?.kind === "group") return { head, names: Object.keys(head.subCommands) };
  return { head, names: subcommandsOf(reg, path) };
}

async function loadSub(reg: Registry, group: AnyCommand | undefined, path: string, sub: string): Promise<AnyCommand | undefined> {
  if (group?.kind === "group") return group.subCommands[sub]?.();
  return loadEntry(reg, `${path} ${sub}`);
}

async function groupHelpRows(reg: Registry, path: string, head: AnyCommand | undefined, names: string[]): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  for (const n of names) {
    const e = reg.commands[`${path} ${n}`];
    if (e) rows.push([n, e.summary]);
    else if (head?.kind === "group") rows.push([n, (await head.subCommands[n]!()).meta.description.split("\n")[0]!]);
    else rows.push([n, `subcommands: ${subcommandsOf(reg, `${path} ${n}`).join(", ")}`]);
  }
  return rows;
}

/** `--name` of every flag a group's direct subcommands take with a value (only on the no-subcommand path). */
async function valueFlags(reg: Registry, head: AnyCommand | undefined, path: string, names: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const n of names) {
    const sub = await loadSub(reg, head, path, n).catch(() => undefined);
    if (!sub || sub.kind === "group" || !sub.args) continue;
    for (const [name, def] of Object.entries(sub.args as MoguiArgsDef)) if (def.type !== "boolean" && def.type !== "positional") out.add(`--${name}`);
  }
  return out;
}

interface Resolved {
  path: string;
  cmd: AnyCommand;
  rest: string[];
  /** Flags given before a subcommand, per group: checked as the subcommand's flags, reported against the group. */
  leading: [string, string[]][];
}

/**
 * Walk argv down the tree. THE leading-flag rule: in a group, the first token naming one of its subcommands is the
 * subcommand, and the tokens before it are that subcommand's flags (`dispatch-gate --ledger L check` is
 * `dispatch-gate check --ledger L`; `tracks --json list` is `tracks list --json`).
 */
async function resolve(ctx: Ctx, reg: Registry, argv: string[]): Promise<Resolved | number> {
  let path = argv[0]!;
  let rest = argv.slice(1);
  const leading: [string, string[]][] = [];
  if (!reg.commands[path] && !isGroup(reg, path)) throw new UsageError(`unknown command '${path}'${didYouMean(path, topNames(reg))}`);
  let cmd: AnyCommand | undefined;
  for (;;) {
    const { head, names } = await subsOf(reg, path);
    if (names.length === 0) {
      cmd ??= head;
      break;
    }
    const end = rest.indexOf("--");
    const at = rest.findIndex((t, i) => (end < 0 || i < end) && names.includes(t));
    if (at < 0) {
      const rows = await groupHelpRows(reg, path, head, names);
      // An unknown subcommand is exit 2 with or without --help (issue 26 §2): help never hides the typo. A word
      // that is the value of a flag some subcommand takes (`dispatch-gate --ledger L --help`) is not a subcommand.
      const valued = await valueFlags(reg, head, path, names);
      const word = rest.find((t, i) => !t.startsWith("-") && (end < 0 || i < end) && !(i > 0 && valued.has(rest[i - 1]!)));
      if (wantsHelp(rest) && !word) {
        ctx.io.stdout(renderGroupHelp(path, head, rows));
        return GLOBAL_EXIT.OK;
      }
      if (word) throw new UsageError(`unknown subcommand '${word}' for 'mogui ${path}'${didYouMean(word, names)}`, path);
      const listing = rows.map(([n, d]) => `  ${n}: ${d}`).join("\n");
      throw new UsageError(`'mogui ${path}' needs a subcommand: one of ${names.join(", ")}\n${listing}`, path);
    }
    if (at > 0) leading.push([path, rest.slice(0, at)]);
    cmd = await loadSub(reg, head, path, rest[at]!);
    path = `${path} ${rest[at]}`;
    rest = [...rest.slice(0, at), ...rest.slice(at + 1)];
  }
  if (!cmd) throw new UsageError(`unknown command '${path}'`);
  return { path, cmd, rest, leading };
}

/** The subcommand's flags without positionals or requirements: what may stand before the subcommand. */
function flagsOnly(args: MoguiArgsDef): MoguiArgsDef {
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, d]) => d.type !== "positional")
      .map(([k, d]) => [k, { ...d, required: false }]),
  );
}

async function help(ctx: Ctx, reg: Registry, topic: string[]): Promise<number> {
  if (topic.length === 0) {
    ctx.io.stdout(renderRootHelp(reg));
    return GLOBAL_EXIT.OK;
  }
  if (topic.join(" ") === "exit-codes") {
    ctx.io.stdout(await renderExitCodes(reg));
    return GLOBAL_EXIT.OK;
  }
  if (!reg.commands[topic[0]!] && !isGroup(reg, topic[0]!)) throw new UsageError(`unknown help topic '${topic.join(" ")}'${didYouMean(topic[0]!, topNames(reg))}`);
  // `mogui help <command...>` prints what `mogui <command...> --help` prints (a passthrough command included).
  const r = await resolve(ctx, reg, [...topic, "--help"]);
  if (typeof r === "number") return r;
  if (r.rest.length !== 1) throw new UsageError(`unknown help topic '${topic.join(" ")}'`);
  ctx.io.stdout(renderCommandHelp(r.path, r.cmd));
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

async function dispatch(ctx: Ctx, reg: Registry, argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h") return help(ctx, reg, []);
  if (argv[0] === "--version" || argv[0] === "-V" || argv[0] === "version") return version(ctx, argv.slice(1));
  if (argv[0] === "help") return help(ctx, reg, argv.slice(1));
  if (argv[0] === "completion") {
    const { completion } = await import("./lib/completion.ts");
    return completion(ctx, reg, argv.slice(1));
  }
  if (argv[0]!.startsWith("-")) throw new UsageError(`unknown flag ${argv[0]}`);
  const r = await resolve(ctx, reg, argv);
  if (typeof r === "number") return r;
  const { path, cmd, rest, leading } = r;
  if (cmd.kind === "group") throw new UsageError(`'mogui ${path}' needs a subcommand`, path);
  if (cmd.passthrough) return runCommand(ctx, path, cmd, rest);
  if (wantsHelp(rest)) {
    ctx.io.stdout(renderCommandHelp(path, cmd));
    return GLOBAL_EXIT.OK;
  }
  for (const [group, tokens] of leading) parseArgv(group, tokens, flagsOnly(cmd.args));
  return runCommand(ctx, path, cmd, rest);
}

/** The longest registry path argv starts with (to know whether it is a passthrough command). */
function headPath(reg: Registry, argv: readonly string[]): string | undefined {
  for (let n = Math.min(3, argv.length); n >= 1; n--) {
    const path = argv.slice(0, n).join(" ");
    if (reg.commands[path]) return path;
  }
  return undefined;
}

/** Global flags anywhere on the line: --debug, --color auto|always|never. */
function takeGlobals(ctx: Ctx, args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      // --debug is global even after `--` (as before D35); --color is not.
      for (const b of args.slice(i))
        if (b === "--debug") ctx.debug = true;
        else out.push(b);
      break;
    }
    if (a === "--debug") ctx.debug = true;
    else if (a === "--color" || a.startsWith("--color=")) {
      const v = a === "--color" ? args[++i] : a.slice(8);
      if (v !== "auto" && v !== "always" && v !== "never") throw new UsageError(`--color must be one of auto, always, never (got '${v ?? ""}')`);
      ctx.color = v as ColorMode;
    } else out.push(a);
  }
  return out;
}

export async function main(argv: readonly string[], ctxIn: Partial<Ctx> | undefined, reg: Registry): Promise<number> {
  useRegistry(reg);
  const ctx: Ctx = { ...processCtx(), ...ctxIn };
  // A subprocess sees the command's environment and directory unless the call says otherwise, so an in-process
  // run with its own env/cwd never leaks the test runner's into orca, git or gh.
  ctx.runner = withDefaults(ctx.runner, () => ({ env: ctx.env, cwd: ctx.cwd }));
  try {
    // A passthrough command's argv (the simulators) is never touched.
    const head = headPath(
      reg,
      argv.filter((a) => a !== "--debug"),
    );
    const entry = head && !isGroup(reg, head) ? await loadEntry(reg, head) : undefined;
    const passthrough = entry?.kind !== "group" && entry?.passthrough;
    const args = passthrough ? [...argv] : takeGlobals(ctx, [...argv]);
    return await dispatch(ctx, reg, args);
  } catch (e) {
    return await exitForError(ctx, e);
  }
}
