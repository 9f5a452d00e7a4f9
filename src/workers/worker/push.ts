/**
 * Push verification (spawn-worker §5-1): a worker's "pushed" is a claim; `git ls-remote` on the remote is the
 * evidence. The claimed SHA must be what the remote shows for the branch (a prefix of >= 7 hex digits is accepted
 * as a claim, the full remote SHA is what gets recorded).
 */
import { readFileSync } from "node:fs";
import type { Ctx } from "../../lib/context.ts";
import { git } from "../../lib/git.ts";

export interface PushCheck {
  ok: boolean;
  remote: string;
  branch: string;
  claimed_sha: string;
  remote_sha: string | null;
  reason: string;
}

const SHA = /^[0-9a-f]{7,64}$/;

export function isSha(s: string): boolean {
  return SHA.test(s);
}

/** The SHA a final report claims: a line `Push SHA: <sha>` (also `SHA:` / `pushed:`). */
export function claimedShaFromReport(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const m = text.match(/^\s*(?:[-*]\s*)?(?:\*\*)?(?:push sha|pushed sha|sha|pushed)(?:\*\*)?\s*:\s*`?([0-9a-fA-F]{7,64})`?\s*$/im);
  return m ? m[1]!.toLowerCase() : null;
}

export async function verifyPush(ctx: Ctx, repo: string, remote: string, branch: string, claimed: string): Promise<PushCheck | { error: string }> {
  const r = await git(ctx, repo, ["ls-remote", remote, `refs/heads/${branch}`]);
  if (!r.ok) return { error: `git ls-remote ${remote} failed: ${r.why}` };
  const line = r.stdout.split("\n").find((l) => l.endsWith(`\trefs/heads/${branch}`));
  const remoteSha = line ? line.split("\t")[0]!.trim() : null;
  const base = { remote, branch, claimed_sha: claimed, remote_sha: remoteSha };
  if (!remoteSha) return { ...base, ok: false, reason: `${remote} has no branch ${branch} (claimed ${claimed}, remote shows none)` };
  if (remoteSha.startsWith(claimed)) return { ...base, ok: true, reason: `${remote} ${branch} is at the claimed ${claimed}` };
  return { ...base, ok: false, reason: `${remote} ${branch} is at ${remoteSha}, not the claimed ${claimed}` };
}
