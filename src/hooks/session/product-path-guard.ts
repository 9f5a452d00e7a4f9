/**
 * product-path-guard (reference §28.5): the PreToolUse hook that keeps the master session's file tools and Bash
 * out of the product repository. The product root comes from the instance runtime config (§17; the hook's own
 * MOGUI_INSTANCE_RUNTIME_CONFIG first), must be absolute and must exist: anything else BLOCKS (fail closed).
 * Every decision is one row in the event log.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { InstanceConfigError, loadInstanceConfig, requireProductRepo } from "../../lib/config/instance.ts";
import { moguiHome, type Ctx } from "../../lib/context.ts";
import { appendEvent, isoSeconds, runtimeHint, sessionKind, type SessionKind } from "./firelog.ts";
import { GuardUnsure, ProductRoots, resolveFrom, shortPath } from "./guard-paths.ts";
import { checkBash, type GuardPolicy, type Verdict } from "./guard-rules.ts";
import { toolInput, type HookInput } from "./stdin.ts";

const GUARD_CONFIG_ENV = "MOGUI_INSTANCE_RUNTIME_CONFIG";
const ALLOWLIST_ENV = "MOGUI_PRODUCT_GUARD_ALLOWLIST";
const ALLOWLIST_FILE = "config/product-path-guard-readonly-allowlist.txt";
/** Tool names compare lowercased: a host (or an agent) spelling `write` must not slip past `Write`. */
const FILE_TOOLS = new Set(["edit", "write", "multiedit", "notebookedit"]);
/** Tools known to only read (or to touch no file): their path keys are never judged. */
const READ_TOOLS = new Set([
  "read",
  "grep",
  "glob",
  "ls",
  "notebookread",
  "webfetch",
  "websearch",
  "todowrite",
  "todoread",
  "task",
  "agent",
  "exitplanmode",
  "bashoutput",
  "killshell",
  "killbash",
  "listmcpresourcestool",
  "readmcpresourcetool",
  "skill",
  "slashcommand",
]);
/** Keys whose string value (or array of strings / objects holding them) is a path a tool may write. */
const PATH_KEY = /^(file_?path|path|paths|notebook_?path|file|files|filename|target|target_?file|destination|dest|new_?path|old_?path|output|out|directory|dir|cwd|uri)$/i;
const MAX_PATHS = 256;
const MAX_INPUT_DEPTH = 16;
// Deep enough that no `../..` in a relative value climbs out of it.
const RELATIVE_MARK = `/\u0000relative${"/\u0000".repeat(40)}`;

type ToolKind = "bash" | "file" | "other";

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

/** Every string under a path-like key, at any depth (`edits[].file_path`, `paths: [...]`), bounded. */
function pathValues(value: unknown, out: string[] = [], underKey = false, depth = 0): string[] {
  // Beyond the bounds the input is not read whole: fail closed (a path past them could be the product).
  if (depth > MAX_INPUT_DEPTH) throw new GuardUnsure(`tool input nests deeper than ${MAX_INPUT_DEPTH} levels`);
  if (out.length >= MAX_PATHS) throw new GuardUnsure(`tool input holds more than ${MAX_PATHS} paths`);
  if (typeof value === "string") {
    let v = value;
    if (value.startsWith("file://")) {
      try {
        v = decodeURI(value.slice(7));
      } catch {
        throw new GuardUnsure("a file:// path that is not valid percent-encoding");
      }
    }
    if (underKey && value !== "") out.push(v);
  } else if (Array.isArray(value)) {
    for (const v of value) pathValues(v, out, underKey, depth + 1);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) pathValues(v, out, PATH_KEY.test(k), depth + 1);
  }
  return out;
}

const block = (reason: string, commandClass: string, toolKind: ToolKind): GuardDecision => ({ block: true, reason, commandClass, targetScope: "product", toolKind });

/** What the call is: a shell command, a file tool (or an unknown tool carrying paths), or nothing to judge. */
function toolKindOf(tool: string, ti: Record<string, unknown>, command: string | undefined, paths: string[]): ToolKind {
  const t = tool.toLowerCase();
  if (command !== undefined || t === "bash") return "bash";
  if (FILE_TOOLS.has(t)) return "file";
  if (READ_TOOLS.has(t)) return "other";
  return paths.length || Object.keys(ti).length === 0 ? "file" : "other";
}

export function decide(ctx: Pick<Ctx, "env" | "cwd">, input: HookInput, cwd: string): GuardDecision {
  const rawTool = input.tool_name;
  const tool = typeof rawTool === "string" ? rawTool : "";
  const ti = toolInput(input);
  const command = bashCommand(ti);
  let paths: string[] = [];
  let unsure: string | undefined;
  try {
    paths = pathValues(ti);
  } catch (e) {
    if (!(e instanceof GuardUnsure)) throw e;
    unsure = e.message;
  }
  // No tool name and no input at all is not a call anyone can judge: fail closed.
  if (tool === "" && Object.keys(ti).length === 0 && typeof input.tool_input !== "string") return block("hook input names no tool and no tool input", "unparseable", "file");
  const toolKind = toolKindOf(tool, ti, command, paths);
  if (toolKind === "other") return { block: false, reason: `tool ${tool || "(none)"} is not guarded`, commandClass: "other_tool", targetScope: "outside", toolKind };
  if (unsure !== undefined && toolKind === "file") return block(unsure, "unparseable", toolKind);
  const found = guardProductRoot(ctx);
  if ("error" in found) return block(`product repo config missing or invalid: ${found.error}`, "config_invalid", toolKind);
  const product = new ProductRoots(found.root);
  if (toolKind === "file") return fileDecision(ctx, product, tool || "(unnamed tool)", paths, cwd, found.root);
  if (command === undefined) return block("Bash call without a command", "unparseable", toolKind);
  const policy: GuardPolicy = {
    product,
    failClosed: ctx.env.MOGUI_PRODUCT_GUARD_FAIL_CLOSED === "1",
    allowlist: ctx.env.MOGUI_PRODUCT_GUARD_FAIL_CLOSED === "1" ? loadAllowlist(ctx) : [],
    lex: { vars: ctx.env, home: ctx.env.HOME || homedir() },
  };
  try {
    return { ...checkBash(policy, command, cwd), toolKind };
  } catch (e) {
    if (e instanceof GuardUnsure) return block(e.message, "unresolvable_path", toolKind);
    throw e;
  }
}

function fileDecision(ctx: Pick<Ctx, "env">, product: ProductRoots, tool: string, paths: string[], cwd: string, root: string): GuardDecision {
  if (!paths.length) return block(`${tool} without a target path`, "file_tool", "file");
  let inside: string | undefined;
  try {
    inside = paths.find((p) => product.contains(resolveFrom(cwd, p)));
  } catch (e) {
    if (e instanceof GuardUnsure) return block(e.message, "unresolvable_path", "file");
    throw e;
  }
  if (inside === undefined) return { block: false, reason: "target outside the product repo", commandClass: "file_tool", targetScope: "outside", toolKind: "file" };
  if (ctx.env.MOGUI_INLINE_EDIT_OVERRIDE === "1") return { block: false, reason: "MOGUI_INLINE_EDIT_OVERRIDE=1", commandClass: "file_tool_override", targetScope: "product", toolKind: "file" };
  return block(`${tool} targets ${shortPath(inside)} inside the product repo ${root}`, "file_tool", "file");
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

/** A block reason as one bounded line: control characters shown as `?`, at most 400 characters. */
export function oneLine(text: string): string {
  const one = text.replace(/[\u0000-\u001f\u007f]/g, "?");
  return one.length > 400 ? `${one.slice(0, 397)}...` : one;
}

/**
 * The whole guard decision, failing closed (issue 23, D39): Claude Code blocks a tool call only on exit 2, so any
 * error here (a bug, a path the kernel refuses to resolve, a resource limit) becomes a block, never a crash.
 */
export function guardedDecision(run: () => GuardDecision): GuardDecision {
  try {
    return run();
  } catch (e) {
    const what = e instanceof GuardUnsure ? e.message : `internal error (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)})`;
    return { block: true, reason: `${what}; the guard fails closed`, commandClass: "guard_error", targetScope: "product", toolKind: "bash" };
  }
}
