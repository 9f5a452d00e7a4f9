/** The shape of one mogui command: citty-style arg definitions plus the help text mogui renders gh-style. */
import type { MoguiArgsDef, ParseRules, Parsed } from "./args.ts";
import type { Ctx } from "./context.ts";

export interface MoguiCommand {
  meta: { name: string; description: string };
  /** gh-style synopsis lines, without the leading `mogui `. */
  usage: readonly string[];
  args: MoguiArgsDef;
  rules?: ParseRules;
  examples?: readonly string[];
  /** Extra paragraphs for --help (contracts worth knowing before running it). */
  notes?: readonly string[];
  /** Key into EXIT_CODES; defaults to meta.name. */
  exitCodes?: string;
  /** Hand argv over untouched (the simulators parse like the real CLIs they imitate). */
  passthrough?: boolean;
  run(ctx: Ctx, args: Parsed): Promise<number>;
}

export function defineMoguiCommand(cmd: MoguiCommand): MoguiCommand {
  return cmd;
}
