/** The workspace manifest (reference §16): the declared repositories of a workspace, by path and identity. */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import * as v from "valibot";
import { errnoCode } from "../../lib/errors.ts";

export class ManifestError extends Error {
  override name = "ManifestError";
}

interface DeclaredRepo {
  path: string;
  identity: string;
  metadata: Record<string, unknown>;
}

export interface WorkspaceManifest {
  workspaceRoot: string;
  workspaceIdentity: string;
  repositories: DeclaredRepo[];
  metadata: Record<string, unknown>;
}

const Obj = v.pipe(
  v.record(v.string(), v.unknown()),
  v.check((x) => !Array.isArray(x)),
);
const isObj = (x: unknown): x is Record<string, unknown> => v.is(Obj, x) && !Array.isArray(x);
const nonEmpty = (x: unknown): x is string => typeof x === "string" && x.trim() !== "";

function repository(raw: unknown): DeclaredRepo {
  if (!isObj(raw)) throw new ManifestError("repository entry must be an object");
  for (const k of ["path", "identity"]) if (!nonEmpty(raw[k])) throw new ManifestError(`manifest key '${k}' must be a non-empty string`);
  if (raw.metadata !== undefined && !isObj(raw.metadata)) throw new ManifestError("repository metadata must be an object");
  return { path: raw.path as string, identity: raw.identity as string, metadata: (raw.metadata as Record<string, unknown>) ?? {} };
}

export function parseManifest(raw: unknown, baseDir: string): WorkspaceManifest {
  if (!isObj(raw)) throw new ManifestError("manifest must be a JSON object");
  for (const k of ["workspace_root", "workspace_identity"]) if (!nonEmpty(raw[k])) throw new ManifestError(`manifest key '${k}' must be a non-empty string`);
  if (!Array.isArray(raw.repositories)) throw new ManifestError("manifest repositories must be a list");
  if (raw.metadata !== undefined && !isObj(raw.metadata)) throw new ManifestError("manifest metadata must be an object");
  const root = raw.workspace_root as string;
  return {
    workspaceRoot: isAbsolute(root) ? root : resolve(baseDir, root),
    workspaceIdentity: raw.workspace_identity as string,
    repositories: raw.repositories.map(repository),
    metadata: (raw.metadata as Record<string, unknown>) ?? {},
  };
}

export function loadManifest(path: string): WorkspaceManifest {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT") throw new ManifestError(`manifest file does not exist: ${path}`);
    throw new ManifestError(`cannot read manifest file: ${path}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ManifestError(`invalid manifest JSON: ${path}`);
  }
  return parseManifest(raw, dirname(resolve(path)));
}
