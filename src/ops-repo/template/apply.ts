/**
 * `template apply` (reference §28.2): plan which template files an ops repository receives, then (after a typed
 * confirmation) write them atomically with the placeholders substituted. Instance-owned paths are never
 * overwritten; a missing one is seeded once (founding). Every destination is re-checked right before its write.
 */
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { atomicWrite } from "../../lib/fs.ts";
import { invalidRelPath, isInstanceOwned, isTemplateSide, placeholderTokens, unsafeDestination, type Placeholder } from "./paths.ts";
import { within } from "../../lib/paths.ts";
import { parseManifest, templateVersion, type TemplateSourceError, type TemplateSource } from "./source.ts";

type Action = "planned" | "skipped-as-instance-owned" | "refused-not-in-manifest" | "error-invalid-path" | "error-missing-template-file";

interface PlanEntry {
  path: string;
  action: Action;
  reason: string;
}

export interface Plan {
  entries: PlanEntry[];
  /** Planned entries that only seed a missing instance-owned file. */
  seeds: Set<string>;
  templateVersion: string;
}

export class ApplySetupError extends Error {
  override name = "ApplySetupError";
}

function overlapCheck(ops: string, src: TemplateSource): void {
  if (!src.root) return;
  const a = realpathSync(ops);
  const b = realpathSync(src.root);
  if (within(a, b) || within(b, a)) throw new ApplySetupError("template and ops roots must be distinct and non-overlapping");
}

function entryFor(ops: string, src: TemplateSource, rel: unknown, inManifest: boolean): { e: PlanEntry; seed: boolean } {
  const bad = invalidRelPath(rel);
  if (bad) return { e: { path: String(rel), action: "error-invalid-path", reason: bad }, seed: false };
  const path = rel as string;
  const unsafe = unsafeDestination(ops, path);
  if (unsafe) return { e: { path, action: "error-invalid-path", reason: unsafe }, seed: false };
  const exists = (() => {
    try {
      lstatSync(join(ops, path));
      return true;
    } catch {
      return false;
    }
  })();
  if (isInstanceOwned(path)) {
    if (exists || src.read(path) === null) return { e: { path, action: "skipped-as-instance-owned", reason: "instance-owned path; never overwritten by the template" }, seed: false };
    return { e: { path, action: "planned", reason: "instance-owned path; would seed missing file (never overwritten)" }, seed: true };
  }
  if (src.read(path) === null) return { e: { path, action: "error-missing-template-file", reason: "the manifest lists it but the template has no such regular file" }, seed: false };
  const how = exists ? "would overwrite existing file" : "would create missing file";
  return { e: { path, action: "planned", reason: `template-layer path; ${how}${inManifest ? "" : " (not in manifest)"}` }, seed: false };
}

export function planApply(ops: string, src: TemplateSource, attempts: readonly string[] = []): Plan {
  overlapCheck(ops, src);
  const raw = src.read("MANIFEST.json");
  if (raw === null) throw new ApplySetupError("template has no MANIFEST.json");
  let files: unknown[];
  let version: string;
  try {
    files = parseManifest(raw, "template MANIFEST.json").files;
    version = templateVersion(src);
  } catch (e) {
    throw new ApplySetupError((e as TemplateSourceError).message);
  }
  const listed = new Set(files.filter((f): f is string => typeof f === "string"));
  // Instance-owned files the template ships but the manifest excludes (docs/lineage/) are founding seeds.
  const seedsOnly = src.list().filter((f) => isInstanceOwned(f) && !listed.has(f) && !isTemplateSide(f));
  const entries: PlanEntry[] = [];
  const seeds = new Set<string>();
  const candidates: [unknown, boolean][] = [...files.map((f) => [f, true] as [unknown, boolean]), ...seedsOnly.map((f) => [f, false] as [unknown, boolean])];
  candidates.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));
  const seen = new Set<string>();
  for (const [rel, inManifest] of candidates) {
    if (seen.has(String(rel))) continue;
    seen.add(String(rel));
    const { e, seed } = entryFor(ops, src, rel, inManifest);
    entries.push(e);
    if (seed) seeds.add(e.path);
  }
  for (const a of attempts) {
    if (!seen.has(a)) entries.push({ path: a, action: "refused-not-in-manifest", reason: "not a template path in the manifest" });
  }
  return { entries, seeds, templateVersion: version };
}

export function substitute(bytes: Uint8Array, values: Partial<Record<Placeholder, string>>): Uint8Array {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes; // not text: copied as is
  }
  for (const [k, val] of Object.entries(values)) text = text.split(`{{${k}}}`).join(val);
  return new TextEncoder().encode(text);
}

/** TEMPLATE_VERSION is always known: the template's own version unless given. */
function withDefaults(plan: Plan, values: Partial<Record<Placeholder, string>>): Partial<Record<Placeholder, string>> {
  return { TEMPLATE_VERSION: plan.templateVersion, ...values };
}

export interface Unfilled {
  path: string;
  /** The token as written, `{{NAME}}`. */
  token: string;
}

/**
 * The `{{NAME}}` tokens each planned file would still hold after substitution (per file, in order of first
 * appearance). Binary files are copied as they are and never scanned; `{{...}}` is prose, not a token.
 */
export function unfilledPlaceholders(src: TemplateSource, plan: Plan, given: Partial<Record<Placeholder, string>>): Unfilled[] {
  const values = withDefaults(plan, given);
  const out: Unfilled[] = [];
  const dec = new TextDecoder("utf-8", { fatal: true });
  for (const e of plan.entries) {
    if (e.action !== "planned") continue;
    const raw = src.read(e.path);
    if (raw === null) continue;
    let text: string;
    try {
      text = dec.decode(substitute(raw, values));
    } catch {
      continue;
    }
    for (const name of new Set(placeholderTokens(text))) out.push({ path: e.path, token: `{{${name}}}` });
  }
  return out;
}

export interface Written {
  path: string;
  action: "written" | "skipped-existing-seed";
  reason: string;
}

/** Writes every planned entry. Throws ApplySetupError (nothing written) when a destination became unsafe. */
export function writePlan(ops: string, src: TemplateSource, plan: Plan, given: Partial<Record<Placeholder, string>>): Written[] {
  const values = withDefaults(plan, given);
  const planned = plan.entries.filter((e) => e.action === "planned");
  for (const e of planned) {
    const why = unsafeDestination(ops, e.path);
    if (why) throw new ApplySetupError(`write aborted before any write: ${e.path}: ${why}`);
  }
  const out: Written[] = [];
  for (const e of planned) {
    const dest = resolve(ops, e.path);
    mkdirSync(dirname(dest), { recursive: true });
    const why = unsafeDestination(ops, e.path);
    if (why) throw new ApplySetupError(`write aborted at ${e.path}: ${why} (${out.length} file(s) already written)`);
    let existing: number | null = null;
    try {
      existing = lstatSync(dest).mode & 0o777;
    } catch {
      /* new file */
    }
    if (plan.seeds.has(e.path) && existing !== null) {
      out.push({ path: e.path, action: "skipped-existing-seed", reason: "instance-owned file appeared; left as is" });
      continue;
    }
    const data = substitute(src.read(e.path)!, values);
    atomicWrite(dest, data, existing ?? src.mode(e.path) ?? 0o644, ".template-apply-");
    const reason = plan.seeds.has(e.path) ? "seeded instance-owned file" : existing === null ? "created missing file" : "overwrote existing file";
    out.push({ path: e.path, action: "written", reason });
  }
  return out;
}
