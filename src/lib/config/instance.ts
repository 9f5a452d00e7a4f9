/**
 * The instance runtime config (reference §17, resolution per D2/D3): which runtime the master runs on, where each
 * runtime's transcripts live, and the local product checkout. Shared by every command that needs one of the three;
 * a missing file is not an error (the values may come from the environment), a malformed one always is. The file
 * is validated with InstanceRuntimeSchema, the same schema `mogui config schema instance-runtime` publishes.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { resolveStatePath, type Ctx } from "../context.ts";
import type { InstanceRuntimeSchema as Schema } from "./instance-schema.ts";
import { dropUnderscoreKeys, issueLine } from "./issues.ts";
import { errnoCode, errorMessage } from "../errors.ts";

export const INSTANCE_CONFIG_ENV = "INSTANCE_RUNTIME_CONFIG";
export const INSTANCE_CONFIG_FILE = "config/instance-runtime.json";

export class InstanceConfigError extends Error {
  override name = "InstanceConfigError";
}

export interface InstanceRuntimeConfig {
  masterHostRuntime: string | null;
  transcriptGlobs: Record<string, string>;
  productRepo: string | null;
  /** The file the values came from; null when it does not exist. */
  sourcePath: string | null;
  /** The path that was looked at (set even when the file is absent, so errors can name it). */
  configPath: string;
  /** MOGUI_TRANSCRIPT_GLOB, a runtime-agnostic override, when set. */
  transcriptGlobEnvOverride: string | null;
}

function envValue(ctx: Pick<Ctx, "env">, name: string): string | null {
  const v = ctx.env[name];
  return v === undefined || v.trim() === "" ? null : v;
}

type ParsedFields = Omit<InstanceRuntimeConfig, "sourcePath" | "configPath" | "transcriptGlobEnvOverride">;

const NON_BLANK = /\S/;

/**
 * InstanceRuntimeSchema, loaded on first use (a synchronous require, which the bundler keeps lazy): building the
 * valibot schema is start-up time that a hook, which only meets a valid file, never needs.
 */
function instanceRuntimeSchema(): typeof Schema {
  return (require("./instance-schema.ts") as typeof import("./instance-schema.ts")).InstanceRuntimeSchema;
}

/**
 * The same answer as InstanceRuntimeSchema for a config it accepts, without running valibot: hooks load this file
 * on every tool call and the schema walk is a measurable part of their start-up. Anything this check does not
 * accept (undefined) goes through the schema, which then produces the exact error message.
 */
function fastParse(raw: Record<string, unknown>): ParsedFields | undefined {
  const master = raw.master_host_runtime;
  const product = raw.product_repo;
  const globsIn = raw.transcript_globs;
  if (master !== undefined && master !== null && typeof master !== "string") return undefined;
  if (product !== undefined && product !== null && typeof product !== "string") return undefined;
  const globs: Record<string, string> = {};
  if (globsIn !== undefined && globsIn !== null) {
    if (typeof globsIn !== "object" || Array.isArray(globsIn)) return undefined;
    for (const k of Object.keys(globsIn)) {
      if (k.startsWith("_")) continue;
      const val = (globsIn as Record<string, unknown>)[k];
      if (k.trim() === "" || typeof val !== "string" || !NON_BLANK.test(val)) return undefined;
      globs[k] = val;
    }
  }
  return { masterHostRuntime: (master as string | null | undefined) ?? null, transcriptGlobs: globs, productRepo: (product as string | null | undefined) ?? null };
}

/** Parses the file's text; exported for tests and for `mogui config` validation. */
export function parseInstanceConfig(text: string, path: string): ParsedFields {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new InstanceConfigError(`instance runtime config is not valid JSON: ${path}: ${errorMessage(e)}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new InstanceConfigError(`instance runtime config root must be a JSON object: ${path}`);
  const fast = fastParse(raw as Record<string, unknown>);
  if (fast) return fast;
  // valibot only on this slow path: a hook that reads a valid config never loads it.
  const v = require("valibot") as typeof import("valibot");
  const parsed = v.safeParse(instanceRuntimeSchema(), dropUnderscoreKeys(raw as Record<string, unknown>));
  if (!parsed.success) throw new InstanceConfigError(issueLine(parsed.issues[0]));
  const obj = parsed.output;
  const globs = Object.fromEntries(Object.entries(obj.transcript_globs ?? {}).filter(([k]) => !k.startsWith("_"))) as Record<string, string>;
  return { masterHostRuntime: obj.master_host_runtime ?? null, transcriptGlobs: globs, productRepo: obj.product_repo ?? null };
}

/** explicit path > $INSTANCE_RUNTIME_CONFIG > $MOGUI_HOME/config/instance-runtime.json; env values win per field. */
export function loadInstanceConfig(ctx: Pick<Ctx, "env" | "cwd">, explicitPath?: string): InstanceRuntimeConfig {
  const path = resolveStatePath(ctx, explicitPath, INSTANCE_CONFIG_ENV, INSTANCE_CONFIG_FILE);
  let text: string | null = null;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw new InstanceConfigError(`instance runtime config is unreadable: ${path}: ${code ?? errorMessage(e)}`);
  }
  const file = text === null ? { masterHostRuntime: null, transcriptGlobs: {}, productRepo: null } : parseInstanceConfig(text, path);
  const product = envValue(ctx, "MOGUI_PRODUCT_REPO") ?? file.productRepo;
  return {
    masterHostRuntime: envValue(ctx, "MOGUI_MASTER_HOST_RUNTIME") ?? envValue(ctx, "MASTER_HOST_RUNTIME") ?? file.masterHostRuntime,
    transcriptGlobs: file.transcriptGlobs,
    productRepo: product === null ? null : resolve(ctx.cwd, product),
    sourcePath: text === null ? null : path,
    configPath: path,
    transcriptGlobEnvOverride: envValue(ctx, "MOGUI_TRANSCRIPT_GLOB"),
  };
}

export function requireMasterHostRuntime(c: InstanceRuntimeConfig): string {
  if (c.masterHostRuntime) return c.masterHostRuntime;
  throw new InstanceConfigError(`master host runtime is unconfigured: set MOGUI_MASTER_HOST_RUNTIME or master_host_runtime in ${c.configPath}`);
}

export function requireTranscriptGlob(c: InstanceRuntimeConfig, runtime?: string): string {
  if (c.transcriptGlobEnvOverride) return c.transcriptGlobEnvOverride;
  const name = runtime ?? c.masterHostRuntime;
  if (!name) throw new InstanceConfigError(`transcript glob is unconfigured: no runtime named; set MOGUI_TRANSCRIPT_GLOB, or MOGUI_MASTER_HOST_RUNTIME and transcript_globs in ${c.configPath}`);
  const g = c.transcriptGlobs[name];
  if (g) return g;
  throw new InstanceConfigError(`transcript glob for runtime '${name}' is unconfigured: set MOGUI_TRANSCRIPT_GLOB or transcript_globs['${name}'] in ${c.configPath}`);
}

/** `product_repo` in config/instance-runtime.example.json: a placeholder, never a product (issue 23). */
export const PRODUCT_REPO_PLACEHOLDER = "/absolute/path/to/primary-product-repo";

/** Why a configured product path cannot be used as one (the example's placeholder); null when it can. */
export function productRepoProblem(product: string | null): string | null {
  if (product !== null && product.replace(/\/+$/, "") === PRODUCT_REPO_PLACEHOLDER) {
    return `product_repo is still the example placeholder ${PRODUCT_REPO_PLACEHOLDER}: set it to the absolute path of your product checkout (or set MOGUI_PRODUCT_REPO)`;
  }
  return null;
}

export function requireProductRepo(c: InstanceRuntimeConfig): string {
  if (c.productRepo) return c.productRepo;
  throw new InstanceConfigError(`product repo is unconfigured: set MOGUI_PRODUCT_REPO or product_repo in ${c.configPath}`);
}
