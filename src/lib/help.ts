/** gh-style help text, rendered from the same command definitions and exit-code table the code runs on. */
import { COMMANDS, type CommandEntry } from "../../commands/index.ts";
import { VERSION } from "../version.ts";
import { aliasesOf } from "./args.ts";
import type { MoguiCommand } from "./command.ts";
import { EXIT_CODES, type ExitCodeRow } from "./exit-codes.ts";

function pad(rows: [string, string][], indent = "  "): string[] {
  const w = Math.max(0, ...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${indent}${a.padEnd(w)}  ${b}`.trimEnd());
}

export function exitRows(rows: readonly ExitCodeRow[]): string[] {
  return pad(rows.map((r) => [String(r.code), r.meaning]));
}

export function renderRootHelp(): string {
  const groups = new Map<string, [string, string][]>();
  for (const [name, e] of Object.entries(COMMANDS as Record<string, CommandEntry>)) {
    if (e.hidden) continue;
    const g = groups.get(e.group) ?? [];
    g.push([`${name}:`, e.summary]);
    groups.set(e.group, g);
  }
  const out = [
    "The master session's toolbelt for a coding-agent workspace.",
    "",
    "USAGE",
    "  mogui <command> [subcommand] [flags]",
    "",
  ];
  const order: readonly CommandEntry["group"][] = ["Dispatch", "Workers", "Fleet", "Succession", "Evidence", "Publishing", "Hooks", "Ops repository", "Help", "Developer"];
  const ranked = [...groups].sort(([a], [b]) => order.indexOf(a as CommandEntry["group"]) - order.indexOf(b as CommandEntry["group"]));
  for (const [g, rows] of ranked) out.push(`${g.toUpperCase()} COMMANDS`, ...pad(rows), "");
  out.push(
    "FLAGS",
    "  --help       Show help for a command",
    "  --version    Show mogui's version",
    "  --debug      Print stack traces for internal errors",
    "",
    "LEARN MORE",
    "  Use 'mogui <command> --help' for more information about a command.",
    "  Use 'mogui help exit-codes' for every command's exit codes.",
    "",
    `mogui ${VERSION}`,
  );
  return `${out.join("\n")}\n`;
}

function flagRows(cmd: MoguiCommand): [string, string][] {
  const rows: [string, string][] = [];
  for (const [name, def] of Object.entries(cmd.args)) {
    if (def.type === "positional" || def.hidden) continue;
    const short = aliasesOf(def).find((a) => a.length === 1);
    const hint = def.type === "boolean" ? "" : ` <${def.valueHint ?? "string"}>`;
    const head = `${short ? `-${short}, ` : "    "}--${name}${hint}${def.multiple ? "..." : ""}`;
    const dflt = def.default !== undefined && def.type !== "boolean" ? ` (default ${JSON.stringify(def.default)})` : "";
    rows.push([head, `${def.description ?? ""}${dflt}`]);
  }
  rows.push(["-h, --help", "Show help for command"]);
  return rows;
}

export function renderCommandHelp(path: string, cmd: MoguiCommand): string {
  // A usage line that starts with white space continues the synopsis above it.
  const out = [cmd.meta.description, "", "USAGE", ...cmd.usage.map((u) => (/^\s/.test(u) ? `        ${u.trimStart()}` : `  mogui ${u}`)), ""];
  const positionals = Object.entries(cmd.args).filter(([, d]) => d.type === "positional");
  if (positionals.length) out.push("ARGUMENTS", ...pad(positionals.map(([n, d]) => [`<${n}>`, d.description ?? ""])), "");
  if (!cmd.passthrough) out.push("FLAGS", ...pad(flagRows(cmd)), "");
  for (const n of cmd.notes ?? []) out.push(...n.split("\n"), "");
  if (cmd.examples?.length) out.push("EXAMPLES", ...cmd.examples.map((e) => `  $ ${e}`), "");
  const codes = EXIT_CODES[cmd.exitCodes ?? path];
  if (codes) out.push("EXIT CODES", ...exitRows(codes), "");
  out.push("LEARN MORE", "  Use 'mogui help exit-codes' for every command's exit codes.");
  return `${out.join("\n")}\n`;
}

export function renderExitCodes(): string {
  const out = ["EXIT CODES", ""];
  for (const [name, rows] of Object.entries(EXIT_CODES)) {
    out.push(name === "(every command)" ? "Every command" : `mogui ${name}`, ...exitRows(rows), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
