/**
 * Commands run without loading the command tree. `sandbox run` stands in front of every command a protected
 * session starts, so it skips the registry and the dispatcher (about 1.5 ms of each start). Only passthrough
 * commands qualify: main reads none of their words either, so the route changes nothing but the time. The context,
 * the run and the error-to-exit mapping are main's own (processCtx, runCommand, exitForError).
 */
import type { Command } from "../src/lib/command.ts";
import { runCommand } from "../src/lib/command.ts";
import { processCtx } from "../src/lib/context.ts";
import { exitForError } from "../src/lib/fail.ts";
import { withDefaults } from "../src/lib/runner.ts";

const ROUTES: Record<string, () => Promise<{ default: Command }>> = {
  "sandbox run": () => import("./hooks/sandbox/run.ts"),
};

/** The direct route argv starts with, if any. */
export function directRoute(argv: readonly string[]): string | undefined {
  const path = `${argv[0]} ${argv[1]}`;
  return Object.hasOwn(ROUTES, path) ? path : undefined;
}

export async function runDirect(path: string, argv: readonly string[]): Promise<number> {
  const ctx = processCtx();
  ctx.runner = withDefaults(ctx.runner, () => ({ env: ctx.env, cwd: ctx.cwd }));
  try {
    const cmd = (await ROUTES[path]!()).default;
    return await runCommand(ctx, path, cmd, argv.slice(path.split(" ").length));
  } catch (e) {
    return await exitForError(ctx, e);
  }
}
