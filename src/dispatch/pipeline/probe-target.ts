/**
 * Which transcript proves the worker's model (reference §4.4 step 8), and the shell commands `dispatch-gate
 * register` runs as its probes. The reference interpolated the glob and model into a pipeline; here every piece a
 * user or Orca supplied is either resolved to a file first or shell-quoted, so nothing is ever re-parsed by the shell.
 */
import { statSync } from "node:fs";
import { isFile } from "../../lib/fs.ts";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { globPaths, hasGlob } from "../../lib/glob.ts";
import { shellQuote } from "./runtime.ts";

export type ProbeState = "explicit-glob" | "scoped-to-worktree" | "unavailable";

export interface ProbeTarget {
  state: ProbeState;
  glob: string | null;
}

/**
 * The absolute path a worktree selector names by itself: `path:/abs`, `/abs`, and a worktree id as Orca prints it,
 * `<repoId>::/abs` (docs/orca-cli.md §4), with or without `id:`. Any other selector (name:, branch:, id:folder:...) ->
 * null: ask Orca (`worktree list`, see worktree.ts).
 */
export function absoluteWorktree(selector: string | undefined): string | null {
  if (!selector) return null;
  let p = selector.startsWith("path:") ? selector.slice(5) : selector.startsWith("id:") ? selector.slice(3) : selector;
  const sep = p.indexOf("::");
  if (!selector.startsWith("path:") && sep > 0 && !p.startsWith("/")) p = p.slice(sep + 2);
  return isAbsolute(p) ? p : null;
}

/** Claude's per-project transcript directory: the path with every `/` and `.` turned into `-`. */
export function claudeProjectGlob(home: string, worktree: string): string {
  return join(home, ".claude", "projects", worktree.replace(/[/.]/g, "-"), "*.jsonl");
}

export function probeTarget(ctx: Pick<Ctx, "env">, runtime: string, explicitGlob: string | undefined, worktree: string | null): ProbeTarget {
  if (explicitGlob) return { state: "explicit-glob", glob: explicitGlob };
  if (runtime === "claude" && worktree) return { state: "scoped-to-worktree", glob: claudeProjectGlob(ctx.env.HOME || homedir(), worktree) };
  return { state: "unavailable", glob: null };
}

/** The newest file a glob matches (`ls -t | head -1`), or null. `~/` is the home directory. */
export function newestMatch(ctx: Pick<Ctx, "env" | "cwd">, glob: string): string | null {
  let g = glob.startsWith("~/") ? join(ctx.env.HOME || homedir(), glob.slice(2)) : glob;
  g = resolve(ctx.cwd, g);
  if (!hasGlob(g)) return isFile(g) ? g : null;
  let best: { path: string; mtime: number } | null = null;
  for (const path of globPaths(g, { onlyFiles: true })) {
    const m = mtimeOf(path);
    if (m !== null && (best === null || m > best.mtime)) best = { path, mtime: m };
  }
  return best?.path ?? null;
}

function mtimeOf(p: string): number | null {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return null;
  }
}

/** `<mogui> model-identity-probe --transcript <file> | grep -o <model>`: prints the model only if the probe saw it. */
export function modelProbeCommand(self: readonly string[], transcript: string | null, model: string): string {
  // No transcript: a probe that fails, so register records MODEL_PROBE_FAILED rather than "verified".
  if (transcript === null) return "exit 1";
  const probe = [...self, "model-identity-probe", "--transcript", transcript].map(shellQuote).join(" ");
  return `${probe} 2>/dev/null | grep -o -F -- ${shellQuote(model)} | head -n 1`;
}

/** The job probe: the dispatch id is proved when Orca's dispatch-show for the task prints it. */
export function jobProbeCommand(orcaExe: string, task: string, dispatchId: string): string {
  const show = [orcaExe, "orchestration", "dispatch-show", "--task", task, "--json"].map(shellQuote).join(" ");
  return `${show} 2>/dev/null | grep -o -F -- ${shellQuote(dispatchId)} | head -n 1`;
}
