/** What the acceptance-loop commands share: config loading with every error as a clean exit 2 (D26). */
import { accessSync, constants, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Ctx } from "../../../src/lib/context.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import type { ExitDef } from "../../../src/lib/exits.ts";
import { AcceptanceConfigError, loadAcceptanceConfig, type AcceptanceConfig } from "../../../src/evidence/acceptance/config.ts";
import type { CaseBook } from "../../../src/evidence/acceptance/casebook.ts";
import { within } from "../../../src/lib/paths.ts";

/** The acceptance-loop commands' `usage` row: a config or case book problem is a usage error (exit 2, naming the file). */
export const ACCEPTANCE_USAGE = {
  code: 2,
  meaning: "usage error, or a config / case book problem (the message names the file)",
} as const satisfies ExitDef;

export function loadForCli(ctx: Pick<Ctx, "cwd" | "env">, configFlag: string): { config: AcceptanceConfig; casebook: CaseBook } {
  try {
    return loadAcceptanceConfig(resolve(ctx.cwd, configFlag), ctx.env);
  } catch (e) {
    if (e instanceof AcceptanceConfigError) throw new ExitError(ACCEPTANCE_USAGE.code, `acceptance-loop: ${e.message}`);
    throw e;
  }
}

/**
 * The proposer runs with the workspace root as its working directory and the user's permissions: whatever lies
 * under that root it can read. Say so when the private cases (config, run dir, regression log) are in reach.
 */
/** The run (or output) directory exists and is writable, before anything runs or is written: else exit 2 naming it. */
export function prepareRunDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new ExitError(ACCEPTANCE_USAGE.code, `acceptance-loop: cannot write to ${err.path ?? dir}: ${err.code ?? err.message}`);
  }
}

export function exposureWarnings(config: AcceptanceConfig): string[] {
  const out: string[] = [];
  const root = config.workspaceRoot;
  if (within(root, config.configPath)) out.push(`the config (with the private cases) is inside workspace_root ${root}; the proposer can read it`);
  if (within(root, config.runDir)) out.push(`run_dir ${config.runDir} is inside workspace_root; the proposer can read history/private there`);
  if (config.regressionLog && within(root, config.regressionLog)) out.push(`regression_log is inside workspace_root; the proposer can read pinned private cases`);
  return out;
}
