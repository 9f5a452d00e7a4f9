/**
 * The GitHub CLI seam for the PR and conversation checks. `gh` missing or not logged in is a clean exit 2 with
 * a message that says what to do; gh's own output is never echoed wholesale (it can carry tokens or the very
 * values a scan found).
 */
import type { Ctx } from "../../lib/context.ts";

export class GhError extends Error {
  constructor(message: string) {
    super(message);
  }
}

const TIMEOUT_MS = 60_000;

function firstLine(text: string): string {
  return (text.trim().split("\n")[0] ?? "").replace(/(gh[opsur]_|github_pat_)[A-Za-z0-9_]+/g, "$1***").slice(0, 200);
}

async function gh(ctx: Ctx, args: readonly string[]): Promise<string> {
  const r = await ctx.runner(["gh", ...args], { cwd: ctx.cwd, env: ctx.env, timeoutMs: TIMEOUT_MS });
  if (r.missing) throw new GhError("gh (the GitHub CLI) is not installed or not on PATH");
  if (r.timedOut) throw new GhError(`gh ${args[0]} timed out after ${TIMEOUT_MS} ms`);
  if (r.code !== 0) throw new GhError(`gh ${args.slice(0, 2).join(" ")} failed (exit ${r.code ?? r.signal}): ${firstLine(r.stderr || r.stdout)}`);
  return r.stdout;
}

/** `gh auth status` must succeed before anything else is asked. */
export async function requireGhAuth(ctx: Ctx): Promise<void> {
  const r = await ctx.runner(["gh", "auth", "status"], { cwd: ctx.cwd, env: ctx.env, timeoutMs: TIMEOUT_MS });
  if (r.missing) throw new GhError("gh (the GitHub CLI) is not installed or not on PATH");
  if (r.code !== 0) throw new GhError("gh is not authenticated: run 'gh auth login' (or set GH_TOKEN)");
}

export async function ghJson(ctx: Ctx, args: readonly string[]): Promise<unknown> {
  const out = await gh(ctx, args);
  try {
    return JSON.parse(out);
  } catch {
    throw new GhError(`gh ${args.slice(0, 2).join(" ")} did not print JSON`);
  }
}

export function repoArgs(repo: string | undefined): string[] {
  return repo ? ["--repo", repo] : [];
}

export const REPO_RE = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
