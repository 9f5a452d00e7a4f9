/** What every `mogui hook <name>` does first: read the host's JSON, work out cwd and event, append the fire row. */
import type { MoguiArgsDef } from "../../lib/args.ts";
import type { Ctx } from "../../lib/context.ts";
import { appendFire, sessionKind, type SessionKind } from "./firelog.ts";
import { readHookInput, str, type HookInput } from "./stdin.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export const HOOK_ARGS = {
  "input-file": { type: "string", valueHint: "path", description: "Read the hook JSON from this file instead of stdin ('-' = stdin)" },
} as const satisfies MoguiArgsDef;

/** The exits of a hook that never blocks: always 0, unless its own flags are wrong. */
export function alwaysOk(meaning: string) {
  return {
    ok: { code: 0, meaning },
    usage: { code: 2, meaning: "usage error (unknown flag)" },
  } as const;
}

export interface HookCall {
  input: HookInput;
  /** The host's cwd field when it names an existing absolute directory, else the process cwd. */
  cwd: string;
  event: string;
  /** sessionKind(ctx, cwd), worked out once for the fire row and any later row of the same call. */
  sessionKind: SessionKind;
  /** Set when the input could not be read or parsed. */
  inputError?: string;
  /** Nothing arrived (empty, closed or unreadable stdin; a TTY): no error, but nothing to judge either. */
  empty: boolean;
}

export function startHook(ctx: Ctx, args: { "input-file"?: string }, hook: string, defaultEvent: string): HookCall {
  const r = readHookInput(ctx.cwd, args["input-file"]);
  const input = r.ok ? r.input : {};
  const c = str(input, "cwd");
  const cwd = c?.startsWith("/") && existsSync(c) ? resolve(c) : ctx.cwd;
  const event = str(input, "hook_event_name") ?? defaultEvent;
  const kind = sessionKind(ctx, cwd);
  appendFire(ctx, hook, event, cwd, kind);
  return { input, cwd, event, sessionKind: kind, empty: r.ok && r.empty, ...(r.ok ? {} : { inputError: r.why }) };
}
