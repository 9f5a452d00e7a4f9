/**
 * Where a template comes from: the copy embedded in the binary (the default), or a directory on disk (a template
 * skeleton with MANIFEST.json or TEMPLATE-VERSION, or a clone root holding master-ops/).
 */
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { walkFiles } from "./embed-render.ts";
import { unsafeDestination } from "./paths.ts";
import { errorMessage } from "../../lib/errors.ts";

export interface TemplateSource {
  /** "embedded" or the absolute directory. */
  label: string;
  /** The directory on disk; null for the embedded copy. */
  root: string | null;
  list(): string[];
  /** The file's bytes; null when it is missing (or not a regular file on disk). */
  read(rel: string): Uint8Array | null;
  mode(rel: string): number | null;
}

export class TemplateSourceError extends Error {
  override name = "TemplateSourceError";
}

export async function embeddedTemplate(): Promise<TemplateSource> {
  const { EMBEDDED_TEMPLATE } = await import("./embedded.gen.ts");
  const byPath = new Map(EMBEDDED_TEMPLATE.map((f) => [f.path, f]));
  const enc = new TextEncoder();
  return {
    label: "embedded",
    root: null,
    list: () => [...byPath.keys()].sort(),
    read: (rel) => {
      const f = byPath.get(rel);
      return f ? enc.encode(f.text) : null;
    },
    mode: (rel) => byPath.get(rel)?.mode ?? null,
  };
}

export function diskTemplate(root: string): TemplateSource {
  // Like list(): a symlink anywhere on the way (a linked directory included) is not a template file, so nothing is
  // ever read from outside the template root.
  const regular = (rel: string) => {
    if (unsafeDestination(root, rel) !== null) return null;
    try {
      const st = lstatSync(join(root, rel));
      return st.isFile() ? st : null;
    } catch {
      return null;
    }
  };
  return {
    label: root,
    root,
    list: () => walkFiles(root),
    read: (rel) => {
      if (!regular(rel)) return null;
      try {
        return new Uint8Array(readFileSync(join(root, rel)));
      } catch {
        return null;
      }
    },
    mode: (rel) => {
      const st = regular(rel);
      return st ? st.mode & 0o777 : null;
    },
  };
}

function isSkeleton(dir: string): boolean {
  return existsSync(join(dir, "MANIFEST.json")) || existsSync(join(dir, "TEMPLATE-VERSION"));
}

/** `--template`: absent or "embedded" -> the binary's copy; else a skeleton dir or a clone root with master-ops/. */
async function resolveTemplate(cwd: string, flag: string | undefined): Promise<TemplateSource> {
  if (flag === undefined || flag === "embedded") return embeddedTemplate();
  const p = resolve(cwd, flag);
  let isDir = false;
  try {
    isDir = statSync(p).isDirectory();
  } catch {
    /* reported below */
  }
  if (isDir && isSkeleton(p)) return diskTemplate(p);
  if (isDir && isSkeleton(join(p, "master-ops"))) return diskTemplate(join(p, "master-ops"));
  throw new TemplateSourceError(`template path unreadable: ${p}`);
}

/** The --template flag of every command that reads the template (spread it and override the description). */
export const TEMPLATE_ARG = {
  type: "string",
  valueHint: "path",
  description: "Template skeleton or a clone holding master-ops/ (default: embedded)",
} as const;

/**
 * resolveTemplate for a command: an unreadable --template goes to `unreadable` (the command's own exit, which
 * prints `<command>: <message>`).
 */
export async function commandTemplate(cwd: string, flag: string | undefined, unreadable: (message: string) => never): Promise<TemplateSource> {
  try {
    return await resolveTemplate(cwd, flag);
  } catch (e) {
    if (e instanceof TemplateSourceError) return unreadable(e.message);
    throw e;
  }
}

const ManifestSchema = v.looseObject({ template_version: v.string(), files: v.array(v.unknown()) });
export type Manifest = v.InferOutput<typeof ManifestSchema>;

/** Parses MANIFEST.json bytes; throws TemplateSourceError naming what is wrong. */
export function parseManifest(bytes: Uint8Array, where: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    throw new TemplateSourceError(`${where}: not valid JSON: ${errorMessage(e)}`);
  }
  const r = v.safeParse(ManifestSchema, raw);
  if (!r.success) throw new TemplateSourceError(`${where}: ${v.summarize(r.issues).replace(/\n/g, "; ")}`);
  return r.output;
}

/** Strict UTF-8 (the reference's Python reads these as UTF-8 and fails on bad bytes): never U+FFFD silently. */
export function decode(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new TemplateSourceError(`${what} is not valid UTF-8`);
  }
}

/** The template's version: TEMPLATE-VERSION when present (it must be non-empty), else its manifest's. */
export function templateVersion(src: TemplateSource): string {
  const raw = src.read("TEMPLATE-VERSION");
  if (raw !== null) {
    const text = decode(raw, "template TEMPLATE-VERSION").trim();
    if (!text) throw new TemplateSourceError("template TEMPLATE-VERSION is empty");
    return text;
  }
  const m = src.read("MANIFEST.json");
  if (m === null) throw new TemplateSourceError("template has neither TEMPLATE-VERSION nor MANIFEST.json");
  return parseManifest(m, "template MANIFEST.json").template_version;
}
