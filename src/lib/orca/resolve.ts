/**
 * Which executable is "orca" (DECISIONS D5): ORCA_CLI_COMMAND > orca-dev when ORCA_DEV_REPO_ROOT is set > orca.
 * On Linux, outside an Orca terminal, bare `orca` is usually the GNOME screen reader, so `orca-ide` is preferred
 * there when it is on PATH; anywhere else `orca-ide` is the fallback when `orca` is missing.
 */
import type { Env } from "../context.ts";

export function resolveOrcaExecutable(env: Env, platform: string = process.platform, which = defaultWhich(env)): string {
  const explicit = env.ORCA_CLI_COMMAND?.trim();
  if (explicit) return explicit;
  if (env.ORCA_DEV_REPO_ROOT) return "orca-dev";
  const insideOrca = Boolean(env.ORCA_TERMINAL_HANDLE);
  if (platform === "linux" && !insideOrca && which("orca-ide")) return "orca-ide";
  if (which("orca")) return "orca";
  if (which("orca-ide")) return "orca-ide";
  return "orca";
}

function defaultWhich(env: Env): (name: string) => boolean {
  return (name) => Bun.which(name, { PATH: env.PATH ?? "" }) !== null;
}
