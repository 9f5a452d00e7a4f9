/**
 * The lazy loader map: `mogui --help` needs only these summaries, and running a command loads only its module,
 * which keeps start-up (and every hook call) cheap. Each command family keeps its rows in commands/<family>/index.ts.
 */
import * as developer from "./developer/index.ts";
import * as dispatch from "./dispatch/index.ts";
import * as evidence from "./evidence/index.ts";
import * as fleet from "./fleet/index.ts";
import * as hooks from "./hooks/index.ts";
import * as opsRepo from "./ops-repo/index.ts";
import * as publishing from "./publishing/index.ts";
import * as succession from "./succession/index.ts";
import * as workers from "./workers/index.ts";
import type { CommandEntry, FamilyRow, FamilyTitle } from "./entry.ts";
import type { Registry } from "../src/lib/registry.ts";

export type { CommandEntry } from "./entry.ts";

/** A family's rows, each given the family's title as its help group. */
function rows<T extends Record<string, FamilyRow>>(family: { title: FamilyTitle; commands: T }): { [K in keyof T]: T[K] & { group: FamilyTitle } } {
  return Object.fromEntries(Object.entries(family.commands).map(([k, v]) => [k, { ...v, group: family.title }])) as { [K in keyof T]: T[K] & { group: FamilyTitle } };
}

export const COMMANDS = {
  ...rows(dispatch),
  ...rows(workers),
  ...rows(fleet),
  ...rows(succession),
  ...rows(evidence),
  ...rows(publishing),
  ...rows(opsRepo),
  ...rows(hooks),
  ...rows(developer),
} satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

export function commandEntry(name: string): CommandEntry | undefined {
  return (COMMANDS as Record<string, CommandEntry>)[name];
}

/** The command tree src/main.ts runs on: injected by commands/main.ts, so src/ never imports commands/. */
export const REGISTRY: Registry = { commands: COMMANDS };
