/**
 * Argument parsing (D35): citty's parseArgs parses argv against the definitions; mogui's strict layer is a check over
 * citty's result plus the raw tokens. citty alone accepts unknown flags silently, lets `--ledger --json` swallow
 * `--json` as the value, keeps only the last of repeated values and reads any `--no-x` token as `x=false`; mogui's
 * contract is that the first two are usage errors (exit 2) and that a value which merely starts with `-` but is not
 * one of the command's flags (`---`, `-5`, `--no-such`, text) is a value.
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
interface IntArgDef {
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

type ParsedValue = string | boolean | string[] | number | undefined;
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

/** No bound on this side: the original's argparse `type=int` has none, so a flag mirroring one declares
 * `min: UNBOUNDED_MIN` / `max: UNBOUNDED_MAX` (a safe integer is the only limit; issue 26 §3). */
export const UNBOUNDED_MIN = Number.MIN_SAFE_INTEGER;
export const UNBOUNDED_MAX = Number.MAX_SAFE_INTEGER;

function wholeRange(def: IntArgDef): string {
  const lo = def.min > UNBOUNDED_MIN;
  const hi = def.max < UNBOUNDED_MAX;
  if (lo && hi) return ` from ${def.min} to ${def.max}`;
  if (lo) return ` of at least ${def.min}`;
  if (hi) return ` of at most ${def.max}`;
  return "";
}

/** What Python's `int()` reads (argparse `type=int`): optional sign, digits, single underscores between digits,
 * surrounding blanks. */
function parseWhole(cmdPath: string, name: string, def: IntArgDef, raw: string): number {
  const t = raw.trim();
  const n = Number(t.replaceAll("_", ""));
  if (!/^[+-]?\d+(_\d+)*$/.test(t) || !Number.isSafeInteger(n) || n < def.min || n > def.max) {
    throw new UsageError(`--${name} must be a whole number${wholeRange(def)} (got '${raw}')`, cmdPath);
  }
  return n;
}

/** What citty parses: an `int` or an enum is a string to citty (bounds and choices are checked here with mogui's
 * messages), no defaults (they are applied after the checks) and nothing required (the strict layer says which). */
function toCitty(defs: MoguiArgsDef): ArgsDef {
  const out: ArgsDef = {};
  for (const [name, d] of Object.entries(defs)) {
    if (d.type === "positional") out[name] = { type: "positional", required: false };
    else if (!tokenOwned(name, d)) out[name] = { type: d.type === "boolean" ? "boolean" : "string", alias: aliasesOf(d) };
  }
  return out;
}
const cittyDefs = new WeakMap<MoguiArgsDef, ArgsDef>();
function cittyDefsOf(defs: MoguiArgsDef): ArgsDef {
  let c = cittyDefs.get(defs);
  if (!c) cittyDefs.set(defs, (c = toCitty(defs)));
  return c;
}

/** citty's parser, loaded on the first parse that has tokens (citty pulls in node:util; `--version` and the hooks,
 * which read stdin and take no argv, never load it). */
let cittyParse: typeof import("citty").parseArgs | undefined;
function citty(argv: string[], defs: ArgsDef): Record<string, unknown> & { _: string[] } {
  if (argv.length === 0) return { _: [] };
  cittyParse ??= (require("citty") as typeof import("citty")).parseArgs;
  return cittyParse(argv, defs) as Record<string, unknown> & { _: string[] };
}

/** Values citty cannot carry, taken from the token walk: a repeatable flag (citty keeps the last value) and a flag
 * named `no-...` (citty reads `--no-x` as `x=false`). */
function tokenOwned(name: string, def: MoguiArgDef): boolean {
  return name.startsWith("no-") || (def.type !== "int" && def.multiple === true);
}

interface Walk {
  /** argv as handed to citty: a separate value that starts with `-` joined as `--name=value` so citty never reads
   * it as a flag or a negation; token-owned flags left out. */
  argv: string[];
  owned: Record<string, string | boolean | string[]>;
  /** What citty would parse from `argv`, when every token was a long flag by its own name (`--name value`,
   * `--name=value`, a bare boolean `--name`): then citty (and the node:util it loads, ~1 ms of every hook call's
   * start) is not needed. Unset as soon as a token is anything else (a positional, `--`, an alias, `--flag=bool`). */
  simple?: Record<string, string | boolean>;
}

/**
 * The strict layer's pass over the raw tokens: an unknown flag (with a did-you-mean), a flag whose value is missing
 * or is one of this command's own flags, a boolean given a value other than true/false, a single flag given twice.
 */
function walkTokens(cmdPath: string, argv: readonly string[], defs: MoguiArgsDef): Walk {
  const walk: Walk = { argv: [], owned: {}, simple: {} };
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (tok === "--") {
      walk.argv.push(...argv.slice(i));
      walk.simple = undefined;
      break;
    }
    if (!tok.startsWith("-") || tok === "-") {
      walk.argv.push(tok);
      walk.simple = undefined;
      continue;
    }
    const long = tok.startsWith("--");
    const body = long ? tok.slice(2) : tok.slice(1);
    const eq = long ? body.indexOf("=") : -1;
    const key = eq >= 0 ? body.slice(0, eq) : body;
    const found = findDef(defs, key);
    if (!found) {
      const near = long
        ? suggest(
            key,
            Object.keys(defs).filter((n) => defs[n]!.type !== "positional"),
          )
        : undefined;
      throw new UsageError(`unknown flag ${long ? "--" : "-"}${key} for 'mogui ${cmdPath}'${near ? ` (did you mean --${near}?)` : ""}`, cmdPath);
    }
    const [name, def] = found;
    const owned = tokenOwned(name, def);
    if (!long || key !== name) walk.simple = undefined;
    if (def.type === "boolean") {
      const value = eq >= 0 ? parseBool(cmdPath, name, body.slice(eq + 1)) : true;
      if (owned) walk.owned[name] = value;
      else walk.argv.push(tok);
      if (eq >= 0) walk.simple = undefined;
      else if (!owned && walk.simple) walk.simple[name] = true;
    } else {
      let value: string;
      if (eq >= 0) {
        value = body.slice(eq + 1);
        if (!owned) walk.argv.push(tok);
      } else {
        const next = argv[i + 1];
        if (next === undefined || isOwnFlag(defs, next)) throw new UsageError(`flag --${name} needs a value`, cmdPath);
        value = next;
        i++;
        if (!owned) walk.argv.push(...(next.startsWith("-") ? [`--${name}=${next}`] : [tok, next]));
      }
      if (def.type !== "int" && def.multiple) walk.owned[name] = [...((walk.owned[name] as string[] | undefined) ?? []), value];
      else if (seen.has(name)) throw new UsageError(`flag --${name} given more than once`, cmdPath);
      else if (owned) walk.owned[name] = value;
      else if (walk.simple) walk.simple[name] = value;
    }
    seen.add(name);
  }
  return walk;
}

export function parseArgv(cmdPath: string, argv: readonly string[], defs: MoguiArgsDef, rules: ParseRules = {}, opts: ParseOptions = {}): Parsed {
  const walk = walkTokens(cmdPath, argv, defs);
  const parsed = walk.simple ? { ...walk.simple, _: [] } : citty(walk.argv, cittyDefsOf(defs));
  const out: Parsed = { _: [] };
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === "positional") continue;
    const v = name in walk.owned ? walk.owned[name] : (parsed[name] as string | boolean | undefined);
    if (v === undefined) continue;
    if (def.type === "int") out[name] = parseWhole(cmdPath, name, def, v as string);
    else if (def.type === "enum" && def.options && !def.options.includes(v as string)) {
      throw new UsageError(`--${name} must be one of ${def.options.join(", ")} (got '${v}')`, cmdPath);
    } else out[name] = v;
  }
  const missing = assignPositionals(cmdPath, out, defs, rules, parsed);
  checkGroups(cmdPath, out, defs, rules, missing);
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

/** citty assigned the declared positionals in order; the strict layer checks required ones and surplus. */
function assignPositionals(cmdPath: string, out: Parsed, defs: MoguiArgsDef, rules: ParseRules, parsed: Record<string, unknown> & { _: string[] }): string[] {
  const missing: string[] = [];
  let n = 0;
  for (const [name, def] of Object.entries(defs)) {
    if (def.type !== "positional") continue;
    const v = parsed[name] as string | undefined;
    if (v === undefined) {
      if (def.required) missing.push(`<${name}>`);
      continue;
    }
    out[name] = v;
    n++;
  }
  const rest = parsed._.slice(n);
  if (rest.length > 0 && !rules.variadic) throw new UsageError(`unexpected argument '${rest[0]}'`, cmdPath);
  out._ = rules.variadic ? rest : [];
  return missing;
}

/** Everything required that is absent, in one line (issue 26 §2): `<arg>`s, `--flag`s, then `one of` groups. */
function missingMessage(missing: string[]): string {
  const items = missing.filter((m) => !m.startsWith("one of "));
  const groups = missing.filter((m) => m.startsWith("one of ")).map((g) => `${g} is required`);
  const args = items.filter((m) => m.startsWith("<")).length;
  const kind = args === 0 ? "flag" : args === items.length ? "argument" : "argument and flag";
  const head = items.length === 0 ? [] : [`missing required ${kind}${items.length > 1 ? "s" : ""} ${items.join(", ")}`];
  return [...head, ...groups].join("; ");
}

function checkGroups(cmdPath: string, out: Parsed, defs: MoguiArgsDef, rules: ParseRules, missing: string[]): void {
  const given = (n: string) => out[n] !== undefined && out[n] !== false;
  const list = (g: readonly string[]) => g.map((n) => `--${n}`).join(", ");
  for (const g of rules.exclusive ?? []) {
    const hits = g.filter(given);
    if (hits.length > 1) throw new UsageError(`flags ${list(hits)} cannot be used together`, cmdPath);
  }
  for (const g of rules.exactlyOne ?? []) {
    const hits = g.filter(given);
    if (hits.length > 1) throw new UsageError(`flags ${list(hits)} cannot be used together`, cmdPath);
  }
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === "positional") continue;
    if (def.required && !given(name)) missing.push(`--${name}`);
  }
  for (const g of rules.exactlyOne ?? []) if (!g.some(given)) missing.push(`one of ${list(g)}`);
  if (missing.length) throw new UsageError(missingMessage(missing), cmdPath);
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === "positional") continue;
    const v = out[name];
    if (typeof v === "string" && v === "" && def.type === "string") {
      throw new UsageError(`--${name} must not be empty`, cmdPath);
    }
  }
}

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
