/**
 * `cursor-worker-pretrust` (reference §25): write Cursor's per-project trust marker
 * `<projects>/<key>/.workspace-trusted` for a worktree, so a dispatched `cursor-agent` starts without a trust
 * prompt. Existing markers are parsed (JSON) before anything is changed; a marker for another workspace is never
 * overwritten; no symlink is followed anywhere on the marker path.
 */
import { closeSync, constants, mkdirSync, openSync, readSync, statSync, fstatSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { errnoText, lstatOrNull, PretrustError, summaryLine, type PretrustResult, type Tally } from "./common.ts";
import { atomicWrite } from "../../lib/fs.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

const CURSOR_USAGE = "Usage: cursor-worker-pretrust <worktree-path> [--projects-dir <dir>]";
const MARKER_NAME = ".workspace-trusted";

/** `/tmp/.orca/worktrees/repo/feature.with.dot` -> `tmp-orca-worktrees-repo-featurewithdot`. */
export function cursorProjectKey(path: string): string {
  return path.replace(/^\//, "").replaceAll("/", "-").replaceAll(".", "");
}

export function cursorProjectsDir(ctx: Pick<Ctx, "env" | "cwd">, flag?: string): string {
  if (flag) return resolve(ctx.cwd, flag);
  const env = ctx.env.CURSOR_PROJECTS_DIR;
  if (env) return resolve(ctx.cwd, env);
  return join(ctx.env.HOME || homedir(), ".cursor", "projects");
}

/**
 * Python's json.dumps(indent=2) with its default ensure_ascii (everything outside space..tilde escaped, DEL
 * included), so markers written by either tool compare equal.
 */
export function pythonJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const symlinkError = (p: string) => new PretrustError(`ERROR trust marker path must not use symlinks: ${p}`);

/** `/a/b/c` -> `/a`, `/a/b`, `/a/b/c` (trailing slashes and `//` normalised). */
function prefixes(path: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (const part of path.split("/")) if (part !== "") out.push((cur = `${cur}/${part}`));
  return out;
}

/**
 * Every component of `path` from `/` down: a symlinked ANCESTOR of the projects directory redirects the write just
 * as a symlinked projects directory does, so each one is refused.
 */
function refuseSymlinkComponents(path: string): void {
  for (const cur of prefixes(path)) {
    const st = lstatOrNull(cur);
    if (st === null) return; // the rest does not exist yet
    if (st.isSymbolicLink()) throw symlinkError(cur);
  }
}

/** mkdir -p one component at a time, never through a symlink (each component is lstat'ed right after). */
function mkdirNoFollow(dir: string): void {
  for (const cur of prefixes(dir)) {
    let st = lstatOrNull(cur);
    if (st === null) {
      try {
        mkdirSync(cur, { mode: 0o755 });
      } catch (e) {
        if (errnoCode(e) !== "EEXIST") throw new PretrustError(`ERROR cannot create ${cur}: ${errnoText(e)}`);
      }
      st = lstatOrNull(cur);
    }
    if (st?.isSymbolicLink()) throw symlinkError(cur);
    if (!st?.isDirectory()) throw new PretrustError(`ERROR ${cur} is not a directory`);
  }
}

function readNoFollow(marker: string): Buffer {
  const fd = openSync(marker, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!fstatSync(fd).isFile()) throw new PretrustError(`ERROR ${marker}: trust marker is not a regular file`);
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

function decodeMarker(marker: string, bytes: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    throw new PretrustError(`ERROR ${marker}: cannot decode trust marker as UTF-8: ${errorMessage(e)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new PretrustError(`ERROR ${marker}: cannot parse trust marker JSON: ${errorMessage(e)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new PretrustError(`ERROR ${marker}: trust marker is not a JSON object`);
  return value as Record<string, unknown>;
}

type MarkerOutcome = "added" | "updated" | "already";

function trustMarker(marker: string, worktree: string, nowMs: number): MarkerOutcome {
  const trustedAt = new Date(nowMs).toISOString();
  const write = (obj: Record<string, unknown>) => atomicWrite(marker, Buffer.from(`${pythonJson(obj)}\n`), 0o644);
  const st = lstatOrNull(marker);
  if (st === null) {
    write({ trustedAt, workspacePath: worktree });
    return "added";
  }
  if (!st.isFile()) throw new PretrustError(`ERROR ${marker}: trust marker is not a regular file`);
  const bytes = readNoFollow(marker);
  const obj = decodeMarker(marker, bytes);
  const ws = obj.workspacePath;
  if (ws !== undefined && ws !== null && ws !== worktree) {
    throw new PretrustError(`ERROR ${marker}: workspacePath mismatch in existing trust marker; refusing to overwrite '${String(ws)}' with '${worktree}'`);
  }
  const validAt = typeof obj.trustedAt === "string" && obj.trustedAt !== "";
  if (ws === worktree && validAt) return "already";
  const next = { ...obj, workspacePath: worktree, trustedAt: validAt ? obj.trustedAt : trustedAt };
  const data = Buffer.from(`${pythonJson(next)}\n`);
  if (data.equals(bytes)) return "already";
  atomicWrite(marker, data, 0o644);
  return "updated";
}

export interface CursorRequest {
  worktree: string;
  projectsDir?: string;
}

export function cursorPretrust(ctx: Pick<Ctx, "env" | "cwd" | "now">, req: CursorRequest): PretrustResult {
  const path = req.worktree;
  if (!isAbsolute(path)) throw new PretrustError(`ERROR worktree path must be absolute: ${path}\n${CURSOR_USAGE}`);
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new PretrustError(`ERROR worktree path does not exist: ${path}`);
  const projects = cursorProjectsDir(ctx, req.projectsDir);
  const key = cursorProjectKey(path);
  if (!key) throw new PretrustError(`ERROR could not derive a project key from path: ${path}`);
  const projectDir = join(projects, key);
  const marker = join(projectDir, MARKER_NAME);
  refuseSymlinkComponents(marker);
  mkdirNoFollow(projectDir);
  let outcome: MarkerOutcome;
  try {
    outcome = trustMarker(marker, path, ctx.now());
  } catch (e) {
    if (e instanceof PretrustError) throw e;
    const code = errnoCode(e);
    if (code === "ELOOP") throw new PretrustError(`ERROR trust marker path must not use symlinks: ${marker}`);
    throw new PretrustError(`ERROR ${marker}: ${errnoText(e)}`);
  }
  const tally: Tally = { added: outcome === "added" ? 1 : 0, updated: outcome === "updated" ? 1 : 0, already: outcome === "already" ? 1 : 0 };
  const label = outcome === "already" ? "already trusted" : `trusted (${outcome})`;
  return { lines: [`${marker}: ${label}`, summaryLine(tally)], tally };
}
