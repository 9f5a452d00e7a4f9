/**
 * The command model (D35). A command is a citty `defineCommand` with mogui's extra fields: usage, examples, notes,
 * parse rules, declared exits, passthrough. `run` receives typed args (inferred from `args`), mogui's Ctx and a
 * `fail` that throws one of the command's declared exits; it returns an exit name. A group is a command with lazy
 * `subCommands`. docs/contributing.md is the guide.
 */
import type { ArgDef, ArgsDef, CommandDef } from "citty";
import { parseArgv, type ArgValues, type MoguiArgsDef, type ParseRules } from "./args.ts";
import type { Ctx } from "./context.ts";
import { errorMessage } from "./errors.ts";
import { type COMMON_EXITS, exitCode, NamedExit, SHARED_ERRORS, type Exits, type Forwarded } from "./exits.ts";

/** What run gets: citty's context shape (args, rawArgs) plus mogui's Ctx and the typed exit helpers. */
interface RunContext<A extends MoguiArgsDef, X extends Exits> {
  args: ArgValues<A>;
  rawArgs: string[];
  ctx: Ctx;
  /** Throw one of the declared exits with a one-line message (printed on stderr). */
  fail(name: ExitName<X>, message: string): never;
}

export type ExitName<X extends Exits> = Extract<keyof X, string> | keyof typeof COMMON_EXITS;

export interface CommandSpec<A extends MoguiArgsDef, X extends Exits> {
  meta: { name: string; description: string };
  /** gh-style synopsis lines, without the leading `mogui `. */
  usage: readonly string[];
  args: A;
  rules?: ParseRules;
  examples?: readonly string[];
  notes?: readonly string[];
  /** The command's own exit codes (beside COMMON_EXITS): name -> {code, meaning}. */
  exits: X;
  /** Hand argv over untouched in args._ (the simulators parse like the real CLIs they imitate). */
  passthrough?: boolean;
  /** The command as an MCP tool (D42): its safety hints, and how a destructive call's plan is made. */
  mcp?: McpSpec;
  /** Returns an exit name; a passthrough command may return forward(code) (its `N` row). */
  run(rc: RunContext<A, X>): Promise<ExitName<X> | Forwarded>;
}

/**
 * A command's MCP tool declaration (D42), next to its definition: the four hints every tool carries, and for a
 * destructive command how its dry run is invoked, so `mogui mcp` can return the plan and a confirm token first.
 */
export interface McpSpec {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  /**
   * How the plan of a destructive call is made: `{ add: "dry-run" }` (the call acts unless the flag is given; the
   * plan adds it) or `{ remove: "execute" }` (the call acts only with the flag; the plan drops it). Absent on a
   * destructive command, the plan is the validated call itself (nothing run) and the token call acts.
   */
  confirmWith?: { add: string } | { remove: string };
  /** For a command without --json: the flag and value that make it print its JSON document (unless the call sets it). */
  document?: readonly [string, string];
  /** Flags that make a call of a destructive command act on nothing (`worker-reap --unreaped` only lists). */
  safeWhen?: readonly string[];
  /** Keys of the plan document that change from run to run (a timestamp) and do not make a plan stale. */
  volatile?: readonly string[];
  /** Boolean flags added to the confirmed call: the server's confirm token is the command's typed confirmation. */
  actWith?: readonly string[];
  /**
   * Calls that would read stdin (which carries the protocol under `mogui mcp`): `[flag, value, unless?]`, value
   * `true` for a boolean flag; such a call is refused with a message.
   */
  readsStdin?: readonly (readonly [string, string | true, string?])[];
}

/** A mogui command: the citty definition, tagged so main knows a command from a group. */
export type Command<A extends MoguiArgsDef = MoguiArgsDef, X extends Exits = Exits> = CommandSpec<A, X> & {
  kind: "command";
  citty: CommandDef;
};

export interface GroupSpec {
  meta: { name: string; description: string };
  /** Lazy: loading a group never loads its subcommands' modules until one is run (or help lists them). */
  subCommands: Record<string, () => Promise<AnyCommand>>;
  /** Synopsis lines when `<group> <a|b|c> [flags]` is not enough. */
  usage?: readonly string[];
  notes?: readonly string[];
  examples?: readonly string[];
  /** Rows for the group's own outcomes (no or unknown subcommand); run codes are the subcommand's. */
  exits?: Exits;
}
export type Group = GroupSpec & { kind: "group"; citty: CommandDef };

/** citty's view of the args (an `int` is a string to citty; bounds and repeats are mogui's strict layer). */
function cittyArgs(args: MoguiArgsDef): ArgsDef {
  const out: ArgsDef = {};
  for (const [name, d] of Object.entries(args)) {
    if (d.type === "int") out[name] = { type: "string", description: d.description, valueHint: d.valueHint, required: d.required };
    // citty's own types differ only in mutability (options: string[]): its parser never writes to them.
    else out[name] = d as ArgDef;
  }
  return out;
}

/**
 * citty's defineCommand, loaded on first use: citty imports node:util, whose loading would cost every command's
 * start-up (every hook call included) about a millisecond; most runs never ask for the citty definition.
 */
function cittyDefine(def: CommandDef): CommandDef {
  return (require("citty") as typeof import("citty")).defineCommand(def);
}

export function defineCommand<const A extends MoguiArgsDef, const X extends Exits>(spec: CommandSpec<A, X>): Command<A, X> {
  let citty: CommandDef | undefined;
  return {
    ...spec,
    kind: "command",
    get citty() {
      return (citty ??= cittyDefine({ meta: spec.meta, args: cittyArgs(spec.args) }));
    },
  };
}

/**
 * A group's subcommands, from its family's loader rows (`"<group> <sub>"`, commands/<family>/index.ts) in their
 * order: a subcommand is declared once, as its row.
 */
export function subCommandsOf(rows: Record<string, { load: () => Promise<{ default: AnyCommand }> }>, group: string): Record<string, () => Promise<AnyCommand>> {
  const out: Record<string, () => Promise<AnyCommand>> = {};
  for (const [key, row] of Object.entries(rows)) {
    const sub = key.startsWith(`${group} `) ? key.slice(group.length + 1) : "";
    if (sub && !sub.includes(" ")) out[sub] = () => row.load().then((m) => m.default);
  }
  return out;
}

export function defineGroup(spec: GroupSpec): Group {
  const subCommands = Object.fromEntries(Object.entries(spec.subCommands).map(([k, load]) => [k, async () => (await load()).citty]));
  let citty: CommandDef | undefined;
  return {
    ...spec,
    kind: "group",
    get citty() {
      return (citty ??= cittyDefine({ meta: spec.meta, subCommands }));
    },
  };
}

/** Throw a declared exit by name (for helpers outside run that have the command's exits). */
export function failWith<X extends Exits>(exits: X, name: ExitName<X>, message: string): never {
  throw new NamedExit(name, exitCode(exits, name), message);
}

// biome-ignore lint: the erased shape main dispatches on
export type AnyCommand = Command<any, any> | Group;

/** Parse `rest` against the command's flags (a passthrough command gets them as they are), run it, and map what it
 * returns or throws to its declared exits. */
export async function runCommand(ctx: Ctx, path: string, cmd: Command, rest: string[]): Promise<number> {
  const args = cmd.passthrough ? { _: rest } : parseArgv(path, rest, cmd.args, cmd.rules, { typed: true });
  const fail = (name: string, message: string): never => {
    throw new NamedExit(name, exitCode(cmd.exits, name), message);
  };
  try {
    const out = await cmd.run({ args: args as never, rawArgs: rest, ctx, fail: fail as never });
    return typeof out === "number" ? out : exitCode(cmd.exits, out);
  } catch (e) {
    const shared = e instanceof Error ? SHARED_ERRORS[e.name] : undefined;
    if (shared && cmd.exits[shared.exit]) fail(shared.exit, `${path.split(" ")[0]}: ${shared.label}: ${errorMessage(e)}`);
    throw e;
  }
}
