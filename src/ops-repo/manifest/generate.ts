/**
 * MANIFEST.json for a template skeleton (reference §26, §30.5): the install paths an ops repository receives, the
 * frame-hygiene check that keeps authoring-repository paths out of them, and the staleness diff `--check` prints.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { walkFiles } from "../template/embed-render.ts";

export interface ManifestDoc {
  template_version: string;
  files: string[];
}

const EXCLUDED_FILES = new Set(["TEMPLATE-VERSION", "CHANGELOG.md", "ONBOARDING.md", ".coverage"]);
const EXCLUDED_PREFIXES = ["onboarding/", "docs/lineage/"];
const EXCLUDED_PARTS = new Set([".git", ".beads", ".pytest_cache", ".mypy_cache", ".ruff_cache", "build", "dist", "htmlcov", "__pycache__", "node_modules"]);

function isInstallPath(rel: string): boolean {
  if (EXCLUDED_FILES.has(rel)) return false;
  if (EXCLUDED_PREFIXES.some((p) => rel.startsWith(p))) return false;
  const parts = rel.split("/");
  if (parts.some((p) => EXCLUDED_PARTS.has(p) || p.endsWith(".egg-info"))) return false;
  return !(rel.endsWith(".pyc") || rel.endsWith(".pyo"));
}

/** Sorted install paths (plain string order), MANIFEST.json always included. */
export function installPaths(skeleton: string): string[] {
  const set = new Set(walkFiles(skeleton, new Set()).filter(isInstallPath));
  set.add("MANIFEST.json");
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// Built from pieces so this file itself never trips a hygiene grep over the source tree.
const FRAME_DIR = ["master", "ops/"].join("-");
const AUTHORING_REPO = ["mogui", "master", "ops"].join("-");

/** Defects: install paths whose bytes name the authoring frame (docs/blame/ is exempt: incident reports quote it). */
export function hygieneDefects(skeleton: string, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const rel of paths) {
    if (rel.startsWith("docs/blame/")) continue;
    let text: string;
    try {
      text = readFileSync(join(skeleton, rel), "latin1");
    } catch {
      continue; // MANIFEST.json before its first write
    }
    if (text.includes(FRAME_DIR)) out.push(`${rel}: contains '${FRAME_DIR}' (ADE-frame path leak)`);
    if (text.includes(AUTHORING_REPO)) out.push(`${rel}: contains authoring repository name '${AUTHORING_REPO}'`);
  }
  return out;
}

export function renderManifest(doc: ManifestDoc): string {
  return `${JSON.stringify({ template_version: doc.template_version, files: doc.files }, null, 2)}\n`;
}

/** The `--check` diagnostics between the committed manifest and a fresh one; empty when they agree. */
export function staleDiagnostics(committed: ManifestDoc, fresh: ManifestDoc): string[] {
  const out: string[] = [];
  const have = new Set(committed.files);
  const want = new Set(fresh.files);
  const missing = fresh.files.filter((f) => !have.has(f));
  const extra = committed.files.filter((f) => !want.has(f));
  if (missing.length) out.push(`  missing from committed: ${JSON.stringify(missing)}`);
  if (extra.length) out.push(`  extra in committed: ${JSON.stringify(extra)}`);
  if (!missing.length && !extra.length && committed.files.join("\n") !== fresh.files.join("\n")) {
    out.push("  files set matches but order differs");
  }
  if (committed.template_version !== fresh.template_version) {
    out.push(`  version '${committed.template_version}' -> '${fresh.template_version}'`);
  }
  return out;
}
