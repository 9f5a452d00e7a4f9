/**
 * Worktree and repo selectors (docs/orca-cli.md §4 "Selector grammar"). Folder workspaces answer to `id:folder:<uuid>`
 * (and path/name). A bare `folder:<uuid>` is accepted by `terminal create` only; `terminal list --worktree` and the
 * others miss with `selector_not_found`, the subcommand asymmetry measured on a real Orca (seed page 05).
 */
import { realpathSync } from "node:fs";
import { isAbsolute, resolve, sep } from "node:path";
import { SimError } from "./errors.ts";
import { folderWorkspaceId } from "./ids.ts";
import type { SimRepo, SimState } from "./types.ts";

export interface Workspace {
  id: string;
  /** The workspace directory (a folder workspace's terminals still report an empty worktreePath). */
  path: string;
  branch: string;
  displayName: string;
  kind: "git" | "folder";
}

const VALID_SELECTOR_FORMS = ["id:<repo-id>::<absolute-path>", "path:<absolute-path>", "name:<display-name>", "branch:<branch>", "identity:<identity-key>", "issue:<number>", "current", "active"];

export function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function workspaces(s: SimState): Workspace[] {
  const git: Workspace[] = s.worktrees.map((w) => ({ id: w.id, path: w.path, branch: w.branch, displayName: w.displayName, kind: "git" }));
  const folders: Workspace[] = s.repos.filter((r) => r.kind === "folder").map((r) => ({ id: folderWorkspaceId(r.id), path: r.path, branch: "", displayName: r.displayName, kind: "folder" }));
  return [...git, ...folders];
}

/** The deepest git worktree that contains `cwd` (how the CLI resolves `current`/`active`). */
export function worktreeAt(s: SimState, cwd: string): Workspace {
  const here = canonical(cwd);
  const hits = workspaces(s)
    .filter((w) => w.kind === "git")
    .filter((w) => {
      const p = canonical(w.path);
      return here === p || here.startsWith(p.endsWith(sep) ? p : p + sep);
    })
    .sort((a, b) => b.path.length - a.path.length);
  if (hits[0]) return hits[0];
  throw new SimError("selector_not_found", `No Orca-managed worktree contains the current directory: ${cwd}`, undefined, true);
}

export interface SelectorOptions {
  /** `terminal create` also takes a bare `folder:<uuid>`. */
  bareFolder?: boolean;
}

function matches(w: Workspace, sel: string, cwd: string, opts: SelectorOptions): boolean {
  if (opts.bareFolder && sel.startsWith("folder:")) return w.kind === "folder" && w.id === sel;
  const [kind, ...rest] = sel.split(":");
  const value = rest.join(":");
  const branchIs = (b: string) => w.kind === "git" && (w.branch === b || w.branch === `refs/heads/${b}`);
  switch (kind) {
    case "id":
      return w.id === value;
    case "path":
      return canonical(w.path) === canonical(resolve(cwd, value));
    case "name":
      return w.displayName === value;
    case "branch":
      return branchIs(value);
    case "identity":
    case "issue":
      return false;
    default:
      return w.kind === "git" && (w.id === sel || (isAbsolute(sel) && canonical(w.path) === canonical(sel)) || branchIs(sel));
  }
}

function notFound(s: SimState, sel: string): SimError {
  const suggestions: string[] = [];
  if (sel.startsWith("id:") && !sel.includes("::") && !sel.startsWith("id:folder:")) {
    for (const w of s.worktrees.filter((x) => x.repoId === sel.slice(3))) suggestions.push(`id:${w.id}`, `path:${w.path}`);
  }
  if (!sel.startsWith("id:") && sel.startsWith("folder:")) suggestions.push(`id:${sel}`);
  const nextSteps = [`No Orca workspace matched the worktree selector "${sel}". Use one of: ${VALID_SELECTOR_FORMS.join(", ")}.`, "Run 'orca worktree list --json' to see the workspaces Orca knows."];
  return new SimError("selector_not_found", `No Orca workspace matched the worktree selector "${sel}".`, { selector: sel, validSelectorForms: VALID_SELECTOR_FORMS, suggestions: suggestions.slice(0, 3), nextSteps }, true);
}

export function resolveWorktree(s: SimState, sel: string, cwd: string, opts: SelectorOptions = {}): Workspace {
  if (sel === "current" || sel === "active") return worktreeAt(s, cwd);
  const hits = workspaces(s).filter((w) => matches(w, sel, cwd, opts));
  if (hits.length === 1) return hits[0]!;
  if (hits.length === 0) throw notFound(s, sel);
  throw new SimError(
    "selector_ambiguous",
    `Worktree selector "${sel}" matched ${hits.length} workspaces.`,
    {
      selector: sel,
      matches: hits.map((h) => h.id),
      nextSteps: ["Use an id:<repo-id>::<absolute-path> or path:<absolute-path> selector."],
    },
    true,
  );
}

export function resolveRepo(s: SimState, sel: string): SimRepo {
  const [kind, ...rest] = sel.split(":");
  const value = rest.join(":");
  const hit = s.repos.find((r) => {
    if (kind === "id") return r.id === value;
    if (kind === "path") return canonical(r.path) === canonical(value);
    if (kind === "name") return r.displayName === value;
    return r.id === sel || r.displayName === sel || (isAbsolute(sel) && canonical(r.path) === canonical(sel));
  });
  if (!hit) throw new SimError("repo_not_found", `Repository not found: ${sel}`, { selector: sel, nextSteps: ["Run 'orca repo list --json'."] });
  return hit;
}
