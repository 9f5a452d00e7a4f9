/**
 * The workspace descriptor (reference §18, resolution per D2): which declared repository a path belongs to, and
 * whether an action is prohibited there. An unknown repository is prohibited by default (fail closed); there is no
 * basename or suffix matching, ever.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, normalize, relative, resolve } from "node:path";
import * as v from "valibot";
import { moguiHome, type Ctx } from "../../lib/context.ts";
import { dropUnderscoreKeys, issueLine } from "../../lib/config/issues.ts";
import { within } from "../../lib/paths.ts";
import { WorkspaceDescriptorSchema } from "./schema.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export const DESCRIPTOR_ENVS = ["WORKSPACE_DESCRIPTOR", "MOGUI_WORKSPACE_DESCRIPTOR"] as const;
const DESCRIPTOR_FILE = "config/workspace-descriptor.json";

export class WorkspaceDescriptorError extends Error {
  override name = "WorkspaceDescriptorError";
}

export interface RepositoryEntry {
  name: string;
  path: string;
  remote: string;
  role: "product" | "ops";
  capabilities: string[];
  prohibited: string[];
}

export interface WorkspaceDescriptor {
  workspaceRoot: string | null;
  masterSeat: string;
  repositories: RepositoryEntry[];
  /** null when no file exists: the descriptor is unconfigured. */
  sourcePath: string | null;
  configPath: string;
}

/** --config > $WORKSPACE_DESCRIPTOR > $MOGUI_WORKSPACE_DESCRIPTOR > $MOGUI_HOME/config/workspace-descriptor.json. */
export function descriptorPath(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): string {
  if (flag) return resolve(ctx.cwd, flag);
  for (const name of DESCRIPTOR_ENVS) {
    const val = ctx.env[name];
    if (val?.trim()) return resolve(ctx.cwd, val);
  }
  return resolve(moguiHome(ctx), DESCRIPTOR_FILE);
}

const stripSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);

export type DescriptorFields = Omit<WorkspaceDescriptor, "sourcePath" | "configPath">;

export function parseDescriptor(text: string, path: string): DescriptorFields {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new WorkspaceDescriptorError(`workspace descriptor is not valid JSON: ${path}: ${errorMessage(e)}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new WorkspaceDescriptorError(`workspace descriptor root must be a JSON object: ${path}`);
  return descriptorFromObject(raw as Record<string, unknown>, `workspace descriptor ${path}: `);
}

/** The §18 schema and duplicate rules on a parsed JSON object; each message is `prefix` + the field's own line. */
export function descriptorFromObject(raw: Record<string, unknown>, prefix = ""): DescriptorFields {
  const parsed = v.safeParse(WorkspaceDescriptorSchema, dropUnderscoreKeys(raw));
  if (!parsed.success) throw new WorkspaceDescriptorError(`${prefix}${issueLine(parsed.issues[0])}`);
  const o = parsed.output;
  const repositories = (o.repositories ?? []).map((r) => ({
    name: r.name.trim(),
    path: stripSlash(r.path.trim()),
    remote: r.remote ?? "",
    role: r.role,
    capabilities: [...(r.capabilities ?? [])] as string[],
    prohibited: [...r.prohibited] as string[],
  }));
  const names = new Set<string>();
  const paths = new Set<string>();
  for (const r of repositories) {
    if (names.has(r.name)) throw new WorkspaceDescriptorError(`${prefix}duplicate repository name '${r.name}'`);
    if (paths.has(r.path)) throw new WorkspaceDescriptorError(`${prefix}duplicate repository path '${r.path}'`);
    names.add(r.name);
    paths.add(r.path);
  }
  const root = o.workspace_root?.trim() ? o.workspace_root : null;
  return { workspaceRoot: root, masterSeat: o.master_seat ?? "", repositories };
}

export function loadDescriptor(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): WorkspaceDescriptor {
  const path = descriptorPath(ctx, flag);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ENOTDIR") return { workspaceRoot: null, masterSeat: "", repositories: [], sourcePath: null, configPath: path };
    throw new WorkspaceDescriptorError(`cannot read workspace descriptor: ${path}: ${code ?? errorMessage(e)}`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new WorkspaceDescriptorError(`workspace descriptor is not valid UTF-8: ${path}`);
  }
  return { ...parseDescriptor(text, path), sourcePath: path, configPath: path };
}

export function repositoryForPath(d: WorkspaceDescriptor, raw: string): RepositoryEntry | null {
  const p = raw.trim();
  if (!p) return null;
  let matches: RepositoryEntry[];
  if (isAbsolute(p)) {
    if (!d.workspaceRoot) return null;
    if (!within(d.workspaceRoot, p)) return null;
    const rel = relative(resolve(d.workspaceRoot), resolve(p));
    const key = rel === "" ? "." : rel;
    matches = d.repositories.filter((r) => normalize(r.path) === key);
  } else {
    const key = stripSlash(p);
    matches = d.repositories.filter((r) => r.path === key || normalize(r.path) === normalize(key));
    if (!matches.length && !key.includes("/") && key !== ".") matches = d.repositories.filter((r) => r.name === key);
  }
  if (matches.length > 1) throw new WorkspaceDescriptorError(`path '${raw}' matches multiple repository entries: ${matches.map((m) => m.name).join(", ")}`);
  return matches[0] ?? null;
}

export function isProhibited(d: WorkspaceDescriptor, path: string, action: string, defaultWhenUnknownRepo = true): { prohibited: boolean; repository: RepositoryEntry | null } {
  if (!action.trim()) throw new WorkspaceDescriptorError("action must be a non-empty string");
  const repository = repositoryForPath(d, path);
  if (!repository) return { prohibited: defaultWhenUnknownRepo, repository: null };
  return { prohibited: repository.prohibited.includes(action), repository };
}
