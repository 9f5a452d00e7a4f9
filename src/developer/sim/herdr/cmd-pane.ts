/** `herdr pane list|get|read|close|split|send-text|send-keys|run|wait-output|report-agent|focus` (§3.6–3.8). */
import { HerdrUsage, intFlag } from "./argv.ts";
import { advanceFlaps, type Call, type CommandDef, findPane, type Outcome, pollUntil, READ_SOURCES, readText, shellInit } from "./call.ts";
import { paneInfo } from "./info.ts";
import { pasteText, pressKeys, setState, typeRaw, typeText } from "./keys.ts";
import { HerdrSimError } from "./store.ts";
import { closePane, newPane } from "./topology.ts";
import { INTERNAL_STATES, type InternalState } from "./types.ts";
import { errorMessage } from "../../../lib/errors.ts";

function list(call: Call): Outcome {
  const ws = call.args.values.get("workspace");
  return call.store.tx((s) => {
    if (ws !== undefined && !s.workspaces.some((w) => w.workspace_id === ws)) throw new HerdrSimError("workspace_not_found", `workspace ${ws} not found`);
    const panes = s.panes.filter((p) => ws === undefined || p.workspace_id === ws);
    const out = panes.map(paneInfo);
    advanceFlaps(panes);
    return { result: { panes: out, type: "pane_list" } };
  });
}

function get(call: Call): Outcome {
  return call.store.tx((s) => {
    const p = findPane(s, call.args.pos[0]!);
    const pane = paneInfo(p);
    advanceFlaps([p]);
    return { result: { pane, type: "pane_info" } };
  });
}

/** 0.8.2: bad read values are usage errors (exit 2) for `pane read` and `pane wait-output`. */
function source(call: Call): string {
  const src = call.args.values.get("source") ?? "recent";
  if (!READ_SOURCES.includes(src)) throw new HerdrUsage(`invalid value for --source: ${src}`);
  return src;
}

function read(call: Call): Outcome {
  const src = source(call);
  const lines = intFlag(call.args, "lines");
  return { text: readText(findPane(call.store.read(), call.args.pos[0]!), src, lines) };
}

function close(call: Call): Outcome {
  if (call.args.pos.length !== 1) throw new HerdrUsage("usage: herdr pane close <pane_id>");
  call.store.tx((s) => closePane(s, findPane(s, call.args.pos[0]!)));
  return { result: { type: "ok" } };
}

function split(call: Call): Outcome {
  const dir = call.args.values.get("direction");
  if (dir === undefined) throw new HerdrUsage("missing required --direction");
  if (dir !== "right" && dir !== "down") throw new HerdrUsage(`invalid value for --direction: ${dir}`);
  const target = call.args.pos[0] ?? call.args.values.get("pane") ?? call.ctx.env.HERDR_PANE_ID;
  if (!target) throw new HerdrUsage("usage: herdr pane split [<pane_id>|--pane ID|--current] --direction right|down");
  return call.store.tx((s) => {
    const from = findPane(s, target);
    const p = newPane(s, from.workspace_id, from.tab_id, call.args.values.get("cwd") ?? from.cwd, call.ctx.now(), shellInit(call));
    if (call.args.bools.has("focus")) for (const q of s.panes) q.focused = q === p;
    return { result: { pane: paneInfo(p), type: "pane_info" } };
  });
}

function sendText(call: Call): Outcome {
  const [id, ...words] = call.args.pos;
  call.store.tx((s) => {
    const p = findPane(s, id!);
    // `swallow`: herdr answered OK but the text never reached the agent (a cold-start loss).
    if (call.fault?.mode !== "swallow") typeRaw(p, words.join(" "));
  });
  return { silent: true };
}

function sendKeys(call: Call): Outcome {
  const [id, ...keys] = call.args.pos;
  call.store.tx((s) => {
    const p = findPane(s, id!);
    if (call.fault?.mode !== "swallow") pressKeys(p, keys);
  });
  return { silent: true };
}

function run(call: Call): Outcome {
  const [id, ...words] = call.args.pos;
  call.store.tx((s) => {
    const p = findPane(s, id!);
    if (call.fault?.mode === "swallow") return;
    // Atomic, honouring bracketed paste: an agent gets the command as one input.
    if (p.agent) pasteText(p, words.join(" "));
    else typeText(p, `$ ${words.join(" ")}`);
    pressKeys(p, ["enter"]);
  });
  return { silent: true };
}

async function waitOutput(call: Call): Promise<Outcome> {
  const match = call.args.values.get("match");
  const regex = call.args.values.get("regex");
  if (match === undefined && regex === undefined) throw new HerdrUsage("missing required --match or --regex");
  if (match !== undefined && regex !== undefined) throw new HerdrUsage("--match and --regex are mutually exclusive");
  const src = source(call);
  const lines = intFlag(call.args, "lines");
  const timeout = intFlag(call.args, "timeout");
  let re: RegExp | undefined;
  if (regex !== undefined) {
    try {
      re = new RegExp(regex);
    } catch (e) {
      throw new HerdrSimError("invalid_regex", errorMessage(e));
    }
  }
  const id = call.args.pos[0]!;
  return pollUntil(timeout, "output match", (): Outcome | undefined => {
    const p = findPane(call.store.read(), id);
    const text = readText(p, src === "recent" ? "recent-unwrapped" : src, lines);
    const line = text.split("\n").find((l) => (re ? re.test(l) : l.includes(match!)));
    if (line === undefined) return undefined;
    const readRes = { format: "text", pane_id: id, revision: p.revision, source: src.replace("-", "_"), tab_id: p.tab_id, text, truncated: false, workspace_id: p.workspace_id };
    return { result: { matched_line: line, pane_id: id, read: readRes, revision: p.revision, type: "output_matched" } };
  });
}

function reportAgent(call: Call): Outcome {
  const state = call.args.values.get("state");
  const agent = call.args.values.get("agent");
  if (call.args.values.get("source") === undefined) throw new HerdrUsage("missing required --source");
  if (agent === undefined) throw new HerdrUsage("missing required --agent");
  if (state === undefined) throw new HerdrUsage("missing required --state");
  if (!INTERNAL_STATES.includes(state as InternalState)) throw new HerdrUsage(`invalid value for --state: ${state}`);
  call.store.tx((s) => {
    const p = findPane(s, call.args.pos[0]!);
    p.agent ??= { kind: agent, name: null, state: "unknown", seen: true, state_change_seq: 0, interactive_ready: false, argv: [agent] };
    setState(p, state as InternalState);
  });
  return { silent: true };
}

function focus(call: Call): Outcome {
  return call.store.tx((s) => {
    const p = findPane(s, call.args.pos[0]!);
    for (const q of s.panes) q.focused = q === p;
    if (p.agent) p.agent.seen = true;
    return { result: { pane: paneInfo(p), type: "pane_info" } };
  });
}

const READ = { values: ["source", "lines", "format"], bools: ["ansi", "raw"] };

export const PANE_COMMANDS: Record<string, CommandDef> = {
  "pane list": { spec: { usage: "herdr pane list [--workspace <workspace_id>]", positionals: [], required: 0, values: ["workspace"] }, run: list },
  "pane get": { spec: { usage: "herdr pane get <pane_id>", positionals: ["pane_id"], required: 1 }, run: get },
  "pane read": { spec: { usage: "herdr pane read <pane_id> [--source visible|recent|recent-unwrapped|detection] [--lines N] [--format text|ansi] [--ansi] [--raw]", positionals: ["pane_id"], required: 1, ...READ }, run: read },
  "pane close": { spec: { usage: "herdr pane close <pane_id>", positionals: ["pane_id", "extra..."], required: 1 }, run: close },
  "pane split": {
    spec: {
      usage: "herdr pane split [<pane_id>|--pane ID|--current] --direction right|down [--ratio FLOAT] [--cwd PATH] [--env KEY=VALUE] [--focus] [--no-focus]",
      positionals: ["pane_id"],
      required: 0,
      values: ["pane", "direction", "ratio", "cwd"],
      multi: ["env"],
      bools: ["current", "focus", "no-focus"],
    },
    run: split,
  },
  "pane send-text": { spec: { usage: "herdr pane send-text <pane_id> <text...>", positionals: ["pane_id", "text..."], required: 2 }, run: sendText },
  "pane send-keys": { spec: { usage: "herdr pane send-keys <pane_id> <key> [key ...]", positionals: ["pane_id", "keys..."], required: 2 }, run: sendKeys },
  "pane run": { spec: { usage: "herdr pane run <pane_id> <command...>", positionals: ["pane_id", "command..."], required: 2 }, run },
  "pane wait-output": {
    spec: {
      usage: "herdr pane wait-output <pane_id> (--match TEXT | --regex PATTERN) [--source visible|recent|recent-unwrapped] [--lines N] [--timeout MS] [--raw]",
      positionals: ["pane_id"],
      required: 1,
      values: ["match", "regex", "source", "lines", "timeout"],
      bools: ["raw"],
    },
    run: waitOutput,
  },
  "pane report-agent": {
    spec: {
      usage: "herdr pane report-agent <pane_id> --source ID --agent LABEL --state idle|working|blocked|unknown [--message TEXT] [--seq N]",
      positionals: ["pane_id"],
      required: 1,
      values: ["source", "agent", "state", "message", "seq", "agent-session-id", "agent-session-path"],
    },
    run: reportAgent,
  },
  "pane focus": { spec: { usage: "herdr pane focus <pane_id>", positionals: ["pane_id"], required: 1 }, run: focus },
};
