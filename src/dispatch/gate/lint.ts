/** Contract lint warnings (reference §3.7, DECISIONS D14): non-blocking, emitted in this fixed order. */
import { readFileSync } from "node:fs";
import type { ReasonCode } from "./reasons.ts";

// Python's \b is Unicode-aware: "mcp" next to a Hangul letter is not a whole word there, so neither is it here.
const MCP = /(?<![\p{L}\p{N}_])mcp(?![\p{L}\p{N}_])|mcp__|code-review-graph/iu;
// The reference's own pattern (`trust|신뢰|다이얼로그`, §3.7) matched in contracts: input, kept byte for byte.
const TRUST = /trust|신뢰|다이얼로그/i;
const ABS_PATH = /\/(?:Users|home)\/[^\s"'`<>{}[\](),;:]+/g;
const TRAILING = /[.,)\]}"'`]+$/;
const REPO_ROOT_WORDS = ["repo_root", "repo root", "repo-root", "graph"];

/** The known roots, or undefined when the file is missing or not a JSON array of non-empty strings (lint skipped). */
export function loadKnownRoots(path: string): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || !value.every((r) => typeof r === "string" && r !== "")) return undefined;
  return value as string[];
}

function underRoot(path: string, root: string): boolean {
  const r = root.length > 1 ? root.replace(/\/+$/, "") : root;
  return path === r || path.startsWith(r === "/" ? "/" : `${r}/`);
}

export function outsideKnownRoots(text: string, roots: readonly string[]): boolean {
  for (const m of text.matchAll(ABS_PATH)) {
    const p = m[0].replace(TRAILING, "");
    if (p && !roots.some((r) => underRoot(p, r))) return true;
  }
  return false;
}

export function worktreeAsRepoRoot(text: string): boolean {
  return text.split(/\r\n|\r|\n/).some((line) => {
    if (!line.includes("/.orca/worktrees/")) return false;
    const lower = line.toLowerCase();
    return REPO_ROOT_WORDS.some((w) => lower.includes(w));
  });
}

export function lintContract(text: string, knownRoots: readonly string[] | undefined): ReasonCode[] {
  const out: ReasonCode[] = [];
  if (MCP.test(text) && !TRUST.test(text)) out.push("MCP_TRUST_UNHANDLED");
  if (knownRoots && outsideKnownRoots(text, knownRoots)) out.push("PATH_OUTSIDE_KNOWN_ROOTS");
  if (worktreeAsRepoRoot(text)) out.push("WORKTREE_AS_REPO_ROOT");
  return out;
}
