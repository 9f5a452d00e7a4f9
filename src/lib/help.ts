/** gh-style help text, rendered from the command definitions and their declared exits (the registry is injected). */
import { VERSION } from "./version.ts";
import { aliasesOf, type MoguiArgsDef } from "./args.ts";
import type { AnyCommand } from "./command.ts";
import { EVERY_COMMAND, type ExitCodeRow } from "./exits.ts";
import type { Registry } from "./registry.ts";

let current: Registry = { commands: {} };

/** main installs the registry it runs on, so help rendered from inside a command sees the same tree. */
export function useRegistry(reg: Registry): void {
  current = reg;
}

function pad(rows: [string, string][], indent = "  "): string[] {
  const w = Math.max(0, ...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${indent}${a.padEnd(w)}  ${b}`.trimEnd());
}

export function exitRows(rows: readonly ExitCodeRow[]): string[] {
  return pad(rows.map((r) => [String(r.code), r.meaning]));
}

/** A command's exit rows: its declared `exits` (a group's own rows, if it declares any). */
export function exitRowsFor(cmd: AnyCommand): readonly ExitCodeRow[] | undefined {
  return cmd.exits ? Object.values(cmd.exits) : undefined;
}

/** The five commands most people need first (issue 26 §2), listed before the groups. */
const FIRST = ["config init", "preflight", "dispatch", "worker-reap", "redaction-scan"];

const ORDER = ["Dispatch", "Workers", "Fleet", "Succession", "Evidence", "Publishing", "Hooks", "Ops repository", "Help", "Developer"];

export function renderRootHelp(reg: Registry = current): string {
  const groups = new Map<string, [string, string][]>();
  for (const [name, e] of Object.entries(reg.commands)) {
    if (e.hidden) continue;
    const g = groups.get(e.group) ?? [];
    g.push([`${name}:`, e.summary]);
    groups.set(e.group, g);
  }
  const out = [
    "Getting started: 'mogui demo' dispatches and reaps a worker on the built-in Orca simulator (nothing to set up);",
    "then 'mogui config init' writes your instance configs. Walkthroughs: the README and docs/.",
    "",
    "The master session's toolbelt for a coding-agent workspace.",
    "",
    "USAGE",
    "  mogui <command> [subcommand] [flags]",
    "",
  ];
  const first = FIRST.filter((n) => reg.commands[n]).map((n): [string, string] => [`${n}:`, reg.commands[n]!.summary]);
  if (first.length) out.push("START HERE", ...pad(first), "");
  const ranked = [...groups].sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b));
  for (const [g, rows] of ranked) out.push(`${g.toUpperCase()} COMMANDS`, ...pad(rows), "");
  out.push(
    "FLAGS",
    "  --help                      Show help for a command",
    "  --version                   Show mogui's version",
    "  --debug                     Print stack traces for internal errors",
    "  --color auto|always|never   Colour on stderr (default auto: a TTY, unless NO_COLOR)",
    "",
    "LEARN MORE",
    "  Use 'mogui <command> --help' for more information about a command.",
    "  Use 'mogui help exit-codes' for every command's exit codes.",
    "  Use 'mogui completion bash|zsh|fish' for shell completion.",
    "",
    `mogui ${VERSION}`,
  );
  return `${out.join("\n")}\n`;
}

/** An int flag's bounds as help shows them; an unbounded side (UNBOUNDED_MIN/MAX) is left out. */
function intRange(min: number, max: number): string {
  const lo = min > Number.MIN_SAFE_INTEGER;
  const hi = max < Number.MAX_SAFE_INTEGER;
  if (lo && hi) return ` (${min}-${max})`;
  if (lo) return ` (>= ${min})`;
  return hi ? ` (<= ${max})` : "";
}

function flagRows(args: MoguiArgsDef): [string, string][] {
  const rows: [string, string][] = [];
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional" || def.hidden) continue;
    const short = aliasesOf(def).find((a) => a.length === 1);
    const hint = def.type === "boolean" ? "" : ` <${def.valueHint ?? (def.type === "int" ? "n" : "string")}>`;
    const many = def.type !== "int" && def.multiple ? "..." : "";
    const head = `${short ? `-${short}, ` : "    "}--${name}${hint}${many}`;
    const range = def.type === "int" ? intRange(def.min, def.max) : "";
    const dflt = def.default !== undefined && def.type !== "boolean" ? ` (default ${JSON.stringify(def.default)})` : "";
    rows.push([head, `${def.description ?? ""}${range}${dflt}`]);
  }
  rows.push(["-h, --help", "Show help for command"]);
  return rows;
}

export function renderCommandHelp(path: string, cmd: AnyCommand): string {
  if (cmd.kind === "group") return renderGroupHelp(path, cmd, []);
  // A usage line that starts with white space continues the synopsis above it.
  const out = [cmd.meta.description, "", "USAGE", ...cmd.usage.map((u) => (/^\s/.test(u) ? `        ${u.trimStart()}` : `  mogui ${u}`)), ""];
  const args: MoguiArgsDef = cmd.args;
  const positionals = Object.entries(args).filter(([, d]) => d.type === "positional");
  if (positionals.length) out.push("ARGUMENTS", ...pad(positionals.map(([n, d]) => [`<${n}>`, d.description ?? ""])), "");
  if (!cmd.passthrough) out.push("FLAGS", ...pad(flagRows(args)), "");
  for (const n of cmd.notes ?? []) out.push(...n.split("\n"), "");
  if (cmd.examples?.length) out.push("EXAMPLES", ...cmd.examples.map((e) => `  $ ${e}`), "");
  const codes = exitRowsFor(cmd);
  if (codes) out.push("EXIT CODES", ...exitRows(codes), "");
  out.push("LEARN MORE", "  Use 'mogui help exit-codes' for every command's exit codes.");
  return `${out.join("\n")}\n`;
}

/** A group's help: its description, synopsis, and every subcommand with its description (exit 0 with --help). */
export function renderGroupHelp(path: string, head: AnyCommand | undefined, subs: readonly [string, string][]): string {
  const names = subs.map(([n]) => n);
  const description = head?.meta.description ?? `The ${path} commands.`;
  const usage = head?.usage?.length ? head.usage : [`${path} <${names.join("|")}> [flags]`];
  const out = [description, "", "USAGE", ...usage.map((u) => `  mogui ${u}`), ""];
  out.push("AVAILABLE COMMANDS", ...pad(subs.map(([n, d]) => [`${n}:`, d])), "");
  out.push(`Flags may also come before the subcommand: 'mogui ${path} <flags> <command>' is 'mogui ${path} <command> <flags>'.`, "");
  for (const n of head?.notes ?? []) out.push(...n.split("\n"), "");
  if (head?.examples?.length) out.push("EXAMPLES", ...head.examples.map((e) => `  $ ${e}`), "");
  const codes = head ? exitRowsFor(head) : undefined;
  if (codes) out.push("EXIT CODES", ...exitRows(codes), "");
  out.push("LEARN MORE", `  Use 'mogui ${path} <command> --help' for more information about a command.`);
  return `${out.join("\n")}\n`;
}

export async function renderExitCodes(reg: Registry = current): Promise<string> {
  const out = ["EXIT CODES", "", "Every command", ...exitRows(EVERY_COMMAND), ""];
  for (const [name, e] of Object.entries(reg.commands)) {
    const rows = exitRowsFor((await e.load()).default);
    if (rows) out.push(`mogui ${name}`, ...exitRows(rows), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
