/**
 * A strict argv parser over citty-style arg definitions. citty's own parseArgs accepts unknown flags silently and
 * lets `--ledger --json` swallow `--json` as the value; mogui's contract is that both are usage errors (exit 2).
 * A value that merely starts with `-` but is not one of the command's flags (`---`, `-5`, text) is a value.
 */
import type { ArgDef, ArgsDef, EnumArgDef } from "citty";
import { UsageError } from "./errors.ts";
import { suggest } from "./registry.ts";

/** citty's enum, with readonly options (definitions are inferred `as const`). */
type ChoiceArgDef = Omit<EnumArgDef, "options"> & { options: readonly string[] };

export type MoguiArgDef =
  | ((Exclude<ArgDef, { type: "enum" }> | ChoiceArgDef) & {
      /** A string flag that may be repeated; parsed as string[]. */
      multiple?: boolean;
      /** Hidden from --help (test hooks). */
      hidden?: boolean;
    })
  | IntArgDef;
export type MoguiArgsDef = Record<string, MoguiArgDef>;

/** A whole number with bounds, parsed and range-checked here (replaces the hand-written integer parsers). */
export interface IntArgDef {
  type: "int";
  min: number;
  max: number;
  default?: number;
  required?: boolean;
  description?: string;
  valueHint?: string;
  alias?: string | string[];
  hidden?: boolean;
}

/** The typed value of one definition (defineCommand's run sees these; no casts). */
type ValueOf<D> = D extends { type: "boolean" }
  ? boolean
  : D extends { type: "int" }
    ? D extends { required: true } | { default: number }
      ? number
      : number | undefined
    : D extends { type: "enum"; options: readonly (infer O)[] }
      ? D extends { required: true } | { default: string }
        ? O
        : O | undefined
      : D extends { multiple: true }
        ? string[]
        : D extends { required: true } | { default: string }
          ? string
          : string | undefined;
export type ArgValues<A extends MoguiArgsDef> = { -readonly [K in keyof A]: ValueOf<A[K]> } & { _: string[] };

export type ParsedValue = string | boolean | string[] | number | undefined;
export type Parsed = Record<string, ParsedValue> & { _: string[] };

export interface ParseRules {
  /** Each group: at most one of these flags. */
  exclusive?: readonly (readonly string[])[];
  /** Each group: exactly one of these flags. */
  exactlyOne?: readonly (readonly string[])[];
  /** Accept any number of positionals after the declared ones. */
  variadic?: boolean;
}

export interface ParseOptions {
  /** The typed model: apply declared defaults, booleans false and repeatables [] when absent. */
  typed?: boolean;
}

export function aliasesOf(def: MoguiArgDef): string[] {
  if (!("alias" in def) || def.alias === undefined) return [];
  return Array.isArray(def.alias) ? def.alias : [def.alias];
}

function findDef(defs: MoguiArgsDef, token: string): [string, MoguiArgDef] | undefined {
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === "positional") continue;
    if (name === token) return [name, def];
    if (aliasesOf(def).includes(token)) return [name, def];
  }
  return undefined;
}

/**
 * Is this token one of the command's own flags (or --help / -h)? Only then does a string flag lack its value:
 * `--ledger --json` stays a usage error, while `---`, `-5` or `--- front matter ---` are values like any other.
 */
function isOwnFlag(defs: MoguiArgsDef, token: string): boolean {
  if (token === "--help" || token === "-h") return true;
  if (!token.startsWith("-") || token === "-" || token === "--") return false;
  const long = token.startsWith("--");
  const body = long ? token.slice(2) : token.slice(1);
  const key = long && body.includes("=") ? body.slice(0, body.indexOf("=")) : body;
  return findDef(defs, key) !== undefined;
}

function parseBool(cmdPath: string, name: string, raw: string): boolean {
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new UsageError(`--${name} takes no value (got '${raw}')`, cmdPath);
}

function parseWhole(cmdPath: string, name: string, def: IntArgDef, raw: string): number {
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < def.min || n > def.max) {
    throw new UsageError(`--${name} must be a whole number from ${def.min} to ${def.max} (got '${raw}')`, cmdPath);
  }
  return n;
}

export function parseArgv(cmdPath: string, argv: readonly string[], defs: MoguiArgsDef, rules: ParseRules = {}, opts: ParseOptions = {}): Parsed {
  const out: Parsed = { _: [] };
  const seen = new Set<string>();
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (onlyPositionals || !tok.startsWith("-") || tok === "-") {
      out._.push(tok);
      continue;
    }
    if (tok === "--") {
      onlyPositionals = true;
      continue;
    }
    const long = tok.startsWith("--");
    const body = long ? tok.slice(2) : tok.slice(1);
    const eq = long ? body.indexOf("=") : -1;
    const key = eq >= 0 ? body.slice(0, eq) : body;
    const found = findDef(defs, key);
    if (!found) {
      const near = long ? suggest(key, Object.keys(defs).filter((n) => defs[n]!.type !== "positional")) : undefined;
      throw new UsageError(`unknown flag ${long ? "--" : "-"}${key} for 'mogui ${cmdPath}'${near ? ` (did you mean --${near}?)` : ""}`, cmdPath);
    }
    const [name, def] = found;
    if (def.type === "boolean") {
      out[name] = eq >= 0 ? parseBool(cmdPath, name, body.slice(eq + 1)) : true;
    } else {
      let value: string;
      if (eq >= 0) value = body.slice(eq + 1);
      else {
        const next = argv[i + 1];
        // A value that is not one of this command's flags (`---`, `-5`, `-x text`) is a value; `--ledger --json` is not.
        if (next === undefined || isOwnFlag(defs, next)) {
          throw new UsageError(`flag --${name} needs a value`, cmdPath);
        }
        value = next;
        i++;
      }
      if (def.type === "enum" && def.options && !def.options.includes(value)) {
        throw new UsageError(`--${name} must be one of ${def.options.join(", ")} (got '${value}')`, cmdPath);
      }
      if (def.type === "int") {
        if (seen.has(name)) throw new UsageError(`flag --${name} given more than once`, cmdPath);
        out[name] = parseWhole(cmdPath, name, def, value);
      } else if (def.multiple) {
        const prev = (out[name] as string[] | undefined) ?? [];
        out[name] = [...prev, value];
      } else {
        if (seen.has(name)) throw new UsageError(`flag --${name} given more than once`, cmdPath);
        out[name] = value;
      }
    }
    seen.add(name);
  }
  assignPositionals(cmdPath, out, defs, rules);
  checkGroups(cmdPath, out, defs, rules);
  if (opts.typed) applyDefaults(out, defs);
  return out;
}

function applyDefaults(out: Parsed, defs: MoguiArgsDef): void {
  for (const [name, def] of Object.entries(defs)) {
    if (out[name] !== undefined) continue;
    if (def.type === "boolean") out[name] = def.default === true;
    else if (def.type !== "int" && def.multiple) out[name] = [];
    else if (def.default !== undefined) out[name] = def.default as ParsedValue;
  }
}

function assignPositionals(cmdPath: string, out: Parsed, defs: MoguiArgsDef, rules: ParseRules): void {
  const positionals = Object.entries(defs).filter(([, d]) => d.type === "positional");
  const rest = [...out._];
  for (const [name, def] of positionals) {
    const v = rest.shift();
    if (v === undefined) {
      if (def.required) throw new UsageError(`missing required argument <${name}>`, cmdPath);
      continue;
    }
    out[name] = v;
  }
  if (rest.length > 0 && !rules.variadic) throw new UsageError(`unexpected argument '${rest[0]}'`, cmdPath);
  out._ = rules.variadic ? rest : [];
}

function checkGroups(cmdPath: string, out: Parsed, defs: MoguiArgsDef, rules: ParseRules): void {
  const given = (n: string) => out[n] !== undefined && out[n] !== false;
  const list = (g: readonly string[]) => g.map((n) => `--${n}`).join(", ");
  for (const g of rules.exclusive ?? []) {
    const hits = g.filter(given);
    if (hits.length > 1) throw new UsageError(`flags ${list(hits)} cannot be used together`, cmdPath);
  }
  for (const g of rules.exactlyOne ?? []) {
    const hits = g.filter(given);
    if (hits.length > 1) throw new UsageError(`flags ${list(hits)} cannot be used together`, cmdPath);
    if (hits.length === 0) throw new UsageError(`one of ${list(g)} is required`, cmdPath);
  }
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === "positional") continue;
    if (def.required && !given(name)) throw new UsageError(`missing required flag --${name}`, cmdPath);
    const v = out[name];
    if (typeof v === "string" && v === "" && def.type === "string") {
      throw new UsageError(`--${name} must not be empty`, cmdPath);
    }
  }
}

export type { ArgsDef };

/**
 * Shared arg fragments: the one definition of each flag many commands take. Spread them into `args` and override
 * the description where a command's output differs (`json: { ...ARGS.json, description: "..." }`).
 */
export const ARGS = {
  json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  ledger: { type: "string", valueHint: "path", description: "The ledger file" },
  ops: { type: "string", valueHint: "path", description: "The ops repository (default $MOGUI_OPS_REPO, else the cwd)" },
  moguiHome: { type: "string", valueHint: "dir", description: "mogui's state directory (default $MOGUI_HOME, else ~/.mogui)" },
  timeoutMs: { type: "int", min: 1, max: 3_600_000, valueHint: "ms", description: "Timeout for each subprocess call" },
  dryRun: { type: "boolean", description: "Plan only: print what would be done, change nothing" },
} as const satisfies Record<string, MoguiArgDef>;
