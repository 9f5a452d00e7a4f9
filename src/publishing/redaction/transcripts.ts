/**
 * The agents' transcript stores (issue 25 §3), as their documentation places them: Claude Code keeps one JSONL file
 * per session under `~/.claude/projects/<project>/` (`$CLAUDE_CONFIG_DIR/projects` when that is set); Codex writes
 * `rollout-*.jsonl` files under `~/.codex/sessions/YYYY/MM/DD/` (`$CODEX_HOME/sessions`; archived sessions in
 * `archived_sessions`). `redaction-scan --transcripts` scans them with the same engine, baseline and reports.
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { logger } from "../../lib/log.ts";
import type { ScanRequest } from "./scan.ts";

export type Agent = "claude" | "codex" | "all";

interface Stores {
  /** The home the findings' paths are shown relative to. */
  root: string;
  /** The store directories that exist. */
  dirs: string[];
  /** Every place looked at (for the verbose line and the empty-store note). */
  looked: string[];
  /** The file names a store holds transcripts in. */
  include: RegExp;
}

function transcriptStores(ctx: Pick<Ctx, "env" | "cwd">, agent: Agent): Stores {
  const home = ctx.env.HOME || homedir();
  const claude = ctx.env.CLAUDE_CONFIG_DIR ? resolve(ctx.cwd, ctx.env.CLAUDE_CONFIG_DIR) : join(home, ".claude");
  const codex = ctx.env.CODEX_HOME ? resolve(ctx.cwd, ctx.env.CODEX_HOME) : join(home, ".codex");
  const looked: string[] = [];
  if (agent !== "codex") looked.push(join(claude, "projects"));
  if (agent !== "claude") looked.push(join(codex, "sessions"), join(codex, "archived_sessions"));
  const dirs = looked.filter((d) => existsSync(d) && statSync(d).isDirectory());
  // Claude Code: <session-id>.jsonl (and agent-*.jsonl for subagents); Codex: rollout-<date>-<id>.jsonl.
  return { root: home, dirs, looked, include: /\.jsonl$/ };
}

/**
 * Points a --paths request at the stores' `*.jsonl` files (findings name the session file, relative to $HOME). With
 * no store at all it says so (exit 0, nothing to leak) and returns false.
 */
export function transcriptRequest(ctx: Ctx, req: ScanRequest, agent: Agent, verbose: boolean, json: boolean): boolean {
  const stores = transcriptStores(ctx, agent);
  if (verbose) logger(ctx, "redaction-scan").log(`transcript stores: ${stores.looked.map((d) => `${d}${stores.dirs.includes(d) ? "" : " (absent)"}`).join(", ")}`);
  if (stores.dirs.length === 0) {
    logger(ctx, "redaction-scan").log(`OK — no transcript store found (looked in ${stores.looked.join(", ")})`);
    if (json) ctx.io.stdout(`${JSON.stringify({ files: 0, findings: [], findings_total: 0, verdict: "clean" })}\n`);
    return false;
  }
  Object.assign(req, { root: stores.root, paths: stores.dirs, include: stores.include });
  return true;
}
