/** Parsing a `terminal create` reply and the worktree / title match rules of §5.8. */
import { realpathSync } from "node:fs";
import { envelopeMessage } from "./sessions.ts";
import { SpawnFailure, type SpawnFailureKind } from "./errors.ts";

export const SELECTOR_HINT = ". Accepted selector forms are full id:<repoId>::<path>, id:folder:<uuid> for folder workspaces; path: is matched by resolved directory.";

const HANDLE_KEYS = ["handle", "terminal", "terminalHandle"] as const;

export interface Created {
  handle: string;
  worktreeId: string;
}

/** A parse failure that still names the handle it could sniff, so cleanup can try to close what was created. */
export class SpawnParseError extends SpawnFailure {
  constructor(
    message: string,
    kind: SpawnFailureKind,
    readonly sniffedHandle: string | null,
  ) {
    super(message, kind);
  }
}

function sniffHandle(raw: string): string | null {
  const m = /"(?:handle|terminal|terminalHandle)"\s*:\s*"([^"]+)"/.exec(raw);
  return m ? m[1]! : null;
}

const isObj = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === "object" && !Array.isArray(v);
const hasHandleKey = (o: Record<string, unknown>) => HANDLE_KEYS.some((k) => typeof o[k] === "string" && o[k] !== "");

function terminalObject(root: Record<string, unknown>): Record<string, unknown> | undefined {
  const result = root.result;
  if (isObj(result)) {
    if (isObj(result.terminal)) return result.terminal;
    if (Array.isArray(result.terminals) && result.terminals.length === 1 && isObj(result.terminals[0])) return result.terminals[0];
    if (hasHandleKey(result)) return result;
  }
  if (hasHandleKey(root)) return root;
  return undefined;
}

export function parseCreated(raw: string): Created {
  const sniffed = sniffHandle(raw);
  const fail = (msg: string, kind: SpawnFailureKind = "parseError") => new SpawnParseError(msg, kind, sniffed);
  let j: unknown;
  try {
    j = JSON.parse(raw);
  } catch {
    throw fail("invalid spawn JSON");
  }
  if (!isObj(j)) throw fail("spawn JSON root must be an object");
  if (j.ok === false) throw fail(`spawn orca error: ${envelopeMessage(j)}`, "createError");
  const t = terminalObject(j);
  if (!t) throw fail("spawn JSON missing created terminal");
  const handle = HANDLE_KEYS.map((k) => t[k]).find((v): v is string => typeof v === "string" && v !== "");
  if (!handle) throw fail("spawn JSON missing handle");
  const wt = t.worktreeId;
  if (typeof wt !== "string" || wt === "") throw new SpawnParseError("spawn JSON missing worktreeId", "parseError", handle);
  return { handle, worktreeId: wt };
}

function real(p: string): string {
  try {
    if (p.includes("\0")) throw new Error("NUL");
    return realpathSync(p);
  } catch {
    return p.replace(/\/+$/, "");
  }
}

/** Exact, or equal after stripping `id:`, or a `path:` request whose directory resolves to the reply's path. */
export function worktreesMatch(actual: string | null | undefined, requested: string | null | undefined): boolean {
  if (!actual || !requested) return false;
  if (actual === requested) return true;
  const strip = (s: string) => (s.startsWith("id:") ? s.slice(3) : s);
  if (strip(actual) === strip(requested)) return true;
  if (!requested.startsWith("path:")) return false;
  const sep = strip(actual).indexOf("::");
  if (sep < 0) return false;
  const actualPath = strip(actual).slice(sep + 2);
  const requestedPath = requested.slice(5);
  if (!actualPath || !requestedPath) return false;
  return real(actualPath) === real(requestedPath);
}

/** The pane title with spinner glyphs (leading non-alphanumerics) stripped must EQUAL the requested title. */
export function titleMatches(sessionTitle: string | null | undefined, requested: string): boolean {
  const want = requested.trim();
  if (!want || !sessionTitle) return false;
  return sessionTitle.replace(/^[^\p{L}\p{N}]+/u, "").trim() === want;
}
