/**
 * `herdr tab create|list|close`, `herdr workspace create|list|close` (§3.9–3.10) and the simulator-only `fake`
 * group that plays the agent's side in tests: it writes output, exits the agent (leaving a shell prompt, a "dead
 * tab"), sets a status flap cycle or an explicit terminal title, and shows the prompts an agent received. Real herdr
 * has no `fake` group.
 */
import { HerdrUsage } from "./argv.ts";
import { type Call, type CommandDef, findAgent, findPane, type Outcome, shellInit } from "./call.ts";
import { paneInfo, tabInfo, workspaceInfo } from "./info.ts";
import { typeText } from "./keys.ts";
import { HerdrSimError } from "./store.ts";
import { closeTab, newTab, newWorkspace } from "./topology.ts";
import { INTERNAL_STATES, type InternalState } from "./types.ts";

function cwdOf(call: Call): string {
  return call.args.values.get("cwd") ?? call.ctx.cwd;
}

function tabCreate(call: Call): Outcome {
  return call.store.tx((s) => {
    const ws = call.args.values.get("workspace") ?? s.workspaces.find((w) => w.focused)?.workspace_id ?? s.workspaces[0]?.workspace_id;
    if (!ws || !s.workspaces.some((w) => w.workspace_id === ws)) throw new HerdrSimError("workspace_not_found", `workspace ${ws ?? "(none)"} not found`);
    const { tab, pane } = newTab(s, ws, call.args.values.get("label"), cwdOf(call), call.ctx.now(), shellInit(call));
    if (call.args.bools.has("focus")) s.workspaces.find((w) => w.workspace_id === ws)!.active_tab_id = tab.tab_id;
    return { result: { root_pane: paneInfo(pane), tab: tabInfo(s, tab.tab_id), type: "tab_created" } };
  });
}

function tabList(call: Call): Outcome {
  const ws = call.args.values.get("workspace");
  const s = call.store.read();
  if (ws !== undefined && !s.workspaces.some((w) => w.workspace_id === ws)) throw new HerdrSimError("workspace_not_found", `workspace ${ws} not found`);
  return { result: { tabs: s.tabs.filter((t) => ws === undefined || t.workspace_id === ws).map((t) => tabInfo(s, t.tab_id)), type: "tab_list" } };
}

function tabClose(call: Call): Outcome {
  if (call.args.pos.length !== 1) throw new HerdrUsage("usage: herdr tab close <tab_id>");
  call.store.tx((s) => {
    const id = call.args.pos[0]!;
    if (!s.tabs.some((t) => t.tab_id === id)) throw new HerdrSimError("tab_not_found", `tab ${id} not found`);
    closeTab(s, id);
  });
  return { result: { type: "ok" } };
}

function wsCreate(call: Call): Outcome {
  return call.store.tx((s) => {
    const { ws, tab, pane } = newWorkspace(s, call.args.values.get("label"), cwdOf(call), call.ctx.now(), shellInit(call));
    if (call.args.bools.has("focus")) for (const w of s.workspaces) w.focused = w === ws;
    return { result: { root_pane: paneInfo(pane), tab: tabInfo(s, tab.tab_id), type: "workspace_created", workspace: workspaceInfo(s, ws.workspace_id) } };
  });
}

function wsList(call: Call): Outcome {
  const s = call.store.read();
  return { result: { type: "workspace_list", workspaces: s.workspaces.map((w) => workspaceInfo(s, w.workspace_id)) } };
}

function wsClose(call: Call): Outcome {
  call.store.tx((s) => {
    const id = call.args.pos[0]!;
    if (!s.workspaces.some((w) => w.workspace_id === id)) throw new HerdrSimError("workspace_not_found", `workspace ${id} not found`);
    for (const t of s.tabs.filter((x) => x.workspace_id === id)) closeTab(s, t.tab_id);
    s.workspaces = s.workspaces.filter((w) => w.workspace_id !== id);
  });
  return { result: { type: "ok" } };
}

function fakeOutput(call: Call): Outcome {
  const [id, ...words] = call.args.pos;
  call.store.tx((s) => typeText(findPane(s, id!), words.join(" ")));
  return { silent: true };
}

function fakeExit(call: Call): Outcome {
  call.store.tx((s) => {
    const p = findPane(s, call.args.pos[0]!);
    p.agent = null;
    delete p.flap;
    p.output.push(`${p.shell_title.split(":")[0]}$ `);
    p.revision++;
  });
  return { silent: true };
}

function fakeFlap(call: Call): Outcome {
  const [id, cycle] = call.args.pos;
  const states = (cycle ?? "").split(",").filter(Boolean);
  for (const st of states) if (!INTERNAL_STATES.includes(st as InternalState)) throw new HerdrUsage(`invalid value for <states>: ${st}`);
  call.store.tx((s) => {
    const p = findPane(s, id!);
    if (states.length) Object.assign(p, { flap: states, flap_i: 0 });
    else delete p.flap;
  });
  return { silent: true };
}

/** Every prompt the agent received, as submitted: one entry per Enter (a brief sent raw shows one per line). */
function fakePrompts(call: Call): Outcome {
  const p = findAgent(call.store.read(), call.args.pos[0]!);
  return { result: { pending: p.agent?.input ?? "", prompts: p.agent?.prompts ?? [], type: "fake_prompts" } };
}

function fakeTitle(call: Call): Outcome {
  const [id, ...words] = call.args.pos;
  call.store.tx((s) => {
    const p = findPane(s, id!);
    p.title_override = words.length ? words.join(" ") : null;
  });
  return { silent: true };
}

const WS_FLAGS = { values: ["cwd", "label"], multi: ["env"], bools: ["focus", "no-focus"] };

export const TOPOLOGY_COMMANDS: Record<string, CommandDef> = {
  "tab create": { spec: { usage: "herdr tab create [--workspace ID] [--cwd PATH] [--label TEXT] [--env KEY=VALUE] [--focus] [--no-focus]", positionals: [], required: 0, ...WS_FLAGS, values: ["workspace", "cwd", "label"] }, run: tabCreate },
  "tab list": { spec: { usage: "herdr tab list [--workspace ID]", positionals: [], required: 0, values: ["workspace"] }, run: tabList },
  "tab close": { spec: { usage: "herdr tab close <tab_id>", positionals: ["tab_id", "extra..."], required: 1 }, run: tabClose },
  "workspace create": { spec: { usage: "herdr workspace create [--cwd PATH] [--label TEXT] [--env KEY=VALUE] [--focus] [--no-focus]", positionals: [], required: 0, ...WS_FLAGS }, run: wsCreate },
  "workspace list": { spec: { usage: "herdr workspace list", positionals: [], required: 0 }, run: wsList },
  "workspace close": { spec: { usage: "herdr workspace close <workspace_id>", positionals: ["workspace_id"], required: 1 }, run: wsClose },
  "fake output": { spec: { usage: "herdr fake output <pane_id> <text...>", positionals: ["pane_id", "text..."], required: 2 }, run: fakeOutput },
  "fake agent-exit": { spec: { usage: "herdr fake agent-exit <pane_id>", positionals: ["pane_id"], required: 1 }, run: fakeExit },
  "fake flap": { spec: { usage: "herdr fake flap <pane_id> [idle,working,...]", positionals: ["pane_id", "states"], required: 1 }, run: fakeFlap },
  "fake prompts": { spec: { usage: "herdr fake prompts <target>", positionals: ["target"], required: 1 }, run: fakePrompts },
  "fake title": { spec: { usage: "herdr fake title <pane_id> [title...]", positionals: ["pane_id", "title..."], required: 1 }, run: fakeTitle },
};
