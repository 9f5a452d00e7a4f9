/**
 * main(argv) bound to mogui's command tree: what src/cli.ts, the demo and the in-process tests call. Kept apart from
 * the registry (commands/index.ts), so the loader map never imports the dispatcher.
 */
import { main as runMain } from "../src/main.ts";
import type { Ctx } from "../src/lib/context.ts";
import { REGISTRY } from "./index.ts";

export function main(argv: readonly string[], ctx?: Partial<Ctx>): Promise<number> {
  return runMain(argv, ctx, REGISTRY);
}
