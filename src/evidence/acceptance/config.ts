/**
 * The acceptance config (reference §13.2). Relative paths resolve against the config file's directory (after `~`
 * expansion). Every problem, the case book's included (D26), is an AcceptanceConfigError whose message names the file.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { resolveSyncCliProfile, syncCliRuntimes } from "../adapter/profile.ts";
import { expandUserPath } from "../../lib/config/paths.ts";
import { type CaseBook, CaseBookError, loadCasebook } from "./casebook.ts";

const DEFAULT_MAX_ITERATIONS = 3;
const DEFAULT_PROPOSER_TIMEOUT_SECONDS = 1800;

export class AcceptanceConfigError extends Error {
  override name = "AcceptanceConfigError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(reason.includes(path) ? reason : `${path}: ${reason}`);
  }
}

export interface AcceptanceConfig {
  name: string;
  configPath: string;
  runDir: string;
  workspaceRoot: string;
  maxIterations: number;
  proposerRuntime: string;
  proposerModel: string | null;
  proposerTimeoutSeconds: number;
  regressionLog: string | null;
}

export function configToDict(c: AcceptanceConfig): Record<string, unknown> {
  return {
    name: c.name,
    run_dir: c.runDir,
    workspace_root: c.workspaceRoot,
    max_iterations: c.maxIterations,
    proposer_runtime: c.proposerRuntime,
    proposer_model: c.proposerModel,
    proposer_timeout_seconds: c.proposerTimeoutSeconds,
  };
}

const PositiveInt = v.pipe(v.number(), v.integer(), v.minValue(1));
// v.record alone accepts arrays.
const Root = v.pipe(
  v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x)),
  v.record(v.string(), v.unknown()),
);

function positiveInt(path: string, raw: unknown, field: string, dflt: number): number {
  if (raw === undefined) return dflt;
  // A bool is not an int here, unlike Python.
  if (!v.is(PositiveInt, raw)) throw new AcceptanceConfigError(path, `'${field}' must be a positive integer`);
  return raw;
}

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new AcceptanceConfigError(path, `cannot read ${what}: ${path}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AcceptanceConfigError(path, `invalid ${what} JSON: ${path}`);
  }
}

function proposerFields(path: string, raw: unknown) {
  if (raw !== undefined && !v.is(Root, raw)) throw new AcceptanceConfigError(path, "'proposer' must be an object");
  const p = (raw ?? {}) as Record<string, unknown>;
  const runtime = typeof p.runtime === "string" ? p.runtime.trim().toLowerCase() : "";
  if (!resolveSyncCliProfile(runtime)) {
    throw new AcceptanceConfigError(path, `unsupported proposer runtime '${runtime}'; expected one of ${syncCliRuntimes().join(", ")}`);
  }
  if (p.model !== undefined && p.model !== null && typeof p.model !== "string") throw new AcceptanceConfigError(path, "'proposer.model' must be a string or null");
  const timeout = positiveInt(path, p.timeout_seconds, "proposer.timeout_seconds", DEFAULT_PROPOSER_TIMEOUT_SECONDS);
  return { runtime, model: (p.model as string | null | undefined) ?? null, timeout };
}

/** `cases` is the list itself, or a path to a case book file ({"cases": [...]} or a list). */
function casebookFrom(path: string, base: string, raw: unknown, home: string): CaseBook {
  let payload = raw;
  let where = path;
  if (typeof raw === "string") {
    where = expandUserPath(base, raw, home);
    payload = readJson(where, "case book");
  }
  try {
    const book = loadCasebook(payload ?? []);
    book.validate();
    return book;
  } catch (e) {
    if (e instanceof CaseBookError) throw new AcceptanceConfigError(where, e.message);
    throw e;
  }
}

export function loadAcceptanceConfig(configPath: string, env: Record<string, string | undefined>): { config: AcceptanceConfig; casebook: CaseBook } {
  const home = env.HOME || homedir();
  const raw = readJson(configPath, "config");
  if (!v.is(Root, raw)) throw new AcceptanceConfigError(configPath, "config must be a JSON object");
  const base = dirname(configPath);
  if (typeof raw.name !== "string" || raw.name.trim() === "") throw new AcceptanceConfigError(configPath, "config requires a non-empty 'name'");
  const name = raw.name.trim();
  // The name becomes a directory (runs/<name>) and report titles: it must not walk out of the run root.
  if (/[/\\]/.test(name) || name === "." || name === "..") throw new AcceptanceConfigError(configPath, "'name' must not contain '/' or '\\' or be '.' or '..'");
  for (const k of ["workspace_root", "run_dir", "regression_log"] as const) {
    if (raw[k] !== undefined && raw[k] !== null && (typeof raw[k] !== "string" || (raw[k] as string).trim() === "")) {
      throw new AcceptanceConfigError(configPath, `'${k}' must be a non-empty path string`);
    }
  }
  const maxIterations = positiveInt(configPath, raw.max_iterations, "max_iterations", DEFAULT_MAX_ITERATIONS);
  const proposer = proposerFields(configPath, raw.proposer);
  const casebook = casebookFrom(configPath, base, raw.cases, home);
  const config: AcceptanceConfig = {
    name,
    configPath,
    runDir: expandUserPath(base, (raw.run_dir as string | undefined) ?? join("runs", name), home),
    workspaceRoot: expandUserPath(base, (raw.workspace_root as string | undefined) ?? ".", home),
    maxIterations,
    proposerRuntime: proposer.runtime,
    proposerModel: proposer.model,
    proposerTimeoutSeconds: proposer.timeout,
    regressionLog: typeof raw.regression_log === "string" ? expandUserPath(base, raw.regression_log, home) : null,
  };
  return { config, casebook };
}
