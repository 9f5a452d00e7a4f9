/** `herdr agent list|get|start|read|wait|send-keys|focus` (docs/herdr-cli.md §3.1–3.5), 0.8.x shapes. */
import { AGENT_EXECUTABLES } from "../../../lib/host/types.ts";
import { HerdrUsage, intFlag } from "./argv.ts";
import { advanceFlaps, type Call, type CommandDef, findAgent, findPane, type Outcome, pollUntil, READ_SOURCES, readText } from "./call.ts";
import { agentInfo, agentStatus } from "./info.ts";
import { pasteText, pressKeys } from "./keys.ts";
import { HerdrSimError } from "./store.ts";

/** Canonical kind -> executable (herdr's own table, the one mogui's host adapter uses); aliases map to their canonical kind. */
const AGENT_KINDS = AGENT_EXECUTABLES;
const ALIASES: Record<string, string> = {
  "claude-code": "claude",
  "cursor-agent": "cursor",
  antigravity: "agy",
  "github-copilot": "copilot",
  "kiro-cli": "kiro",
  "grok-build": "grok",
};
const NAME_RE = /^[a-z][a-z0-9_-]{0,31}$/;
const DEBUG_STATUS: Record<string, string> = { idle: "Idle", working: "Working", blocked: "Blocked", done: "Done", unknown: "Unknown" };

function list(call: Call): Outcome {
  return call.store.tx((s) => {
    const panes = s.panes.filter((p) => p.agent);
    const agents = panes.map(agentInfo);
    advanceFlaps(panes);
    return { result: { agents, type: "agent_list" } };
  });
}

function get(call: Call): Outcome {
  return call.store.tx((s) => {
    const p = findAgent(s, call.args.pos[0]!);
    const agent = agentInfo(p);
    advanceFlaps([p]);
    return { result: { agent, type: "agent_info" } };
  });
}

function start(call: Call): Outcome {
  const { pos, values, rest } = call.args;
  const name = pos[0]!;
  const rawKind = values.get("kind");
  const paneArg = values.get("pane");
  if (rawKind === undefined) throw new HerdrUsage("missing required --kind");
  if (paneArg === undefined) throw new HerdrUsage("missing required --pane");
  const kind = ALIASES[rawKind] ?? rawKind;
  if (!AGENT_KINDS[kind]) throw new HerdrUsage(`unsupported interactive agent kind: ${rawKind}`);
  const timeout = intFlag(call.args, "timeout");
  const out = call.store.tx((s): Outcome | "shell_starting" => {
    if (!NAME_RE.test(name)) {
      throw new HerdrSimError("invalid_agent_name", "agent name must start with a lowercase letter and contain only lowercase letters, digits, '-' or '_' (1-32 characters)");
    }
    if (rest.some((a) => /[\u0000-\u001f\u007f]/.test(a))) throw new HerdrSimError("invalid_agent_argument", "agent arguments cannot be encoded safely for the target shell");
    const holders = s.panes.filter((p) => p.agent?.name === name);
    if (holders.length) {
      const c = holders.map((p) => `terminal_id=${p.terminal_id} pane_id=${p.pane_id} workspace_id=${p.workspace_id} tab_id=${p.tab_id} cwd=${p.cwd || "unknown"} status=${DEBUG_STATUS[agentStatus(p)]}`);
      throw new HerdrSimError("agent_name_taken", `agent name ${name} is already used; candidates: ${c.join("; ")}`);
    }
    const p = findPane(s, paneArg, "agent_pane_not_found");
    if (p.agent || p.title_override) throw new HerdrSimError("agent_pane_busy", `agent target pane ${paneArg} is not an available shell`);
    // A new pane's shell is still starting: herdr 0.8.0 answers busy (and does not retry); the countdown persists.
    if (p.shell_init) {
      p.shell_init--;
      return "shell_starting";
    }
    if (timeout !== undefined && (timeout <= 3000 || timeout > 300_000)) {
      throw new HerdrSimError("invalid_agent_timeout", "agent start timeout must be greater than 3000ms and at most 300000ms");
    }
    const argv = [AGENT_KINDS[kind]!, ...rest];
    p.agent = { kind, name, state: "idle", seen: true, state_change_seq: 1, interactive_ready: true, argv };
    // HERDR_SIM_ALT_SCREEN=codex,...: agents of these kinds draw on the alternate screen (history refused while working).
    if ((call.ctx.env.HERDR_SIM_ALT_SCREEN ?? "").split(",").includes(kind)) p.agent.alt_screen = true;
    p.output.push(`$ ${argv.join(" ")}`, `${kind} (herdr simulator) ready`);
    p.revision++;
    return { result: { agent: agentInfo(p), argv, type: "agent_started" } };
  });
  if (out === "shell_starting") throw new HerdrSimError("agent_pane_busy", `agent target pane ${paneArg} is not an available shell`);
  return out;
}

function sourceOf(call: Call): string {
  const source = call.args.values.get("source") ?? "recent";
  if (!READ_SOURCES.includes(source)) throw new HerdrSimError("io", `invalid read source: ${source}`);
  return source;
}

function read(call: Call): Outcome {
  const source = sourceOf(call);
  const rawLines = call.args.values.get("lines");
  if (rawLines !== undefined && !/^\d+$/.test(rawLines)) throw new HerdrSimError("io", `invalid line count: ${rawLines}`);
  const lines = rawLines === undefined ? undefined : Number(rawLines);
  const p = findAgent(call.store.read(), call.args.pos[0]!);
  if (p.agent?.alt_screen && source.startsWith("recent") && agentStatus(p) === "working" && (lines ?? 80) > 24) {
    throw new HerdrSimError("agent_not_idle", `cannot read ${lines ?? 80} lines while ${p.agent.name ?? p.pane_id} is working: its alternate-screen history can only be captured by scrolling while idle. Wait and retry, or use --source visible`);
  }
  return { text: readText(p, source, lines) };
}

const STATUSES = ["idle", "working", "blocked", "done", "unknown"];

async function wait(call: Call): Promise<Outcome> {
  const until = call.args.multi.get("until") ?? ["idle", "done", "blocked"];
  for (const u of until) if (!STATUSES.includes(u)) throw new HerdrUsage(`invalid agent status: ${u} (expected idle, working, blocked, done, or unknown)`);
  const timeout = intFlag(call.args, "timeout");
  const target = call.args.pos[0]!;
  const first = findAgent(call.store.read(), target);
  const hit = await pollUntil(timeout, "agent status", () =>
    call.store.tx((s) => {
      const p = s.panes.find((x) => x.pane_id === first.pane_id);
      if (!p?.agent) throw new HerdrSimError("agent_not_running", "agent is no longer running in the target pane");
      const ok = until.includes(agentStatus(p));
      const agent = agentInfo(p);
      advanceFlaps([p]);
      return ok ? agent : undefined;
    }),
  );
  return { result: { agent: hit, type: "agent_info" } };
}

/** `agent prompt <target> <text>`: text is always args[1]; types it and submits it; `--wait` waits like `agent wait`. */
async function prompt(call: Call): Promise<Outcome> {
  const wantWait = call.args.bools.has("wait");
  if (!wantWait && call.args.multi.has("until")) throw new HerdrUsage("--until requires --wait");
  if (!wantWait && call.args.values.has("timeout")) throw new HerdrUsage("--timeout requires --wait");
  const [target, text] = call.args.pos;
  const agent = call.store.tx((s) => {
    const p = findAgent(s, target!);
    if (!text?.trim()) throw new HerdrSimError("empty_agent_prompt", "agent prompt text must not be empty");
    if (!p.agent?.name) throw new HerdrSimError("agent_not_ready", `agent ${target} is not an active named agent`);
    if (p.agent.state === "blocked") throw new HerdrSimError("agent_blocked", `agent ${target} is blocked and requires interactive input`);
    if (call.fault?.mode !== "swallow") {
      pasteText(p, text);
      pressKeys(p, ["enter"]);
    }
    return agentInfo(p);
  });
  if (wantWait) return wait(call);
  return { result: { agent, type: "agent_prompted" } };
}

function sendKeys(call: Call): Outcome {
  call.store.tx((s) => pressKeys(findAgent(s, call.args.pos[0]!), call.args.pos.slice(1)));
  return { result: { type: "ok" } };
}

function focus(call: Call): Outcome {
  return call.store.tx((s) => {
    const p = findAgent(s, call.args.pos[0]!);
    for (const q of s.panes) q.focused = q === p;
    p.agent!.seen = true;
    return { result: { agent: agentInfo(p), type: "agent_info" } };
  });
}

const READ_FLAGS = { values: ["source", "lines", "format"], bools: ["ansi"] };

export const AGENT_COMMANDS: Record<string, CommandDef> = {
  "agent list": { spec: { usage: "herdr agent list", positionals: [], required: 0 }, run: list },
  "agent get": { spec: { usage: "herdr agent get <target>", positionals: ["target"], required: 1 }, run: get },
  "agent start": {
    spec: { usage: "herdr agent start <name> --kind KIND --pane ID [--timeout MS] [-- <agent-args...>]", positionals: ["name"], required: 1, values: ["kind", "pane", "timeout"], dashdash: true },
    run: start,
  },
  "agent read": { spec: { usage: "herdr agent read <target> [--source visible|recent|recent-unwrapped|detection] [--lines N] [--format text|ansi] [--ansi]", positionals: ["target"], required: 1, ...READ_FLAGS }, run: read },
  "agent wait": { spec: { usage: "herdr agent wait <target> [--until STATUS]... [--timeout MS]", positionals: ["target"], required: 1, values: ["timeout"], multi: ["until"] }, run: wait },
  "agent prompt": { spec: { usage: "herdr agent prompt <target> <text> [--wait] [--until STATUS]... [--timeout MS]", positionals: ["target", "text"], required: 2, values: ["timeout"], multi: ["until"], bools: ["wait"] }, run: prompt },
  "agent send-keys": { spec: { usage: "herdr agent send-keys <target> <key> [key ...]", positionals: ["target", "keys..."], required: 2 }, run: sendKeys },
  "agent focus": { spec: { usage: "herdr agent focus <target>", positionals: ["target"], required: 1 }, run: focus },
};
