/**
 * orca-surface-check (reference §28.6): has the Orca CLI surface mogui depends on changed? Compares the app
 * version (`orca status --json`), the agent-context schema version, the command count and a fingerprint of each
 * watched command (sha256 of {command, sorted flags, usage}, first 16 hex) with a recorded baseline.
 */
import { createHash } from "node:crypto";
import type { Ctx } from "../../lib/context.ts";
import { resolveOrcaExecutable } from "../../lib/orca/resolve.ts";

export interface Surface {
  appVersion: string;
  schemaVersion: number | null;
  commandCount: number;
  commands: Record<string, string>;
}

export interface Baseline {
  appVersion: string;
  schemaVersion: number | null;
  commandCount: number;
  watched: Record<string, string>;
}

export class Unmeasurable extends Error {}

type Obj = Record<string, unknown>;

export function fingerprint(command: string, flags: readonly string[], usage: string): string {
  return createHash("sha256")
    .update(JSON.stringify({ command, flags: [...flags].sort(), usage }))
    .digest("hex")
    .slice(0, 16);
}

function commandName(c: Obj): string | null {
  const n = c.command ?? c.path ?? c.name;
  if (Array.isArray(n)) return n.join(" ");
  return typeof n === "string" && n ? n : null;
}

function flagNames(c: Obj): string[] {
  const f = Array.isArray(c.flags) ? c.flags : Array.isArray(c.options) ? c.options : [];
  return f.map((x) => (typeof x === "string" ? x : String((x as Obj)?.name ?? (x as Obj)?.flag ?? ""))).filter(Boolean);
}

function parseAgentContext(doc: unknown): Omit<Surface, "appVersion"> {
  const d = (doc as Obj)?.result && typeof (doc as Obj).result === "object" ? ((doc as Obj).result as Obj) : (doc as Obj);
  if (!d || typeof d !== "object" || !Array.isArray(d.commands)) throw new Unmeasurable("orca agent-context --json has no commands list");
  const commands: Record<string, string> = {};
  for (const c of d.commands as Obj[]) {
    const name = c && typeof c === "object" ? commandName(c) : null;
    if (name) commands[name] = fingerprint(name, flagNames(c), typeof c.usage === "string" ? c.usage : "");
  }
  const schemaVersion = typeof d.schemaVersion === "number" ? d.schemaVersion : null;
  const commandCount = typeof d.commandCount === "number" ? d.commandCount : Object.keys(commands).length;
  return { schemaVersion, commandCount, commands };
}

async function orcaJson(ctx: Ctx, args: string[]): Promise<unknown> {
  const orca = resolveOrcaExecutable(ctx.env);
  const r = await ctx.runner([orca, ...args, "--json"], { cwd: ctx.cwd, env: ctx.env, timeoutMs: 20_000 });
  if (r.missing) throw new Unmeasurable(`${orca}: command not found`);
  if (r.timedOut || r.code !== 0) throw new Unmeasurable(`${orca} ${args.join(" ")} failed (${r.timedOut ? "timed out" : `exit ${r.code}`})`);
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Unmeasurable(`${orca} ${args.join(" ")} did not print JSON`);
  }
}

export async function measureSurface(ctx: Ctx): Promise<Surface> {
  const status = (await orcaJson(ctx, ["status"])) as Obj;
  const result = (status?.result ?? status) as Obj;
  const v = (result?.runtime as Obj | undefined)?.appVersion ?? result?.appVersion;
  if (typeof v !== "string" || !v) throw new Unmeasurable("orca status --json has no runtime.appVersion (is Orca running?)");
  return { appVersion: v, ...parseAgentContext(await orcaJson(ctx, ["agent-context"])) };
}

export function parseBaseline(text: string, path: string): Baseline {
  let b: Obj;
  try {
    b = JSON.parse(text) as Obj;
  } catch {
    throw new Unmeasurable(`baseline ${path} is not valid JSON`);
  }
  const watched = b?.watched;
  if (typeof b?.appVersion !== "string" || typeof b.commandCount !== "number" || !watched || typeof watched !== "object") {
    throw new Unmeasurable(`baseline ${path} needs appVersion, schemaVersion, commandCount and watched`);
  }
  return { appVersion: b.appVersion, schemaVersion: typeof b.schemaVersion === "number" ? b.schemaVersion : null, commandCount: b.commandCount, watched: watched as Record<string, string> };
}

export function compareSurface(b: Baseline, s: Surface): string[] {
  const drift: string[] = [];
  if (b.appVersion !== s.appVersion) drift.push(`appVersion ${b.appVersion} -> ${s.appVersion}`);
  if (b.schemaVersion !== s.schemaVersion) drift.push(`schemaVersion ${b.schemaVersion} -> ${s.schemaVersion}`);
  if (b.commandCount !== s.commandCount) drift.push(`commandCount ${b.commandCount} -> ${s.commandCount}`);
  for (const [name, hash] of Object.entries(b.watched).sort()) {
    const now = s.commands[name];
    if (now === undefined) drift.push(`watched command '${name}' is gone`);
    else if (now !== hash) drift.push(`watched command '${name}' changed (flags or usage): ${hash} -> ${now}`);
  }
  return drift;
}

/** A baseline from the current surface: the previous watch list when there is one, else every command. */
export function baselineFrom(s: Surface, previous: Baseline | null): Baseline {
  const names = previous ? Object.keys(previous.watched) : Object.keys(s.commands);
  const watched: Record<string, string> = {};
  for (const n of names.sort()) if (s.commands[n] !== undefined) watched[n] = s.commands[n]!;
  return { appVersion: s.appVersion, schemaVersion: s.schemaVersion, commandCount: s.commandCount, watched };
}
