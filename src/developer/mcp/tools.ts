/**
 * The MCP tools of `mogui mcp` (D42), generated from the command registry: one tool per leaf command a master would
 * use, named by its path (`worker reps add` -> `worker_reps_add`), its input schema from the declared args (long
 * flag names, types, enums, bounds, required; positionals as properties), its hints from the command's `mcp` field.
 * Nothing here is written twice: a new command is a new tool.
 */
import { UNBOUNDED_MAX, UNBOUNDED_MIN, type MoguiArgDef, type MoguiArgsDef } from "../../lib/args.ts";
import type { Command, McpSpec } from "../../lib/command.ts";
import { COMMON_EXITS, type Exits } from "../../lib/exits.ts";
import type { Registry } from "../../lib/registry.ts";

/**
 * Commands that are not tools: the server itself, the demo, the developer harnesses, a SessionStart hook, and the
 * interactive fleet view (`top`, issue 28: it would read the keyboard from stdin, which carries the protocol).
 */
const EXCLUDED = new Set(["mcp", "demo", "spawn-test", "test-tool-naming", "measure", "master-bootstrap-live", "top"]);
/** Of `hook *`, the entry points the hosts call are not tools; the installer and the doctor are. */
const HOOK_TOOLS = new Set(["hook install", "hook doctor"]);

/** The argument that carries a destructive call's confirm token (no command declares a flag of that name). */
export const CONFIRM_ARG = "confirm";
/** A variadic command's further arguments (`redaction-scan --paths <path>...`), passed after `--`. */
export const OPERANDS_ARG = "operands";

export function excluded(path: string): boolean {
  if (EXCLUDED.has(path) || path.startsWith("sim ") || path === "sim") return true;
  return path.startsWith("hook ") && !HOOK_TOOLS.has(path);
}

export function toolName(path: string): string {
  return path.replace(/[ -]/g, "_");
}

/** What a command without hints is served as (and the hints test fails on it): the most careful reading. */
const UNDECLARED: McpSpec = { readOnly: false, destructive: true, idempotent: false, openWorld: true };

export type JsonSchema = Record<string, unknown>;

export interface Tool {
  name: string;
  path: string;
  cmd: Command;
  hints: McpSpec;
  /** False when the command carries no `mcp` field (served as UNDECLARED). */
  declared: boolean;
  inputSchema: JsonSchema;
  /** The command has a --json flag: the server passes it and reads the document off stdout. */
  json: boolean;
}

/** The flags the schema leaves out: hidden test hooks, and --json (always passed, the output is the document). */
function exposed(name: string, def: MoguiArgDef): boolean {
  return !def.hidden && name !== "json";
}

function propertySchema(def: MoguiArgDef): JsonSchema {
  const s: JsonSchema = {};
  if (def.description) s.description = def.description;
  switch (def.type) {
    case "boolean":
      s.type = "boolean";
      break;
    case "int":
      s.type = "integer";
      // A side declared unbounded (UNBOUNDED_MIN / UNBOUNDED_MAX: only a safe integer) has no bound in the schema.
      if (def.min > UNBOUNDED_MIN) s.minimum = def.min;
      if (def.max < UNBOUNDED_MAX) s.maximum = def.max;
      if (def.default !== undefined) s.default = def.default;
      break;
    case "enum":
      s.type = "string";
      s.enum = [...(def.options ?? [])];
      if (typeof def.default === "string") s.default = def.default;
      break;
    case "positional":
      s.type = "string";
      break;
    default:
      if (def.multiple) {
        s.type = "array";
        s.items = { type: "string", minLength: 1 };
      } else {
        s.type = "string";
        s.minLength = 1;
        if (typeof def.default === "string") s.default = def.default;
      }
  }
  return s;
}

/** The tool's input schema: properties = long flag names (and positionals), required as declared. */
function inputSchemaOf(args: MoguiArgsDef, hints: McpSpec, variadic = false): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, def] of Object.entries(args)) {
    if (!exposed(name, def)) continue;
    properties[name] = propertySchema(def);
    if (def.required) required.push(name);
  }
  if (variadic) properties[OPERANDS_ARG] = { type: "array", items: { type: "string", minLength: 1 }, description: "Further arguments, in order (passed after --)" };
  if (hints.destructive) {
    properties[CONFIRM_ARG] = {
      type: "string",
      description: "The token a first call returned (structuredContent.confirm): acts only while the plan is unchanged",
    };
  }
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** What every tool's structuredContent carries (the command's own document fields beside these). */
export const OUTPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    exit_code: { type: "integer", description: "The command's exit code" },
    exit: { type: "string", description: "The declared name of that exit (mogui <command> --help lists them)" },
    plan: { description: "A destructive call's plan (its dry run's document), when a confirm token is returned" },
    confirm: { type: "string", description: "The token that makes the same call act, while the plan is unchanged" },
  },
  required: ["exit_code", "exit"],
};

export function toolOf(path: string, cmd: Command): Tool {
  const hints = cmd.mcp ?? UNDECLARED;
  return {
    name: toolName(path),
    path,
    cmd,
    hints,
    declared: cmd.mcp !== undefined,
    inputSchema: inputSchemaOf(cmd.args, hints, cmd.rules?.variadic === true),
    json: "json" in cmd.args || hints.document !== undefined,
  };
}

/** Every tool, in registry order (loads every exposed command's module: tools/list and the first call only). */
export async function loadTools(reg: Registry): Promise<Tool[]> {
  const out: Tool[] = [];
  for (const [path, entry] of Object.entries(reg.commands)) {
    if (excluded(path)) continue;
    const cmd = (await entry.load()).default;
    if (cmd.kind !== "command" || cmd.passthrough) continue;
    out.push(toolOf(path, cmd));
  }
  return out;
}

/** A tool call's arguments that are not the command's: one line naming the problem (the tool answers isError). */
export class ToolArgError extends Error {}

function typeName(v: unknown): string {
  return Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
}

/**
 * The command line of a call: the path, then `--flag=value` per argument (so a value that starts with `-` is never
 * read as a flag), repeated for an array, `--flag` for true; positionals last, after `--` when one starts with `-`.
 * JSON types are checked here; everything else (bounds, choices, required, exclusive groups) is the command's own
 * parser, with its own messages.
 */
export function argvOf(tool: Tool, args: Record<string, unknown>, extra: { add?: readonly string[]; remove?: readonly string[] } = {}): string[] {
  const defs = tool.cmd.args;
  const flags: string[] = [];
  const positionals: string[] = [];
  const operands: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (name === CONFIRM_ARG && tool.hints.destructive) continue;
    if (name === OPERANDS_ARG && tool.cmd.rules?.variadic) {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw new ToolArgError(`argument '${name}' must be an array of strings (got ${typeName(value)})`);
      operands.push(...(value as string[]));
      continue;
    }
    const def = defs[name];
    if (!def || !exposed(name, def)) throw new ToolArgError(`unknown argument '${name}' for tool ${tool.name}`);
    if (value === undefined || value === null) continue;
    if (extra.remove?.includes(name)) continue;
    const want = def.type === "boolean" ? "boolean" : def.type === "int" ? "number" : def.type !== "positional" && def.type !== "enum" && def.multiple ? "array" : "string";
    if (want === "array" ? !Array.isArray(value) : typeof value !== want) {
      throw new ToolArgError(`argument '${name}' must be ${want === "array" ? "an array of strings" : `a ${want === "number" ? "whole number" : want}`} (got ${typeName(value)})`);
    }
    if (def.type === "positional") positionals.push(value as string);
    else if (def.type === "boolean") {
      if (value === true) flags.push(`--${name}`);
    } else if (def.type === "int") {
      if (!Number.isInteger(value)) throw new ToolArgError(`argument '${name}' must be a whole number (got ${String(value)})`);
      flags.push(`--${name}=${value}`);
    } else if (Array.isArray(value)) {
      for (const v of value) {
        if (typeof v !== "string") throw new ToolArgError(`argument '${name}' must be an array of strings (got an item of type ${typeName(v)})`);
        flags.push(`--${name}=${v}`);
      }
    } else flags.push(`--${name}=${value}`);
  }
  for (const f of extra.add ?? []) if (!flags.includes(`--${f}`)) flags.push(`--${f}`);
  const doc = tool.hints.document;
  if (doc) {
    if (args[doc[0]] === undefined) flags.push(`--${doc[0]}=${doc[1]}`);
  } else if (tool.json) flags.push("--json");
  const dash = positionals.some((p) => p.startsWith("-")) || operands.length > 0;
  return [...tool.path.split(" "), ...flags, ...(dash ? ["--"] : []), ...positionals, ...operands];
}

/** The declared name of an exit code (the first row with it), for structuredContent.exit. */
export function exitNameOf(exits: Exits, code: number): string {
  for (const [name, row] of Object.entries(exits)) if (row.code === code) return name;
  for (const [name, row] of Object.entries(COMMON_EXITS)) if (row.code === code) return name;
  for (const [name, row] of Object.entries(exits)) if (row.code === "N") return name;
  return `exit_${code}`;
}

/**
 * A finished run's exit name and whether the tool result is an error: main's usage failure (exit 2 and its `Run
 * 'mogui <cmd> --help'` line) and internal failure (`mogui: internal error:`) are errors; every declared exit,
 * a non-zero verdict included, is a result.
 */
export function classify(tool: Tool, code: number, stderr: string): { exit: string; error: boolean } {
  if (code === 2 && /Run 'mogui [^']*--help' for usage\.\n?$/.test(stderr)) return { exit: "usage", error: true };
  if (stderr.includes("mogui: internal error:")) return { exit: "internal", error: true };
  return { exit: exitNameOf(tool.cmd.exits, code), error: false };
}

/** Does this call act (a destructive command without its dry-run form)? */
export function acts(tool: Tool, args: Record<string, unknown>): boolean {
  const h = tool.hints;
  if (!h.destructive) return false;
  if (h.safeWhen?.some((f) => args[f] === true || (typeof args[f] === "string" && args[f] !== ""))) return false;
  const w = h.confirmWith;
  if (!w) return true;
  if ("add" in w) return args[w.add] !== true;
  return args[w.remove] === true;
}

/** The refusal of a call that would read stdin (the protocol's stream under `mogui mcp`), or undefined. */
export function stdinProblem(tool: Tool, args: Record<string, unknown>): string | undefined {
  for (const [flag, value, unless] of tool.hints.readsStdin ?? []) {
    if (args[flag] !== value) continue;
    if (unless && args[unless] === true) continue;
    return `${tool.name}: ${value === true ? `'${flag}'` : `'${flag}: ${value}'`} reads stdin, which carries the MCP protocol here${unless ? `; pass '${unless}: true'` : "; pass a file"}`;
  }
  return undefined;
}
