/**
 * The three layers that keep the master out of the product (DECISIONS D39), as Claude Code settings:
 *   1. Claude Code's own OS sandbox for every Bash command: `sandbox.enabled: true`, `sandbox.failIfUnavailable:
 *      true` (no silent unsandboxed run when bubblewrap is missing), `sandbox.allowUnsandboxedCommands: false` (no
 *      retry outside the sandbox), each product path in `sandbox.filesystem.denyWrite`;
 *   2. permission deny rules for the file tools: `Edit(//<abs product>/**)` (Edit rules cover every built-in tool
 *      that edits files: Edit, Write, MultiEdit, NotebookEdit);
 *   3. the static guard hook (`mogui hook product-path-guard`, wired by install.ts).
 * Paths are written with Claude Code's `//` prefix, an absolute path from the file system root (a single `/` is
 * relative to the settings file's directory in its path syntax). `hook install` merges layers 1 and 2 here;
 * `hook doctor` reads all three back.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { SettingsError } from "../session/install.ts";
import { errnoCode } from "../../lib/errors.ts";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

type LayerChange = "added" | "updated" | "unchanged";
export interface SettingChange {
  setting: string;
  value: string | boolean;
  change: LayerChange;
}

/** Characters Claude Code reads as pattern syntax in a rule path: a product named with one is refused. */
const PATTERN = /[*?[\]{}()\\!]/;

export class ProductPathError extends Error {}

/**
 * The product paths to protect: each given path resolved against cwd, and its real path when a symlink leads
 * there (both spellings are denied). A path that does not exist, or that holds pattern characters, is refused.
 */
export function productPaths(given: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  for (const g of given) {
    const abs = resolve(cwd, g);
    let real: string;
    try {
      real = realpathSync(abs);
    } catch (e) {
      throw new ProductPathError(`product path ${g}: ${errnoCode(e) === "ENOENT" ? "no such file or directory" : (errnoCode(e) ?? "cannot resolve")}`);
    }
    for (const p of [abs, real]) {
      if (PATTERN.test(p)) throw new ProductPathError(`product path ${p} holds a character Claude Code reads as a pattern (${PATTERN.source}); move or rename it`);
      if (!out.includes(p)) out.push(p);
    }
  }
  return out;
}

/** `/x/y` as Claude Code's absolute path spelling `//x/y`. */
export const claudeAbs = (p: string) => `/${p}`;
/** The Edit deny rule for a product path. */
export const editDenyRule = (p: string) => `Edit(${claudeAbs(p)}/**)`;

function child(parent: Json, key: string, where: string): Json {
  if (parent[key] === undefined) parent[key] = {};
  const v = parent[key];
  if (!isObj(v)) throw new SettingsError(`'${where}' in the settings file is not an object`);
  return v;
}

function list(parent: Json, key: string, where: string): unknown[] {
  if (parent[key] === undefined) parent[key] = [];
  const v = parent[key];
  if (!Array.isArray(v)) throw new SettingsError(`'${where}' in the settings file is not an array`);
  return v;
}

function setBool(o: Json, key: string, value: boolean, where: string): SettingChange {
  const had = o[key];
  if (had === value) return { setting: where, value, change: "unchanged" };
  o[key] = value;
  return { setting: where, value, change: had === undefined ? "added" : "updated" };
}

function addTo(arr: unknown[], value: string, where: string): SettingChange {
  if (arr.includes(value)) return { setting: where, value, change: "unchanged" };
  arr.push(value);
  return { setting: where, value, change: "added" };
}

/** Layers 1 and 2 merged into `settings` in place (other keys and entries kept, nothing removed). */
export function mergeLayers(settings: Json, products: readonly string[]): SettingChange[] {
  const changes: SettingChange[] = [];
  const sandbox = child(settings, "sandbox", "sandbox");
  changes.push(setBool(sandbox, "enabled", true, "sandbox.enabled"));
  changes.push(setBool(sandbox, "failIfUnavailable", true, "sandbox.failIfUnavailable"));
  changes.push(setBool(sandbox, "allowUnsandboxedCommands", false, "sandbox.allowUnsandboxedCommands"));
  const deny = list(child(sandbox, "filesystem", "sandbox.filesystem"), "denyWrite", "sandbox.filesystem.denyWrite");
  for (const p of products) changes.push(addTo(deny, claudeAbs(p), "sandbox.filesystem.denyWrite"));
  const rules = list(child(settings, "permissions", "permissions"), "deny", "permissions.deny");
  for (const p of products) changes.push(addTo(rules, editDenyRule(p), "permissions.deny"));
  return changes;
}

/** The filesystem section for Anthropic's sandbox runtime (srt) that Claude Code's denyWrite entries stand for. */
export function srtDenyWrite(denyWrite: readonly string[]): string[] {
  return denyWrite.map((p) => (p.startsWith("//") ? p.slice(1) : p));
}

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}
export interface Layer {
  layer: 1 | 2 | 3;
  name: "sandbox" | "permissions" | "guard";
  active: boolean;
  checks: Check[];
}

const PRODUCT_TOOLS = ["Edit", "Write", "MultiEdit", "NotebookEdit", "Bash"];
const GUARD = /(^|[\s/])[^\s]*mogui[^\s]*\s+hook\s+product-path-guard(\s|$)/;

/** The guard wiring: a PreToolUse group whose matcher covers every product tool runs `mogui hook product-path-guard`. */
function guardWired(settings: Json): Check {
  const groups = isObj(settings.hooks) && Array.isArray(settings.hooks.PreToolUse) ? settings.hooks.PreToolUse : [];
  for (const g of groups) {
    if (!isObj(g) || !Array.isArray(g.hooks)) continue;
    const m = typeof g.matcher === "string" ? g.matcher : "";
    const covers = m === "" || m === "*" || PRODUCT_TOOLS.every((t) => m.split("|").includes(t));
    if (covers && g.hooks.some((h) => isObj(h) && typeof h.command === "string" && GUARD.test(h.command))) {
      return { name: "guard wired", ok: true, detail: `PreToolUse ${m || "(every tool)"}: product-path-guard` };
    }
  }
  return { name: "guard wired", ok: false, detail: "no PreToolUse hook runs 'mogui hook product-path-guard' for Edit|Write|MultiEdit|NotebookEdit|Bash (mogui hook install --host claude)" };
}

export interface Host {
  platform: NodeJS.Platform;
  which(name: string): string | null;
}

/** Every layer as the settings file and the host have it; `products` are the paths that must be denied. */
export function evaluateLayers(settings: Json, products: readonly string[], host: Host): Layer[] {
  const sandbox = isObj(settings.sandbox) ? settings.sandbox : {};
  const fs = isObj(sandbox.filesystem) ? sandbox.filesystem : {};
  const denyWrite = Array.isArray(fs.denyWrite) ? fs.denyWrite.filter((x): x is string => typeof x === "string") : [];
  const denied = (p: string) => denyWrite.includes(claudeAbs(p)) || denyWrite.includes(`${claudeAbs(p)}/**`);
  const missing = products.filter((p) => !denied(p));
  const l1: Check[] = [
    { name: "sandbox enabled", ok: sandbox.enabled === true, detail: `sandbox.enabled is ${JSON.stringify(sandbox.enabled ?? null)}` },
    { name: "fails if unavailable", ok: sandbox.failIfUnavailable === true, detail: `sandbox.failIfUnavailable is ${JSON.stringify(sandbox.failIfUnavailable ?? null)} (true: no silent unsandboxed run)` },
    {
      name: "unsandboxed fallback off",
      ok: sandbox.allowUnsandboxedCommands === false,
      detail: `sandbox.allowUnsandboxedCommands is ${JSON.stringify(sandbox.allowUnsandboxedCommands ?? null)} (Claude Code's default true lets a denied command be retried unsandboxed)`,
    },
    {
      name: "no command excluded",
      ok: !Array.isArray(sandbox.excludedCommands) || sandbox.excludedCommands.length === 0,
      detail: Array.isArray(sandbox.excludedCommands) && sandbox.excludedCommands.length ? `sandbox.excludedCommands run outside the sandbox: ${sandbox.excludedCommands.map((c) => JSON.stringify(c)).join(", ")}` : "sandbox.excludedCommands is empty",
    },
    {
      name: "product denied",
      ok: products.length > 0 && missing.length === 0,
      detail:
        products.length === 0
          ? "no product path known (--product, or product_repo in the instance config)"
          : missing.length
            ? `not in sandbox.filesystem.denyWrite: ${missing.map(claudeAbs).join(", ")}`
            : `sandbox.filesystem.denyWrite has ${products.map(claudeAbs).join(", ")}`,
    },
  ];
  if (host.platform === "linux") {
    for (const [tool, pkg] of [
      ["bwrap", "bubblewrap"],
      ["socat", "socat"],
    ] as const) {
      const at = host.which(tool);
      l1.push({ name: `${pkg} present`, ok: at !== null, detail: at ? `${tool}: ${at}` : `${tool} not on PATH: apt-get install ${pkg}` });
    }
  } else if (host.platform !== "darwin") {
    l1.push({ name: "platform supported", ok: false, detail: `Claude Code's sandbox runs on macOS, Linux and WSL2, not ${host.platform}` });
  }
  const rules = isObj(settings.permissions) && Array.isArray(settings.permissions.deny) ? settings.permissions.deny : [];
  const noRule = products.filter((p) => !rules.includes(editDenyRule(p)));
  const l2: Check[] = [
    {
      name: "permission rules present",
      ok: products.length > 0 && noRule.length === 0,
      detail: products.length === 0 ? "no product path known" : noRule.length ? `missing in permissions.deny: ${noRule.map(editDenyRule).join(", ")}` : `permissions.deny has ${products.map(editDenyRule).join(", ")}`,
    },
  ];
  const l3 = [guardWired(settings)];
  const layer = (n: 1 | 2 | 3, name: Layer["name"], checks: Check[]): Layer => ({ layer: n, name, active: checks.every((c) => c.ok), checks });
  return [layer(1, "sandbox", l1), layer(2, "permissions", l2), layer(3, "guard", l3)];
}
