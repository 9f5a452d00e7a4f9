/**
 * The fixed vocabulary of the ops-repository template (reference §28): the closed placeholder set, the paths an
 * instance owns (never overwritten by an upgrade), the template-side files that never get installed, and the one
 * relative-path rule every reader and writer of a template path applies.
 */
import { lstatSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { within } from "../../lib/paths.ts";

/** The closed placeholder set; nothing else may appear between `{{` and `}}` in the template. */
export const PLACEHOLDERS = ["WORKSPACE_NAME", "WORKSPACE_ROOT", "OPS_REPO", "MONITOR_NS", "MODEL_ID", "REPO_LIST", "RUNTIME_ROOT", "TEMPLATE_VERSION"] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export function isPlaceholder(name: string): name is Placeholder {
  return (PLACEHOLDERS as readonly string[]).includes(name);
}

/** `{{NAME}}` tokens; `{{...}}` (three dots) is prose about placeholders, not a token. */
const PLACEHOLDER_TOKEN = /\{\{([^{}\n]*)\}\}/g;

export function placeholderTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER_TOKEN)) if (m[1] !== "...") out.push(m[1]!);
  return out;
}

const INSTANCE_PREFIXES = ["docs/lineage/", ".beads/", "config/", "contracts/"];
const INSTANCE_EXACT = new Set(["docs/runbooks/role-state.md"]);

/** Paths the instance owns: an upgrade never overwrites them (founding may seed a missing one). */
export function isInstanceOwned(rel: string): boolean {
  return INSTANCE_EXACT.has(rel) || INSTANCE_PREFIXES.some((p) => rel.startsWith(p));
}

/** Template-side files: read by onboarding from the template itself, never installed into an ops repository. */
const TEMPLATE_SIDE_FILES = new Set(["TEMPLATE-VERSION", "CHANGELOG.md", "ONBOARDING.md"]);

export function isTemplateSide(rel: string): boolean {
  return TEMPLATE_SIDE_FILES.has(rel) || rel.startsWith("onboarding/");
}

/** Why a manifest path is unusable, or null when it is a clean relative POSIX path. */
export function invalidRelPath(p: unknown): string | null {
  if (typeof p !== "string") return "path is not a string";
  if (p === "") return "path is empty";
  if (p.includes("\0")) return "path contains NUL";
  if (p.includes(":")) return "path contains ':'";
  if (p.includes("\\")) return "path contains a backslash";
  if (p.startsWith("/") || isAbsolute(p)) return "path is absolute";
  const parts = p.split("/");
  if (parts.includes("..")) return "path contains '..'";
  if (parts.some((s) => s === "" || s === ".")) return "path has an empty or '.' segment";
  return null;
}

/**
 * Why writing `rel` under `root` is unsafe, or null: the destination must stay inside the root, no existing
 * component on the way may be a symlink, and an existing destination must be a regular file.
 */
export function unsafeDestination(root: string, rel: string): string | null {
  const dest = resolve(root, rel);
  if (!within(root, dest) || dest === resolve(root)) return "destination escapes the ops root";
  const parts = rel.split("/");
  let cur = resolve(root);
  for (let i = 0; i < parts.length; i++) {
    cur = join(cur, parts[i]!);
    let st;
    try {
      st = lstatSync(cur);
    } catch {
      return null; // the rest does not exist yet: nothing to traverse
    }
    if (st.isSymbolicLink()) return i === parts.length - 1 ? "destination is a symlink" : `destination passes through a symlink (${parts.slice(0, i + 1).join("/")})`;
    if (i < parts.length - 1 && !st.isDirectory()) return `a parent of the destination is not a directory (${parts.slice(0, i + 1).join("/")})`;
    if (i === parts.length - 1 && !st.isFile()) return "destination exists but is not a regular file";
  }
  return null;
}
