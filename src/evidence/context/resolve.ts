/**
 * The filesystem context resolver (reference §16). It never scans recursively: it looks only at the declared
 * repository paths, the workspace root's immediate children and the queried path's ancestors inside the root. A
 * `.git` FILE is identified by its first 7 bytes (`gitdir:`); the rest of it is never read.
 */
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { expandHome } from "../../lib/paths.ts";
import { ManifestError, type WorkspaceManifest } from "./manifest.ts";
import { errorMessage } from "../../lib/errors.ts";

type ContextKind = "folder" | "git-repo" | "git-worktree" | "multi-repo-workspace" | "nested-repo";
type RepoStatus = "declared+observed" | "declared-missing" | "observed-undeclared";
type Marker = "git-repo" | "git-worktree";

interface RepoEntry {
  path: string;
  identity: string;
  status: RepoStatus;
}

export interface ContextDescriptor {
  kind: ContextKind;
  resolvedPath: string;
  workspaceIdentity: string;
  repositoryIdentity: string | null;
  repoSet: RepoEntry[];
  capabilities: { gitRepo: boolean };
  warnings: string[];
}

/** expanduser + resolve, following symlinks for the part of the path that exists (like Path.resolve(strict=False)). */
function normalizePath(p: string, home = homedir()): string {
  const abs = resolve(expandHome({ env: { HOME: home } }, p));
  const rest: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return abs;
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

export function gitMarker(dir: string): Marker | null {
  const dotgit = join(dir, ".git");
  let st;
  try {
    st = statSync(dotgit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return "git-repo";
  if (!st.isFile()) return null;
  const buf = Buffer.alloc(7);
  let fd: number | undefined;
  try {
    fd = openSync(dotgit, "r");
    const n = readSync(fd, buf, 0, 7, 0);
    return buf.subarray(0, n).toString("utf8") === "gitdir:" ? "git-worktree" : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const inside = (outer: string, p: string) => p === outer || p.startsWith(outer.endsWith(sep) ? outer : outer + sep);
const relPosix = (root: string, p: string) => relative(root, p).split(sep).join("/") || ".";

function candidates(root: string, query: string, declared: readonly string[], warnings: string[]): Set<string> {
  const out = new Set<string>([root, ...declared]);
  try {
    for (const e of readdirSync(root, { withFileTypes: true })) if (e.isDirectory()) out.add(join(root, e.name));
  } catch (e) {
    warnings.push(`Could not list workspace children: ${root}: ${errorMessage(e)}`);
  }
  if (inside(root, query))
    for (let cur = query; inside(root, cur); cur = dirname(cur)) {
      out.add(cur);
      if (cur === root) break;
    }
  return out;
}

function declaredMap(m: WorkspaceManifest, root: string, home: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of m.repositories) {
    const abs = normalizePath(resolve(root, r.path), home);
    const prev = out.get(abs);
    if (prev !== undefined && prev !== r.identity) throw new ManifestError(`repository path collision after normalization: ${abs} (${prev}, ${r.identity})`);
    out.set(abs, r.identity);
  }
  return out;
}

export function resolveContext(path: string, m: WorkspaceManifest, home = homedir()): ContextDescriptor {
  if (!m.workspaceIdentity.trim()) throw new ManifestError("workspace_identity must be a non-empty string");
  const root = normalizePath(m.workspaceRoot, home);
  const query = normalizePath(path, home);
  const declared = declaredMap(m, root, home);
  const warnings: string[] = [];
  const markers = new Map<string, Marker>();
  for (const c of candidates(root, query, [...declared.keys()], warnings)) {
    const mk = gitMarker(c);
    if (mk) markers.set(c, mk);
  }
  const repoSet: RepoEntry[] = [];
  const identities = new Map<string, string>();
  for (const [abs, identity] of declared) {
    const status: RepoStatus = markers.has(abs) ? "declared+observed" : "declared-missing";
    if (status === "declared-missing") warnings.push(`Declared repository missing on disk: ${abs}`);
    else identities.set(abs, identity);
    repoSet.push({ path: abs, identity, status });
  }
  for (const abs of markers.keys()) {
    if (declared.has(abs)) continue;
    const identity = `observed:${relPosix(root, abs)}`;
    identities.set(abs, identity);
    repoSet.push({ path: abs, identity, status: "observed-undeclared" });
    warnings.push(`Observed undeclared repository: ${relPosix(root, abs)}`);
  }
  repoSet.sort((a, b) => (a.path === b.path ? a.identity.localeCompare(b.identity) : a.path < b.path ? -1 : 1));
  warnings.sort();
  const containing = [...identities.keys()].filter((r) => inside(r, query)).sort((a, b) => b.length - a.length);
  const match = containing[0];
  let kind: ContextKind;
  if (match === undefined) kind = query === root ? "multi-repo-workspace" : "folder";
  else if (containing.length > 1) {
    kind = "nested-repo";
    warnings.push(`Nested repository ${match} inside enclosing repository ${containing[1]}`);
  } else kind = markers.get(match)!;
  return {
    kind,
    resolvedPath: query,
    workspaceIdentity: m.workspaceIdentity,
    repositoryIdentity: match === undefined ? null : identities.get(match)!,
    repoSet,
    capabilities: { gitRepo: match !== undefined },
    warnings,
  };
}

export function descriptorDict(d: ContextDescriptor): Record<string, unknown> {
  return {
    kind: d.kind,
    resolved_path: d.resolvedPath,
    workspace_identity: d.workspaceIdentity,
    repository_identity: d.repositoryIdentity,
    repo_set: d.repoSet.map((r) => ({ path: r.path, identity: r.identity, status: r.status })),
    capabilities: { git_repo: d.capabilities.gitRepo },
    warnings: [...d.warnings],
  };
}
