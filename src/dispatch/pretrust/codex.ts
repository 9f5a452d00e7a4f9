/**
 * `codex-worker-pretrust` (reference §24): mark a worktree `trust_level = "trusted"` in every Codex account's
 * `config.toml` under Orca's codex-accounts directory, so a dispatched Codex worker starts without a trust prompt.
 *
 * Edits are byte-preserving: the new bytes are the old ones plus one appended table, one inserted line or one
 * rewritten `trust_level =` line. Every candidate edit is re-parsed and accepted only when the document equals the
 * original plus `trust_level = "trusted"` for this project; exactly one candidate must pass (so table-like text in a
 * multi-line string is never edited). Nothing is written unless every config could be planned.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { parseToml } from "../../lib/toml.ts";
import { errnoText, hasLineBreak, lstatOrNull, PretrustError, summaryLine, type PretrustResult, type Tally } from "./common.ts";
import { atomicWrite } from "../../lib/fs.ts";
import { errorMessage } from "../../lib/errors.ts";

const CODEX_USAGE = "Usage: codex-worker-pretrust <worktree-path> [--accounts-dir <dir>]";

type Table = Record<string, unknown>;

export function codexAccountsDir(ctx: Pick<Ctx, "env" | "cwd">, flag?: string, platform: string = process.platform): string {
  if (flag) return resolve(ctx.cwd, flag);
  const env = ctx.env.CODEX_ACCOUNTS_DIR;
  if (env) return resolve(ctx.cwd, env);
  const home = ctx.env.HOME || homedir();
  if (platform === "darwin") return join(home, "Library", "Application Support", "orca", "codex-accounts");
  return join(home, ".local", "share", "orca", "codex-accounts");
}

/** `[projects."<path>"]` with `\` and `"` escaped as a TOML basic string. */
export function projectHeader(path: string): string {
  return `[projects."${path.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`;
}

function isTable(v: unknown): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date) && [Object.prototype, null].includes(Object.getPrototypeOf(v));
}

function tryParse(text: string): Table | undefined {
  try {
    return parseToml(text);
  } catch {
    return undefined;
  }
}

/** Lines with their own endings kept, so a rewrite can put every byte it does not touch back in place. */
function splitKeepEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function eolOf(line: string, fallback: string): string {
  if (line.endsWith("\r\n")) return "\r\n";
  if (line.endsWith("\n")) return "\n";
  return fallback;
}

function body(line: string): string {
  return line.replace(/\r?\n$/, "");
}

type Kind = "added" | "updated";

/** Every candidate text for this edit kind (verification picks among them). */
function candidates(text: string, path: string, kind: "append" | "insert" | "rewrite"): string[] {
  const header = projectHeader(path);
  if (kind === "append") return [`${text}\n${header}\ntrust_level = "trusted"\n`];
  const lines = splitKeepEnds(text);
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (kind === "insert" && body(line).trim() === header) {
      const eol = eolOf(line, nl);
      const head = line.endsWith("\n") ? line : `${line}${eol}`;
      out.push([...lines.slice(0, i), head, `trust_level = "trusted"${eol}`, ...lines.slice(i + 1)].join(""));
    }
    const m = /^([ \t]*)trust_level[ \t]*=/.exec(line);
    if (kind === "rewrite" && m) {
      const eol = line.endsWith("\n") ? eolOf(line, nl) : "";
      out.push([...lines.slice(0, i), `${m[1]}trust_level = "trusted"${eol}`, ...lines.slice(i + 1)].join(""));
    }
  });
  return out;
}

interface Plan {
  config: string;
  outcome: Kind | "already";
  data?: Buffer;
  mode?: number;
}

function planConfig(config: string, path: string): Plan {
  const st = lstatOrNull(config);
  if (st?.isSymbolicLink()) throw new PretrustError(`ERROR ${config}: refusing to edit a symlinked config (edit its target instead)`);
  if (!st?.isFile()) throw new PretrustError(`ERROR ${config}: not a regular file`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(config));
  } catch (e) {
    const why = e instanceof TypeError ? "invalid UTF-8" : errnoText(e);
    throw new PretrustError(`ERROR ${config}: cannot parse TOML before pre-trust edit: ${why}`);
  }
  let doc: Table;
  try {
    doc = parseToml(text);
  } catch (e) {
    throw new PretrustError(`ERROR ${config}: cannot parse TOML before pre-trust edit: ${errorMessage(e)}`);
  }
  const projects = doc.projects;
  if (projects !== undefined && !isTable(projects)) throw new PretrustError(`ERROR ${config}: projects is not a table`);
  const project = projects?.[path];
  if (project !== undefined && !isTable(project)) throw new PretrustError(`ERROR ${config}: ${projectHeader(path).slice(1, -1)} is not a table`);
  if (project?.trust_level === "trusted") return { config, outcome: "already" };
  const expected: Table = { ...doc, projects: { ...(projects ?? {}), [path]: { ...(project ?? {}), trust_level: "trusted" } } };
  const kind = project === undefined ? "append" : project.trust_level === undefined ? "insert" : "rewrite";
  const verified = candidates(text, path, kind).filter((c) => Bun.deepEquals(tryParse(c), expected));
  if (verified.length !== 1) throw new PretrustError(`ERROR ${config}: could not produce exactly one verified pre-trust edit (found ${verified.length})`);
  return { config, outcome: kind === "append" ? "added" : "updated", data: Buffer.from(verified[0]!), mode: st.mode & 0o7777 };
}

/**
 * `<accounts>/*\/home/config.toml`, sorted, hidden account directories skipped (as a shell glob would). A config
 * reached through a symlink anywhere on its path (the accounts directory or any ancestor of it, an account or its
 * `home` directory) is refused like a symlinked config, as cursor-worker-pretrust refuses one: the edit would land
 * wherever the link points.
 */
function configTargets(accounts: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(accounts)
    .filter((n) => !n.startsWith("."))
    .sort()) {
    const config = join(accounts, n, "home", "config.toml");
    if (lstatOrNull(config) === null) continue;
    let dir = "";
    for (const part of dirname(config).split("/")) {
      if (part === "") continue;
      dir = `${dir}/${part}`;
      if (lstatOrNull(dir)?.isSymbolicLink()) throw new PretrustError(`ERROR ${config}: refusing to edit a config through a symlinked directory: ${dir}`);
    }
    out.push(config);
  }
  return out;
}

export interface CodexRequest {
  worktree: string;
  accountsDir?: string;
}

export function codexPretrust(ctx: Pick<Ctx, "env" | "cwd">, req: CodexRequest): PretrustResult {
  const path = req.worktree;
  if (!isAbsolute(path)) throw new PretrustError(`ERROR worktree path must be absolute: ${path}\n${CODEX_USAGE}`);
  if (hasLineBreak(path)) throw new PretrustError("ERROR worktree path must not contain a line break");
  const accounts = codexAccountsDir(ctx, req.accountsDir);
  const tally: Tally = { added: 0, updated: 0, already: 0 };
  let isDir = false;
  try {
    isDir = statSync(accounts).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) return { lines: [`INFO accounts directory not found: ${accounts}; nothing to pre-trust`, summaryLine(tally)], tally };
  const plans = configTargets(accounts).map((c) => planConfig(c, path));
  const lines: string[] = [];
  for (const p of plans) {
    if (p.data) {
      try {
        atomicWrite(p.config, p.data, p.mode ?? 0o600);
      } catch (e) {
        throw new PretrustError(`ERROR ${p.config}: cannot write pre-trust edit: ${errnoText(e)}`);
      }
    }
    if (p.outcome === "already") tally.already++;
    else tally[p.outcome]++;
    lines.push(`${p.config}: ${p.outcome === "already" ? "already trusted" : `trusted (${p.outcome})`}`);
  }
  lines.push(summaryLine(tally));
  return { lines, tally };
}
