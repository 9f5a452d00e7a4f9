/** The l1-digest config (reference §12). Relative paths resolve against the config file's directory. */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname } from "node:path";
import { expandUserPath } from "../../lib/config/paths.ts";
import { errnoCode, errorMessage } from "../../lib/errors.ts";

export class DigestError extends Error {
  override name = "DigestError";
}

const DEFAULT_LEDGER_TAIL_LIMIT = 20;
const DEFAULT_MAX_IDLE_SECONDS = 360;
const DEFAULT_ACTIVE_WINDOW_SECONDS = 21600;
const DEFAULT_FINISHED_MARKERS = ["completed", "cancelled", "canceled", "finished", "done", "landed"];

interface RepoConfig {
  name: string;
  path: string;
}

export interface DigestConfig {
  repos: RepoConfig[];
  ledgerPath: string;
  jobLogGlobs: string[];
  monitorPgrepPatterns: string[];
  baselinePath: string;
  digestDir: string;
  ledgerTailLimit: number;
  maxIdleSeconds: number;
  activeWindowSeconds: number;
  finishedMarkers: string[];
}

const REQUIRED = ["repos", "ledger_path", "job_log_globs", "monitor_pgrep_patterns", "baseline_path", "digest_dir"];

function sequence(raw: Record<string, unknown>, key: string): unknown[] {
  const val = raw[key];
  if (!Array.isArray(val)) throw new DigestError(`config field must be a sequence: ${key}`);
  return val;
}

function strings(raw: Record<string, unknown>, key: string): string[] {
  return sequence(raw, key).map((x) => {
    if (typeof x !== "string") throw new DigestError(`config field ${key} must hold strings`);
    return x;
  });
}

function posInt(raw: Record<string, unknown>, key: string, dflt: number): number {
  const val = raw[key];
  if (val === undefined) return dflt;
  if (typeof val !== "number" || !Number.isInteger(val) || val < 1) throw new DigestError(`config field ${key} must be a positive integer`);
  return val;
}

function repo(base: string, home: string, r: unknown): RepoConfig {
  if (typeof r === "string") return { name: basename(expandUserPath(base, r, home)), path: expandUserPath(base, r, home) };
  if (!r || typeof r !== "object" || Array.isArray(r)) throw new DigestError("repo config requires path");
  const o = r as Record<string, unknown>;
  if (typeof o.path !== "string" || !o.path.trim()) throw new DigestError("repo config requires path");
  const path = expandUserPath(base, o.path, home);
  return { name: typeof o.name === "string" && o.name.trim() ? o.name : basename(path), path };
}

export function digestConfigFrom(raw: unknown, base: string, home = homedir()): DigestConfig {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new DigestError("digest config must be a JSON object");
  const o = raw as Record<string, unknown>;
  const missing = REQUIRED.filter((k) => !(k in o));
  if (missing.length) throw new DigestError(`Missing digest config fields: ${missing.join(", ")}`);
  for (const k of ["ledger_path", "baseline_path", "digest_dir"]) if (typeof o[k] !== "string" || !(o[k] as string).trim()) throw new DigestError(`config field ${k} must be a non-empty path string`);
  return {
    repos: sequence(o, "repos").map((r) => repo(base, home, r)),
    ledgerPath: expandUserPath(base, o.ledger_path as string, home),
    jobLogGlobs: strings(o, "job_log_globs").map((g) => expandUserPath(base, g, home)),
    monitorPgrepPatterns: strings(o, "monitor_pgrep_patterns"),
    baselinePath: expandUserPath(base, o.baseline_path as string, home),
    digestDir: expandUserPath(base, o.digest_dir as string, home),
    ledgerTailLimit: posInt(o, "ledger_tail_limit", DEFAULT_LEDGER_TAIL_LIMIT),
    maxIdleSeconds: posInt(o, "max_idle_seconds", DEFAULT_MAX_IDLE_SECONDS),
    activeWindowSeconds: posInt(o, "active_window_seconds", DEFAULT_ACTIVE_WINDOW_SECONDS),
    finishedMarkers: o.finished_markers === undefined ? DEFAULT_FINISHED_MARKERS : strings(o, "finished_markers"),
  };
}

export function loadDigestConfig(path: string, home = homedir()): DigestConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new DigestError(`cannot read digest config: ${path}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DigestError(`digest config is not valid JSON: ${path}: ${errorMessage(e)}`);
  }
  return digestConfigFrom(raw, dirname(path), home);
}
