/** Where spend state lives (DECISIONS D2): flag > documented env var > $MOGUI_HOME default. */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { moguiHome, resolveStatePath, type Ctx } from "../../lib/context.ts";

export const SPEND_LEDGER_ENV = "MOGUI_SPEND_LEDGER";
const SPEND_LEDGER_FILE = "spend-ledger.jsonl";

/** The spend ledger: `--spend-ledger` > $MOGUI_SPEND_LEDGER > $MOGUI_HOME/spend-ledger.jsonl. */
export function spendLedgerPath(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): string {
  return resolveStatePath(ctx, flag, SPEND_LEDGER_ENV, SPEND_LEDGER_FILE);
}

/** How far each transcript was read: beside the ledger, so a test's ledger carries its own state. */
export function spendStatePath(ledger: string): string {
  return `${ledger}.state.json`;
}

/** The optional user price table: no price is built in (D37). */
export function pricesPath(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): string {
  return flag ? resolve(ctx.cwd, flag) : join(moguiHome(ctx), "config", "prices.json");
}

/** Claude Code keeps sessions under $CLAUDE_CONFIG_DIR/projects (default ~/.claude/projects). */
export function claudeProjectsDir(ctx: Pick<Ctx, "env">): string {
  const base = ctx.env.CLAUDE_CONFIG_DIR || join(ctx.env.HOME || homedir(), ".claude");
  return join(base, "projects");
}

/** Codex keeps rollouts under $CODEX_HOME/sessions (default ~/.codex/sessions). */
export function codexSessionsDir(ctx: Pick<Ctx, "env">): string {
  const base = ctx.env.CODEX_HOME || join(ctx.env.HOME || homedir(), ".codex");
  return join(base, "sessions");
}

/** Claude Code's project directory name for a working directory: every non-alphanumeric turned into '-'. */
export function claudeProjectName(worktree: string): string {
  return worktree.replace(/[^A-Za-z0-9]/g, "-");
}
