/**
 * product-path-guard (reference §28.5): the PreToolUse hook that keeps the master session's file tools and Bash
 * out of the product repository. The product root comes from the instance runtime config (§17; the hook's own
 * MOGUI_INSTANCE_RUNTIME_CONFIG first), must be absolute and must exist: anything else BLOCKS (fail closed).
 * Every decision is one row in the event log.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { InstanceConfigError, loadInstanceConfig, requireProductRepo } from "../config/instance.ts";
import { moguiHome, type Ctx } from "../lib/context.ts";
import { appendEvent, isoSeconds, runtimeHint, sessionKind, type SessionKind } from "./firelog.ts";
import { ProductRoots, resolveFrom } from "./guard-paths.ts";
import { checkBash, type GuardPolicy, type Verdict } from "./guard-rules.ts";
import { str, toolInput, type HookInput } from "./stdin.ts";

export const GUARD_CONFIG_ENV = "MOGUI_INSTANCE_RUNTIME_CONFIG";
export const ALLOWLIST_ENV = "MOGUI_PRODUCT_GUARD_ALLOWLIST";
export const ALLOWLIST_FILE = "config/product-path-guard-readonly-allowlist.txt";
const FILE_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
// Deep enough that no `../..` in a relative value climbs out of it.
const RELATIVE_MARK = `/\u0000relative${"/\u0000".repeat(40)}`;

export type ToolKind = "bash" | "file" | "other";

export interface GuardDecision extends Verdict {
  toolKind: ToolKind;
}

/** The product root, or why there is none. Relative values are refused, not resolved (they would move with cwd). */
export function guardProductRoot(ctx: Pick<Ctx, "env" | "cwd">): { root: string } | { error: string } {
  const explicit = ctx.env[GUARD_CONFIG_ENV]?.trim();
  // Overlay, not a copy: the hook path must stay cheap, and every other variable reads through.
  const env = Object.create(ctx.env) as typeof ctx.env;
  for (const k of ["MOGUI_HOME", "INSTANCE_RUNTIME_CONFIG"]) if (ctx.env[k]) env[k] = resolve(ctx.cwd, ctx.env[k]!);
  let root: string;
  try {
    // The loader resolves relative values against cwd; a marker cwd makes a relative product_repo visible.
    root = requireProductRepo(loadInstanceConfig({ env, cwd: RELATIVE_MARK }, explicit ? resolve(ctx.cwd, explicit) : undefined));
  } catch (e) {
    if (e instanceof InstanceConfigError) return { error: e.message };
    throw e;
  }
  if (root.startsWith("/\u0000relative")) return { error: "product_repo must be an absolute path" };
  try {
    if (!statSync(root).isDirectory()) return { error: `product_repo is not a directory: ${root}` };
  } catch {
    return { error: `product_repo does not exist: ${root}` };
  }
  return { root };
}

/** Allowlist file: one command prefix per line (`git status`, `ls`), `#` comments. Missing = empty (fail closed). */
export function loadAllowlist(ctx: Pick<Ctx, "env" | "cwd">): string[][] {
  const path = ctx.env[ALLOWLIST_ENV] ? resolve(ctx.cwd, ctx.env[ALLOWLIST_ENV]!) : join(moguiHome(ctx), ALLOWLIST_FILE);
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean)
    .map((l) => l.split(/\s+/));
}

function bashCommand(ti: Record<string, unknown>): string | undefined {
  const c = ti.command ?? ti.cmd;
  if (typeof c === "string") return c;
  if (Array.isArray(c) && c.every((x) => typeof x === "string")) return (c as string[]).join(" ");
  return undefined;
}

function fileTarget(ti: Record<string, unknown>): string | undefined {
  for (const k of ["file_path", "notebook_path", "path"]) if (typeof ti[k] === "string" && ti[k] !== "") return ti[k] as string;
  return undefined;
}

const block = (reason: string, commandClass: string, toolKind: ToolKind): GuardDecision => ({ block: true, reason, commandClass, targetScope: "product", toolKind });

export function decide(ctx: Pick<Ctx, "env" | "cwd">, input: HookInput, cwd: string): GuardDecision {
  const tool = str(input, "tool_name") ?? "";
  const ti = toolInput(input);
  const command = bashCommand(ti);
  const toolKind: ToolKind = command !== undefined || tool === "Bash" ? "bash" : FILE_TOOLS.has(tool) ? "file" : "other";
  if (toolKind === "other") return { block: false, reason: `tool ${tool || "(none)"} is not guarded`, commandClass: "other_tool", targetScope: "outside", toolKind };
  const found = guardProductRoot(ctx);
  if ("error" in found) return block(`product repo config missing or invalid: ${found.error}`, "config_invalid", toolKind);
  const product = new ProductRoots(found.root);
  if (toolKind === "file") {
    const target = fileTarget(ti);
    if (!target) return block(`${tool} without a target path`, "file_tool", toolKind);
    if (!product.contains(resolveFrom(cwd, target))) return { block: false, reason: "target outside the product repo", commandClass: "file_tool", targetScope: "outside", toolKind };
    if (ctx.env.MOGUI_INLINE_EDIT_OVERRIDE === "1") return { block: false, reason: "MOGUI_INLINE_EDIT_OVERRIDE=1", commandClass: "file_tool_override", targetScope: "product", toolKind };
    return block(`${tool} targets ${target} inside the product repo ${found.root}`, "file_tool", toolKind);
  }
  if (command === undefined) return block("Bash call without a command", "unparseable", toolKind);
  const policy: GuardPolicy = {
    product,
    failClosed: ctx.env.MOGUI_PRODUCT_GUARD_FAIL_CLOSED === "1",
    allowlist: ctx.env.MOGUI_PRODUCT_GUARD_FAIL_CLOSED === "1" ? loadAllowlist(ctx) : [],
    lex: { vars: ctx.env, home: ctx.env.HOME || homedir() },
  };
  return { ...checkBash(policy, command, cwd), toolKind };
}

export function recordDecision(ctx: Ctx, d: GuardDecision, cwd: string, kind?: SessionKind): void {
  if (d.toolKind === "other") return;
  appendEvent(ctx, {
    ts: isoSeconds(ctx.now()),
    level: d.block ? "warn" : "info",
    event: "product_path_guard",
    component: "tool-impl",
    session_kind: kind ?? sessionKind(ctx, cwd),
    runtime_hint: runtimeHint(ctx),
    outcome: d.block ? "block" : "allow",
    evidence: "observed",
    reason: d.reason,
    command_class: d.commandClass,
    target_scope: d.targetScope,
    tool_kind: d.toolKind,
  });
}
