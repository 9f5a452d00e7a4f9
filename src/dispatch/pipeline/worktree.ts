/**
 * The worker's worktree as an absolute path, for pre-trust (codex) and the transcript probe (claude). A path or a
 * worktree id carries it (probe-target.ts absoluteWorktree); any other selector is looked up in Orca's
 * `worktree list` with the selector grammar of docs/orca-cli.md §4; with --terminal, `terminal show` says where it runs.
 */
import * as v from "valibot";
import { type OrcaClient, OrcaError } from "../../lib/orca/client.ts";
import { absoluteWorktree } from "./probe-target.ts";

const WorktreeRecord = v.looseObject({
  id: v.optional(v.string()),
  path: v.optional(v.string()),
  branch: v.optional(v.nullable(v.string())),
  displayName: v.optional(v.nullable(v.string())),
});
const WorktreeList = v.looseObject({ worktrees: v.array(WorktreeRecord) });
type Record_ = v.InferOutput<typeof WorktreeRecord>;

const stripHeads = (b: string | null | undefined) => (b ?? "").replace(/^refs\/heads\//, "");

/** Does this `worktree list` record answer the selector? */
function selects(w: Record_, selector: string): boolean {
  const colon = selector.indexOf(":");
  const kind = colon > 0 ? selector.slice(0, colon) : "";
  const value = selector.slice(colon + 1);
  switch (kind) {
    case "id":
      return w.id === value;
    case "path":
      return w.path === value;
    case "name":
      return w.displayName === value;
    case "branch":
      return stripHeads(w.branch) === stripHeads(value);
    default:
      return w.id === selector || w.path === selector || stripHeads(w.branch) === stripHeads(selector) || w.displayName === selector;
  }
}

/** The absolute path of the one worktree the selector names, or null (none, several, no path, or Orca failed). */
async function listedWorktreePath(orca: OrcaClient, selector: string): Promise<string | null> {
  try {
    const parsed = v.safeParse(WorktreeList, await orca.result(["worktree", "list"]));
    if (!parsed.success) return null;
    const hits = parsed.output.worktrees.filter((w) => selects(w, selector));
    const path = hits.length === 1 ? hits[0]!.path : undefined;
    return path?.startsWith("/") ? path : null;
  } catch (e) {
    if (e instanceof OrcaError) return null;
    throw e;
  }
}

/** --worktree (by itself, else through `worktree list`), else the reused terminal's worktree (`terminal show`). */
export async function worktreePath(orca: OrcaClient, worktree: string | undefined, handle: string | undefined): Promise<string | null> {
  const direct = absoluteWorktree(worktree);
  if (direct) return direct;
  if (worktree) return listedWorktreePath(orca, worktree);
  if (!handle) return null;
  try {
    return (await orca.terminalShow(handle)).worktreePath || null;
  } catch {
    return null;
  }
}
