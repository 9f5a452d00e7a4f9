/**
 * The compiled binary for e2e tests. `npm test` builds it first and passes MOGUI_TEST_BINARY; a bare `bun test`
 * builds it once here if it is missing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { unlistedExit } from "./exit-codes.ts";
import { BUN, FIXTURES_BIN, ROOT } from "./paths.ts";

let built: string | undefined;

export function binaryPath(): string {
  if (built) return built;
  const fromEnv = process.env.MOGUI_TEST_BINARY;
  const path = fromEnv ?? join(ROOT, "dist", "mogui");
  if (!existsSync(path)) {
    const p = Bun.spawnSync([BUN, join(ROOT, "scripts", "build.ts")], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
    if (p.exitCode !== 0) throw new Error("could not build dist/mogui");
  }
  built = path;
  return path;
}

/** Env for running the binary: fixtures/bin first on PATH, git isolated from the user's config. */
export function e2eEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const k of Object.keys(env)) if (k.startsWith("ORCA_") || k.startsWith("HERDR_") || k.startsWith("MOGUI_") || k === "DISPATCH_GATE_LEDGER") delete env[k];
  return {
    ...env,
    PATH: `${FIXTURES_BIN}:${env.PATH ?? "/usr/bin:/bin"}`,
    MOGUI_BIN: binaryPath(),
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    NO_COLOR: "1",
    ...extra,
  };
}

export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runBinary(args: string[], opts: { env?: Record<string, string>; cwd?: string; stdin?: string } = {}): Promise<BinResult> {
  const p = Bun.spawn([binaryPath(), ...args], {
    cwd: opts.cwd,
    env: opts.env ?? e2eEnv(),
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  // Every observed exit code must be a documented one (test/helpers/exit-codes.ts).
  const unlisted = await unlistedExit(args, code);
  if (unlisted) throw new Error(`${unlisted}\nstderr: ${stderr.slice(0, 500)}`);
  return { code, stdout, stderr };
}
