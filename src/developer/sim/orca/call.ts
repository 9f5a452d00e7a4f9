/** What one simulated command gets, and the shape of a command family's table. */
import type { Ctx } from "../../../lib/context.ts";
import type { Flags } from "./argv.ts";
import type { Outcome } from "./output.ts";
import type { Store } from "./store.ts";
import type { Fault } from "./types.ts";

export interface Call {
  ctx: Ctx;
  /** The command path, e.g. `terminal close`. */
  path: string;
  flags: Flags;
  json: boolean;
  store: Store;
  /** A fault that changes the command's own behaviour (`legacy`, `survive_close`). */
  fault?: Fault;
  /** The caller's directory: ORCA_CLI_CWD overrides the process cwd, as in the real CLI. */
  cwd: string;
}

interface CommandDef {
  /** Accepted flags besides the global ones (docs/orca-cli.md; unknown ones are `invalid_argument`). */
  flags: readonly string[];
  usage: string;
  run(call: Call): Outcome | Promise<Outcome>;
}

export type CommandTable = Record<string, CommandDef>;

export function now(call: Call): number {
  return call.ctx.now();
}
