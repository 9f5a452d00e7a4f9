/** `terminal create|list|show|read|send` (docs/orca-cli.md §5). Output lives in the state as an array of lines. */
import { optBool, optInt, optString } from "./argv.ts";
import { type Call, type CommandTable, now } from "./call.ts";
import { invalidArgument, SimError } from "./errors.ts";
import { terminalHandle, uuid } from "./ids.ts";
import { paneKey } from "./normalize-orch.ts";
import type { Outcome } from "./output.ts";
import { terminalDetail, terminalStatus, terminalSummary } from "./rows.ts";
import { resolveWorktree, type Workspace, worktreeAt } from "./selectors.ts";
import { detectAgent, findTerminal, terminalArg } from "./terminal-common.ts";
import { TERMINAL_LIFECYCLE_COMMANDS } from "./terminal-lifecycle.ts";
import type { SimTerminal } from "./types.ts";

function newTerminal(call: Call, ws: Workspace, title: string | null, command: string | undefined): SimTerminal {
  return {
    handle: terminalHandle(),
    tabId: uuid(),
    leafId: uuid(),
    ptyId: uuid(),
    worktreeId: ws.id,
    worktreePath: ws.kind === "folder" ? "" : ws.path,
    branch: ws.branch,
    title,
    output: command ? [`$ ${command}`] : [],
    alive: true,
    exitCode: null,
    lastOutputAt: command ? now(call) : null,
    surface: optBool(call.flags, "focus") ? "visible" : "background",
    agent: detectAgent(command),
    incarnation: 1,
  };
}

/**
 * Faults: `stale_handle[:n]` opens n terminals (a create that landed n times) and replies with the first one's
 * handle, which is then reminted, so the reply names a stale handle; `foreign_handle` replies with the first live
 * terminal of ANOTHER workspace (a reply mixed up with someone else's) while the new terminal exists unreported.
 */
function create(call: Call): Outcome {
  const sel = optString(call.flags, "worktree");
  const title = optString(call.flags, "title") ?? null;
  const command = optString(call.flags, "command");
  const mode = call.fault?.mode;
  const t = call.store.tx((s) => {
    // A bare `folder:<uuid>` is accepted here and nowhere else (seed page 05).
    const ws = sel ? resolveWorktree(s, sel, call.cwd, { bareFolder: true }) : worktreeAt(s, call.cwd);
    const n = mode === "stale_handle" ? (call.fault?.code ?? 1) : 1;
    const made = Array.from({ length: n }, () => newTerminal(call, ws, title, command));
    const foreign = mode === "foreign_handle" ? s.terminals.find((x) => x.alive && x.worktreeId !== ws.id) : undefined;
    s.terminals.push(...made);
    if (mode !== "stale_handle") return foreign ?? made[0]!;
    const reported = { ...made[0]! };
    made[0]!.handle = terminalHandle();
    s.staleHandles.push(reported.handle);
    return reported;
  });
  const terminal = { handle: t.handle, tabId: t.tabId, paneKey: paneKey(t), ptyId: t.ptyId, worktreeId: t.worktreeId, title: t.title, surface: t.surface };
  return { result: { terminal }, text: `Created terminal ${t.handle}${t.title === null ? "" : ` (title: "${t.title}")`} [${t.surface}]` };
}

function list(call: Call): Outcome {
  const s = call.store.read();
  const sel = optString(call.flags, "worktree");
  const limit = optInt(call.flags, "limit", "invalid_limit");
  const wsId = sel ? resolveWorktree(s, sel, call.cwd).id : undefined;
  const all = s.terminals.filter((t) => wsId === undefined || t.worktreeId === wsId);
  const shown = limit === undefined ? all : all.slice(0, limit);
  const result: Record<string, unknown> = { terminals: shown.map(terminalSummary), totalCount: all.length, truncated: shown.length < all.length };
  if (optBool(call.flags, "include-visual-layouts")) result.visualLayouts = [];
  const text = shown.map((t) => `${t.handle}  ${t.title ?? "-"}  ${t.worktreePath || t.worktreeId}  [${terminalStatus(t)}]`).join("\n");
  return { result, text: text || "No terminals." };
}

function show(call: Call): Outcome {
  const t = findTerminal(call.store.read(), terminalArg(call));
  const terminal = terminalDetail(t);
  const text = Object.entries(terminal)
    .map(([k, v]) => `${k}: ${v === null ? "null" : String(v)}`)
    .join("\n");
  return { result: { terminal }, text };
}

function read(call: Call): Outcome {
  const cursor = optInt(call.flags, "cursor");
  const screen = call.flags.has("screen");
  if (screen && cursor !== undefined) throw invalidArgument("--screen cannot be combined with --cursor");
  const limit = optInt(call.flags, "limit", "invalid_limit") ?? 200;
  const t = findTerminal(call.store.read(), terminalArg(call));
  const from = cursor !== undefined ? Math.min(cursor, t.output.length) : Math.max(0, t.output.length - limit);
  const tail = t.output.slice(from, from + limit);
  const terminal = {
    handle: t.handle,
    status: terminalStatus(t),
    tail,
    truncated: from > 0 || from + tail.length < t.output.length,
    oldestCursor: "0",
    nextCursor: String(from + tail.length),
    latestCursor: String(t.output.length),
    returnedLineCount: tail.length,
    source: screen ? "screen" : "stream",
  };
  return { result: { terminal }, text: tail.join("\n") };
}

/**
 * Faults: `swallow` accepts and counts the bytes but the text never reaches the pane (a TUI that was not ready);
 * `not_accepted` is the real refusal: `accepted:false`, `refusedReason:"no-agent"`, exit 1 with a success envelope.
 */
function send(call: Call): Outcome {
  const text = optString(call.flags, "text");
  const enter = optBool(call.flags, "enter");
  const interrupt = optBool(call.flags, "interrupt");
  if (text === undefined && !enter && !interrupt) throw invalidArgument("Provide --text, --enter or --interrupt.");
  const handle = terminalArg(call);
  const mode = call.fault?.mode;
  const bytes = call.store.tx((s) => {
    const t = findTerminal(s, handle);
    if (!t.alive) throw new SimError("terminal_not_writable", `Terminal ${handle} has exited and cannot be written to.`, { handle });
    if (mode === "not_accepted") return 0;
    const n = Buffer.byteLength(text ?? "") + (enter ? 1 : 0) + (interrupt ? 1 : 0);
    if (mode === "swallow") return n;
    if (interrupt) t.output.push("^C");
    if (text !== undefined) t.output.push(text);
    // A shell that is told `exit` exits: this is how a test makes `terminal wait --for exit` succeed.
    if (enter && text?.trim() === "exit") Object.assign(t, { alive: false, exitCode: 0 });
    t.lastOutputAt = now(call);
    return n;
  });
  if (mode === "not_accepted") {
    const send = { handle, accepted: false, bytesWritten: 0, refusedReason: "no-agent" };
    return { result: { send }, text: `Terminal ${handle} did not accept the input (no-agent).`, exit: 1 };
  }
  return { result: { send: { handle, accepted: true, bytesWritten: bytes } }, text: `Sent ${bytes} bytes to ${handle}.` };
}

export const TERMINAL_COMMANDS: CommandTable = {
  "terminal create": { flags: ["worktree", "title", "command", "focus"], usage: "orca terminal create [--worktree <selector>] [--title <name>] [--command <text>] [--focus] [--json]", run: create },
  "terminal list": { flags: ["worktree", "limit", "include-visual-layouts"], usage: "orca terminal list [--worktree <selector>] [--limit <n>] [--json]", run: list },
  "terminal show": { flags: ["terminal"], usage: "orca terminal show [--terminal <handle>] [--json]", run: show },
  "terminal read": { flags: ["terminal", "cursor", "limit", "screen"], usage: "orca terminal read [--terminal <handle>] [--cursor <n>] [--limit <n>] [--screen] [--json]", run: read },
  "terminal send": {
    flags: ["terminal", "text", "enter", "interrupt", "wait-submit", "retry-request"],
    usage: "orca terminal send [--terminal <handle>] [--text <text>] [--enter] [--interrupt] [--json]",
    run: send,
  },
  ...TERMINAL_LIFECYCLE_COMMANDS,
};
