/**
 * The rehearsal's P05 view of the workspace descriptor (reference §28.3): the §18 loader rules of
 * src/descriptor/descriptor.ts, with null `capabilities` tolerated as §28.3 allows. Messages name the field, never the
 * file (the row's evidence names it).
 */
import { descriptorFromObject, WorkspaceDescriptorError } from "../../evidence/descriptor/descriptor.ts";
import { errorMessage } from "../../lib/errors.ts";

export interface DescriptorFacts {
  workspaceRoot: string | null;
  repositories: number;
}

function tolerateNullCapabilities(r: unknown): unknown {
  if (!r || typeof r !== "object" || Array.isArray(r) || (r as Record<string, unknown>).capabilities !== null) return r;
  const { capabilities: _null, ...rest } = r as Record<string, unknown>;
  return rest;
}

export function validateDescriptor(text: string): DescriptorFacts {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new WorkspaceDescriptorError(`not valid JSON: ${errorMessage(e)}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new WorkspaceDescriptorError("root must be a JSON object");
  const o = raw as Record<string, unknown>;
  const d = descriptorFromObject(Array.isArray(o.repositories) ? { ...o, repositories: o.repositories.map(tolerateNullCapabilities) } : o);
  return { workspaceRoot: d.workspaceRoot, repositories: d.repositories.length };
}
