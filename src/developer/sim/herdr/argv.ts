/**
 * herdr's hand-rolled per-command parsing (docs/herdr-cli.md §2): usage problems are plain text on stderr with exit 2,
 * in herdr's own words (`unknown option: X`, `missing value for --X`, `missing required --X`,
 * `unexpected argument: X`, `usage: herdr ...`).
 */
export class HerdrUsage extends Error {}

export interface Spec {
  usage: string;
  /** Positional names; a trailing `...` name takes the rest (joined later by the command). */
  positionals: string[];
  /** How many positionals are required. */
  required: number;
  values?: string[];
  bools?: string[];
  /** Value flags that may repeat (`--until`, `--env`). */
  multi?: string[];
  /** Everything after `--` goes to `rest` (agent start). */
  dashdash?: boolean;
}

export interface ParsedArgs {
  pos: string[];
  values: Map<string, string>;
  multi: Map<string, string[]>;
  bools: Set<string>;
  rest: string[];
}

export function parse(spec: Spec, argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { pos: [], values: new Map(), multi: new Map(), bools: new Set(), rest: [] };
  const variadic = spec.positionals.at(-1)?.endsWith("...") ?? false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--" && spec.dashdash) {
      out.rest = argv.slice(i + 1) as string[];
      break;
    }
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const name = flag.slice(2);
    // Inside a trailing `...` positional every word is text, even one that looks like a flag (send-text, run).
    const takesPositional = !a.startsWith("-") || a === "-" || (variadic && out.pos.length >= spec.positionals.length - 1);
    if (takesPositional) {
      if (out.pos.length >= spec.positionals.length && !variadic) throw new HerdrUsage(`unexpected argument: ${a}`);
      out.pos.push(a);
      continue;
    }
    if (spec.bools?.includes(name)) {
      out.bools.add(name);
      continue;
    }
    if (spec.values?.includes(name) || spec.multi?.includes(name)) {
      let value: string | undefined;
      if (eq > 0) value = a.slice(eq + 1);
      else {
        value = argv[i + 1];
        if (value === undefined) throw new HerdrUsage(`missing value for ${flag}`);
        i++;
      }
      if (spec.multi?.includes(name)) out.multi.set(name, [...(out.multi.get(name) ?? []), value]);
      else out.values.set(name, value);
      continue;
    }
    throw new HerdrUsage(`unknown option: ${a}`);
  }
  if (out.pos.length < spec.required) throw new HerdrUsage(`usage: ${spec.usage}`);
  return out;
}

export function intFlag(p: ParsedArgs, name: string, min = 0): number | undefined {
  const raw = p.values.get(name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new HerdrUsage(`invalid value for --${name}: ${raw}`);
  return Number(raw);
}
