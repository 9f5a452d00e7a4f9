/**
 * `mogui hook doctor` and preflight's `protection` line: which of the three layers (D39) a Claude Code settings file
 * turns on for the product. "Protected" means layer 1 (Claude Code's OS sandbox with the product denied) is active.
 */
import { join, resolve } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { InstanceConfigError, loadInstanceConfig, productRepoProblem } from "../../lib/config/instance.ts";
import { readSettings } from "../session/install.ts";
import { evaluateLayers, type Layer, productPaths, ProductPathError } from "./layers.ts";

export interface DoctorReport {
  settings_path: string;
  products: string[];
  /** Why no product is known, when none is. */
  product_problem: string | null;
  layers: Layer[];
  protected: boolean;
}

export const defaultSettingsPath = (ctx: Pick<Ctx, "cwd">, given?: string) => resolve(ctx.cwd, given ?? join(".claude", "settings.json"));

/** The products to check: the given paths, else the instance config's product_repo (a problem instead of a throw). */
export function doctorProducts(ctx: Pick<Ctx, "cwd" | "env">, given: readonly string[]): { products: string[]; problem: string | null } {
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

/** Reads the settings (SettingsError when it cannot be read as a JSON object; a missing file is `{}`). */
export function doctor(ctx: Pick<Ctx, "cwd" | "env">, settingsPath: string, given: readonly string[], platform: NodeJS.Platform = process.platform): DoctorReport {
  const settings = readSettings(settingsPath);
  const { products, problem } = doctorProducts(ctx, given);
  const which = (name: string) => Bun.which(name, { PATH: ctx.env.PATH ?? "" });
  const layers = evaluateLayers(settings, products, { platform, which });
  return { settings_path: settingsPath, products, product_problem: problem, layers, protected: layers[0]!.active };
}

export function renderDoctor(r: DoctorReport): string[] {
  const out = [`settings: ${r.settings_path}`, `product: ${r.products.length ? r.products.join(", ") : `unknown (${r.product_problem})`}`];
  const title = { sandbox: "Claude Code sandbox (kernel)", permissions: "permission deny rules (file tools)", guard: "guard hook (static)" };
  for (const l of r.layers) {
    out.push(`layer ${l.layer} ${l.active ? "ACTIVE" : "OFF"}: ${title[l.name]}`);
    for (const c of l.checks) out.push(`  ${c.ok ? "ok  " : "MISS"} ${c.name}: ${c.detail}`);
  }
  out.push(r.protected ? "protected: layer 1 is active" : "NOT protected: layer 1 is off (mogui hook install --host claude --product <path>, or run the session under 'mogui sandbox run --deny-write <product> -- claude')");
  return out;
}
