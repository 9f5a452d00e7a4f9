/**
 * `template check` (reference §28.1): an ops repository against its own MANIFEST.json, or against a template (the
 * embedded one by default): files absent or unknown, symlinks, the installed vs template version, and the CHANGELOG
 * sections not adopted yet. Read-only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { adoptionNotes, type AdoptionNote } from "./changelog.ts";
import { walkFiles } from "./embed-render.ts";
import { invalidRelPath, isInstanceOwned, isPlaceholder, isTemplateSide, placeholderTokens } from "./paths.ts";
import { decode, parseManifest, templateVersion, type TemplateSource } from "./source.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export interface CheckReport {
  report_set: "install-manifest" | "template-compare";
  ops_root: string;
  template: string | null;
  installed_version: string | null;
  manifest_status: "ok" | "absent" | "malformed";
  absent_required: string[];
  unknown_present: string[];
  template_version: string | null;
  adoption_notes: AdoptionNote[];
  questions_unanswered: string[];
  invalid_paths: string[];
  /** `<path>: {{NAME}}` for every known placeholder token an installed .md/.json/.txt file still holds. */
  unfilled_placeholders: string[];
}

export interface CheckOutcome {
  report: CheckReport;
  /** 0 current, 1 drift or behind, 2 could not check. */
  code: 0 | 1 | 2;
}

const SKIP = new Set([".git", ".beads"]);

/** Regular files and symlinks under the ops root (relative POSIX paths), skipping .git/ and .beads/. */
export function scanOps(root: string): { files: string[]; symlinks: string[] } {
  const symlinks: string[] = [];
  const files = walkFiles(root, SKIP, symlinks);
  return { files, symlinks: symlinks.sort() };
}

function readOpsManifest(ops: string, report: CheckReport): string[] | null {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(join(ops, "MANIFEST.json")));
  } catch (e) {
    if (errnoCode(e) === "ENOENT") {
      report.manifest_status = "absent";
      report.questions_unanswered.push("installed version undeterminable (no MANIFEST.json); compare by content presence only");
      return null;
    }
    report.manifest_status = "malformed";
    report.questions_unanswered.push(`MANIFEST.json unreadable: ${errnoCode(e) ?? errorMessage(e)}`);
    return null;
  }
  try {
    const m = parseManifest(bytes, "MANIFEST.json");
    report.installed_version = m.template_version;
    return m.files.filter((f): f is string => invalidRelPath(f) === null);
  } catch (e) {
    report.manifest_status = "malformed";
    report.questions_unanswered.push(errorMessage(e));
    return null;
  }
}

/**
 * Placeholder tokens of the closed set left in the ops repository's text files (a write that skipped a value, or
 * a hand copy). Template-side files are not installed and legitimately name every placeholder; undecodable files
 * are onboarding-rehearsal's P02 business, not drift here.
 */
function unfilledInOps(ops: string, files: readonly string[]): string[] {
  const out: string[] = [];
  const dec = new TextDecoder("utf-8", { fatal: true });
  for (const f of files) {
    if (!/\.(md|json|txt)$/.test(f) || isTemplateSide(f)) continue;
    let text: string;
    try {
      text = dec.decode(readFileSync(join(ops, f)));
    } catch {
      continue;
    }
    if (!text.includes("{{")) continue;
    for (const name of new Set(placeholderTokens(text))) if (isPlaceholder(name)) out.push(`${f}: {{${name}}}`);
  }
  return out;
}

/** Template version, required set and adoption notes; returns false when the template could not be read. */
function compareTemplate(src: TemplateSource, report: CheckReport): { required: string[] | null; ok: boolean } {
  try {
    report.template_version = templateVersion(src);
  } catch (e) {
    report.questions_unanswered.push(`template VERSION unreadable: ${errorMessage(e)}`);
    return { required: null, ok: false };
  }
  let required: string[] | null = null;
  const m = src.read("MANIFEST.json");
  if (m !== null) {
    try {
      required = parseManifest(m, "template MANIFEST.json").files.filter((f): f is string => invalidRelPath(f) === null);
    } catch (e) {
      report.questions_unanswered.push(errorMessage(e));
      return { required: null, ok: false };
    }
  }
  // Decoded even when the versions agree: a CHANGELOG that cannot be read is an unreadable template either way.
  const log = src.read("CHANGELOG.md");
  if (log !== null) {
    try {
      const text = decode(log, "template CHANGELOG.md");
      if (report.installed_version !== report.template_version) report.adoption_notes = adoptionNotes(text, report.installed_version);
    } catch (e) {
      report.questions_unanswered.push(`template CHANGELOG unreadable: ${errorMessage(e)}`);
      return { required, ok: false };
    }
  }
  return { required, ok: true };
}

export function templateCheck(ops: string, src: TemplateSource | null): CheckOutcome {
  const report: CheckReport = {
    report_set: src ? "template-compare" : "install-manifest",
    ops_root: ops,
    template: src?.label ?? null,
    installed_version: null,
    manifest_status: "ok",
    absent_required: [],
    unknown_present: [],
    template_version: null,
    adoption_notes: [],
    questions_unanswered: [],
    invalid_paths: [],
    unfilled_placeholders: [],
  };
  const own = readOpsManifest(ops, report);
  if (report.manifest_status === "malformed") return { report, code: 2 };
  let required = own;
  if (src) {
    const t = compareTemplate(src, report);
    if (!t.ok) return { report, code: 2 };
    if (t.required) required = t.required;
  }
  const scan = scanOps(ops);
  report.invalid_paths = scan.symlinks;
  report.unfilled_placeholders = unfilledInOps(ops, scan.files);
  const present = new Set(scan.files);
  if (required) {
    const req = new Set(required);
    report.absent_required = required.filter((f) => !present.has(f)).sort();
    report.unknown_present = scan.files.filter((f) => !req.has(f) && f !== "MANIFEST.json" && !isInstanceOwned(f) && !isTemplateSide(f));
  }
  const drift =
    report.manifest_status !== "ok" ||
    report.absent_required.length > 0 ||
    report.unknown_present.length > 0 ||
    report.invalid_paths.length > 0 ||
    report.unfilled_placeholders.length > 0 ||
    (src !== null && report.installed_version !== report.template_version);
  return { report, code: drift ? 1 : 0 };
}

export function renderCheck(r: CheckReport, code: number): string[] {
  const list = (items: string[]) => items.map((i) => `  - ${i}`);
  const out = [
    `report_set: ${r.report_set}`,
    `ops: ${r.ops_root}`,
    `template: ${r.template ?? "(none; install manifest only)"}`,
    `manifest: ${r.manifest_status}`,
    `installed_version: ${r.installed_version ?? "(unknown)"}`,
    `template_version: ${r.template_version ?? "(not compared)"}`,
    `absent_required: ${r.absent_required.length}`,
    ...list(r.absent_required),
    `unknown_present: ${r.unknown_present.length}`,
    ...list(r.unknown_present),
    `invalid_paths: ${r.invalid_paths.length}`,
    ...list(r.invalid_paths),
    `unfilled_placeholders: ${r.unfilled_placeholders.length}`,
    ...list(r.unfilled_placeholders),
    `adoption_notes: ${r.adoption_notes.length} section(s)`,
  ];
  for (const n of r.adoption_notes) {
    out.push(
      `  ## ${n.version}`,
      ...n.body
        .split("\n")
        .slice(0, 8)
        .map((l) => `    ${l}`.trimEnd()),
    );
  }
  out.push(`questions_unanswered: ${r.questions_unanswered.length}`, ...list(r.questions_unanswered));
  out.push(`status: ${code === 0 ? "current (no drift)" : code === 1 ? "drift or behind" : "could not check"}`);
  return out;
}
