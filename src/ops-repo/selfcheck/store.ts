/** The Orca profile store (orca-data.json): where folder workspaces map ids to folders. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import type { Env } from "../../lib/context.ts";

/** ORCA_DATA_PATH, else the platform default (macOS Application Support; Linux XDG config). */
export function orcaProfileStore(env: Env, platform: string = process.platform): string {
  if (env.ORCA_DATA_PATH) return env.ORCA_DATA_PATH;
  const home = env.HOME ?? "";
  const tail = ["orca", "profiles", "local-default", "orca-data.json"];
  if (platform === "darwin") return join(home, "Library", "Application Support", ...tail);
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), ...tail);
}

const Folder = v.looseObject({ id: v.string(), folderPath: v.string(), isArchived: v.optional(v.boolean(), false) });
export type FolderWorkspace = v.InferOutput<typeof Folder>;
const Store = v.looseObject({ folderWorkspaces: v.optional(v.array(v.unknown()), []) });

/** The store's folder workspaces (malformed entries skipped); null when the file is unreadable or not JSON. */
export function readFolderWorkspaces(path: string): FolderWorkspace[] | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  const s = v.safeParse(Store, raw);
  if (!s.success) return null;
  const out: FolderWorkspace[] = [];
  for (const f of s.output.folderWorkspaces) {
    const r = v.safeParse(Folder, f);
    if (r.success) out.push(r.output);
  }
  return out;
}
