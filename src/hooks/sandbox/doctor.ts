/**
 * `mogui hook doctor` and preflight's `protection` line: which of the three layers (D39) a Claude Code settings file
 * turns on for the product. "Protected" means layer 1 (Claude Code's OS sandbox with the product denied) is active.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { InstanceConfigError, loadInstanceConfig, productRepoProblem } from "../../lib/config/instance.ts";
import { readSettings } from "../session/install.ts";
import { evaluateLayers, type Layer, productPaths, ProductPathError } from "./layers.ts";
import { probe } from "./run.ts";

export interface DoctorReport {
  /** The named settings file, else the project's (where `hook install` writes by default). */
  settings_path: string;
  /** Every file read, highest precedence first (without --settings: managed, local, project, user, as they exist). */
  settings_read: string[];
  products: string[];
  /** Why no product is known, when none is. */
  product_problem: string | null;
  layers: Layer[];
  protected: boolean;
}

export const defaultSettingsPath = (ctx: Pick<Ctx, "cwd">, given?: string) => resolve(ctx.cwd, given ?? join(".claude", "settings.json"));

/** The products to check: the given paths, else the instance config's product_repo (a problem instead of a throw). */
function doctorProducts(ctx: Pick<Ctx, "cwd" | "env">, given: readonly string[]): { products: string[]; problem: string | null } {
  let paths = [...given];
  if (paths.length === 0) {
    try {
      const cfg = loadInstanceConfig(ctx);
      if (!cfg.productRepo) return { products: [], problem: `no product path: pass --product, or set product_repo in ${cfg.configPath}` };
      paths = [cfg.productRepo];
    } catch (e) {
      if (e instanceof InstanceConfigError) return { products: [], problem: e.message };
      throw e;
    }
  }
  for (const p of paths) {
    const problem = productRepoProblem(resolve(ctx.cwd, p));
    if (problem) return { products: [], problem };
  }
  try {
    return { products: productPaths(paths, ctx.cwd), problem: null };
  } catch (e) {
    if (e instanceof ProductPathError) return { products: [], problem: e.message };
    throw e;
  }
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The settings files Claude Code merges for a session in `cwd`, highest precedence first. */
function settingsScopes(ctx: Pick<Ctx, "cwd" | "env">, platform: NodeJS.Platform): string[] {
  const managed = platform === "darwin" ? "/Library/Application Support/ClaudeCode/managed-settings.json" : "/etc/claude-code/managed-settings.json";
  const home = ctx.env.HOME ?? homedir();
  return [managed, join(ctx.cwd, ".claude", "settings.local.json"), join(ctx.cwd, ".claude", "settings.json"), join(home, ".claude", "settings.json")];
}

/**
 * The view the layers are judged on: for the sandbox switches the highest scope that sets one wins; the lists
 * (`sandbox.filesystem.denyWrite`, `sandbox.excludedCommands`, `permissions.deny`, `hooks.PreToolUse`) merge across scopes, as Claude Code
 * merges them.
 */
export function mergeScopes(files: readonly Json[]): Json {
  const sandbox: Json = {};
  const denyWrite: unknown[] = [];
  const deny: unknown[] = [];
  const pre: unknown[] = [];
  const excluded: unknown[] = [];
  for (const f of files) {
    const sb = isObj(f.sandbox) ? f.sandbox : {};
    for (const k of ["enabled", "failIfUnavailable", "allowUnsandboxedCommands"]) if (!(k in sandbox) && sb[k] !== undefined) sandbox[k] = sb[k];
    if (isObj(sb.filesystem) && Array.isArray(sb.filesystem.denyWrite)) denyWrite.push(...sb.filesystem.denyWrite);
    if (Array.isArray(sb.excludedCommands)) excluded.push(...sb.excludedCommands);
    if (isObj(f.permissions) && Array.isArray(f.permissions.deny)) deny.push(...f.permissions.deny);
    if (isObj(f.hooks) && Array.isArray(f.hooks.PreToolUse)) pre.push(...f.hooks.PreToolUse);
  }
  return { sandbox: { ...sandbox, ...(excluded.length ? { excludedCommands: excluded } : {}), filesystem: { denyWrite } }, permissions: { deny }, hooks: { PreToolUse: pre } };
}

/**
 * The named settings file alone, else every scope Claude Code merges (SettingsError when one cannot be read as a
 * JSON object; a missing file counts as empty).
 */
export async function doctor(ctx: Pick<Ctx, "cwd" | "env">, settingsPath: string | undefined, given: readonly string[], platform: NodeJS.Platform = process.platform): Promise<DoctorReport> {
  const paths = settingsPath ? [settingsPath] : settingsScopes(ctx, platform);
  const read = paths.filter((p) => existsSync(p));
  const settings = mergeScopes(paths.map((p) => readSettings(p)));
  const { products, problem } = doctorProducts(ctx, given);
  const which = (name: string) => Bun.which(name, { PATH: ctx.env.PATH ?? "" });
  const layers = evaluateLayers(settings, products, { platform, which });
  // Present is not enough: bubblewrap must be able to create a sandbox here (user namespaces on). The real probe.
  const bwrap = platform === "linux" ? which("bwrap") : null;
  if (bwrap) {
    const p = await probe({ name: "bubblewrap", path: bwrap }, [], ctx.env);
    layers[0]!.checks.push({ name: "bubblewrap works", ok: p.enforced, detail: p.enforced ? "a probe write into a read-only temp dir was refused" : (p.problem ?? "the probe failed") });
    layers[0]!.active = layers[0]!.checks.every((c) => c.ok);
  }
  return { settings_path: settingsPath ?? defaultSettingsPath(ctx), settings_read: read, products, product_problem: problem, layers, protected: layers[0]!.active };
}

export function renderDoctor(r: DoctorReport): string[] {
  const out = [`settings read: ${r.settings_read.length ? r.settings_read.join(", ") : `none (${r.settings_path} does not exist)`}`, `product: ${r.products.length ? r.products.join(", ") : `unknown (${r.product_problem})`}`];
  const title = { sandbox: "Claude Code sandbox (kernel)", permissions: "permission deny rules (file tools)", guard: "guard hook (static)" };
  for (const l of r.layers) {
    out.push(`layer ${l.layer} ${l.active ? "ACTIVE" : "OFF"}: ${title[l.name]}`);
    for (const c of l.checks) out.push(`  ${c.ok ? "ok  " : "MISS"} ${c.name}: ${c.detail}`);
  }
  out.push(r.protected ? "protected: layer 1 is active" : "NOT protected: layer 1 is off (mogui hook install --host claude --product <path>, or run the session under 'mogui sandbox run --deny-write <product> -- claude')");
  return out;
}
