/**
 * A Claude Code settings JSON file, read and written the way every mogui writer does it (hook install, the spend
 * brake's worker wiring): a missing file is `{}`; a symlink, bad JSON or a non-object refuses with a one-line
 * SettingsError; writes go through a temp file and a rename, so a crash never leaves half a settings file.
 */
import { lstatSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { atomicWrite } from "./fs.ts";
import { errnoCode, errorMessage } from "./errors.ts";

export class SettingsError extends Error {}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Quote one word for the host's shell only when needed. */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`;
}

/** The settings file as an object; a missing file is `{}`; a symlink, bad JSON or a non-object refuses. */
export function readSettings(path: string): Json {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return {};
    throw new SettingsError(`cannot read ${path}: ${errnoCode(e)}`);
  }
  if (st.isSymbolicLink()) throw new SettingsError(`${path} is a symlink; refusing to write through it`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new SettingsError(`${path} is not valid JSON (${errorMessage(e)}); fix it first, nothing was changed`);
  }
  if (!isObj(value)) throw new SettingsError(`${path} must hold a JSON object`);
  return value;
}

/** Write via a temp file and rename, so a crash never leaves half a settings file. */
export function writeSettings(path: string, settings: Json): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    atomicWrite(path, `${JSON.stringify(settings, null, 2)}\n`, undefined, ".mogui-");
  } catch (e) {
    throw new SettingsError(`cannot write ${path}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
}
