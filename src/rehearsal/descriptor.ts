/**
 * The workspace-descriptor loader rules of reference §18, as the rehearsal's P05 needs them: is the file a valid
 * descriptor, and which workspace_root does it declare. (The full resolver and `workspace-descriptor-check` live
 * with the evidence family; this stays a read-only validity check.)
 */
export class DescriptorError extends Error {
  override name = "DescriptorError";
}

function strArray(v: unknown, field: string, required: boolean): void {
  if (v === undefined || v === null) {
    if (required) throw new DescriptorError(`${field} is required (a JSON array, may be empty): missing prohibited list`);
    return;
  }
  if (!Array.isArray(v)) throw new DescriptorError(`${field} must be a JSON array of strings`);
  if (v.some((x) => typeof x !== "string" || x.trim() === "")) throw new DescriptorError(`${field} entries must be non-empty strings`);
}

function repo(r: unknown, i: number, names: Set<string>, paths: Set<string>): void {
  if (!r || typeof r !== "object" || Array.isArray(r)) throw new DescriptorError(`repositories[${i}] must be a JSON object`);
  const o = r as Record<string, unknown>;
  for (const k of ["name", "path", "role"]) {
    if (typeof o[k] !== "string" || (o[k] as string).trim() === "") throw new DescriptorError(`repositories[${i}].${k} must be a non-empty string`);
  }
  if (o.role !== "ops" && o.role !== "product") throw new DescriptorError(`repositories[${i}].role must be one of ['ops', 'product'], got '${String(o.role)}'`);
  if (o.remote !== undefined && o.remote !== null && typeof o.remote !== "string") throw new DescriptorError(`repositories[${i}].remote must be a string`);
  strArray(o.capabilities, `repositories[${i}].capabilities`, false);
  strArray(o.prohibited, `repositories[${i}].prohibited`, true);
  const path = (o.path as string).replace(/\/+$/, "") || "/";
  if (paths.has(path)) throw new DescriptorError(`duplicate repository path '${path}'`);
  if (names.has(o.name as string)) throw new DescriptorError(`duplicate repository name '${String(o.name)}'`);
  paths.add(path);
  names.add(o.name as string);
}

export interface DescriptorFacts {
  workspaceRoot: string | null;
  repositories: number;
}

export function validateDescriptor(text: string): DescriptorFacts {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DescriptorError(`not valid JSON: ${(e as Error).message}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new DescriptorError("root must be a JSON object");
  const o = Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([k]) => !k.startsWith("_")));
  const plain = o.workspace_root_is_plain_folder ?? true;
  if (typeof plain !== "boolean") throw new DescriptorError("workspace_root_is_plain_folder must be a boolean");
  if (!plain) throw new DescriptorError("workspace_root_is_plain_folder must be true: this runtime rejects submodule parents and non-plain workspace roots");
  if (o.master_seat !== undefined && o.master_seat !== null && typeof o.master_seat !== "string") throw new DescriptorError("master_seat must be a string");
  const root = o.workspace_root;
  if (root !== undefined && root !== null && typeof root !== "string") throw new DescriptorError("workspace_root must be a string or null");
  const repos = o.repositories ?? [];
  if (!Array.isArray(repos)) throw new DescriptorError("repositories must be a JSON array");
  const names = new Set<string>();
  const paths = new Set<string>();
  repos.forEach((r, i) => repo(r, i, names, paths));
  return { workspaceRoot: typeof root === "string" && root.trim() ? root : null, repositories: repos.length };
}
