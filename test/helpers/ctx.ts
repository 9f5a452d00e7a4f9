/** In-process harness: run main(argv) with captured stdout/stderr, a chosen env and (optionally) a stub runner. */
import { main } from "../../commands/main.ts";
import type { Ctx, Env } from "../../src/lib/context.ts";
import type { Runner } from "../../src/lib/runner.ts";
import { join } from "node:path";

export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

export function captureCtx(over: Partial<Ctx> = {}): { ctx: Partial<Ctx>; out: () => { stdout: string; stderr: string } } {
  let stdout = "";
  let stderr = "";
  const ctx: Partial<Ctx> = {
    io: { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stdoutIsTTY: false, stderrIsTTY: false },
    ...over,
  };
  return { ctx, out: () => ({ stdout, stderr }) };
}

export async function runMain(argv: string[], opts: { env?: Env; cwd?: string; runner?: Runner; now?: () => number } = {}): Promise<Captured> {
  const over: Partial<Ctx> = {};
  if (opts.env) over.env = opts.env;
  if (opts.cwd) over.cwd = opts.cwd;
  if (opts.runner) over.runner = opts.runner;
  if (opts.now) over.now = opts.now;
  const { ctx, out } = captureCtx(over);
  const code = await main(argv, ctx);
  return { code, ...out() };
}

/** main run in a scratch dir (`dir()`, usually a fresh tempDir per test): HOME and MOGUI_HOME inside it, PATH as given. */
export function scratchRunner(dir: () => string) {
  const env = (extra: Record<string, string> = {}) => ({ HOME: dir(), MOGUI_HOME: join(dir(), "home"), PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra });
  const run = (argv: string[], opts: { env?: Record<string, string>; runner?: Runner } = {}) => runMain(argv, { env: opts.env ?? env(), cwd: dir(), runner: opts.runner });
  return { env, run };
}
