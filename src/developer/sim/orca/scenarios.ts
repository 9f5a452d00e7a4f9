/**
 * Seeding a fresh state file from ORCA_SIM_SCENARIO: a path to a scenario JSON file, or the bare name of a
 * scenario built into the binary (static JSON imports, so the compiled binary knows them without fixtures/).
 * `${ROOT}` in a scenario is replaced by ORCA_SIM_ROOT (default: the state file's directory), which lets tests
 * point scenario worktrees at temp git repos. Format: fixtures/scenarios/README.md.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Env } from "../../../lib/context.ts";
import basic from "../../../../fixtures/scenarios/basic.json";
import empty from "../../../../fixtures/scenarios/empty.json";
import folder from "../../../../fixtures/scenarios/folder.json";
import settled from "../../../../fixtures/scenarios/settled.json";
import { SimError } from "./errors.ts";
import { normalizeState } from "./normalize.ts";
import type { SimState } from "./types.ts";
import { errorMessage } from "../../../lib/errors.ts";

const BUILTIN_SCENARIOS: Record<string, unknown> = { basic, empty, folder, settled };

function scenarioText(name: string, cwd: string): string {
  if (Object.hasOwn(BUILTIN_SCENARIOS, name)) return JSON.stringify(BUILTIN_SCENARIOS[name]);
  const path = resolve(cwd, name);
  if (existsSync(path)) return readFileSync(path, "utf8");
  const known = Object.keys(BUILTIN_SCENARIOS).sort().join(", ");
  throw new SimError("runtime_error", `orca simulator: unknown scenario '${name}' (not a file; built in: ${known})`, undefined, true);
}

/** `${ROOT}` is replaced inside the JSON text, escaped as a JSON string body. */
function substituteRoot(text: string, root: string): string {
  return text.replaceAll("${ROOT}", JSON.stringify(root).slice(1, -1));
}

export function seedState(env: Env, cwd: string, statePath: string, now: number): SimState {
  const name = env.ORCA_SIM_SCENARIO?.trim();
  if (!name) return normalizeState({}, now);
  const root = env.ORCA_SIM_ROOT || dirname(statePath);
  const text = substituteRoot(scenarioText(name, cwd), root);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new SimError("runtime_error", `orca simulator: scenario '${name}' is not JSON: ${errorMessage(e)}`, undefined, true);
  }
  return normalizeState(raw, now);
}
