// The fake herdr's input shapes (docs/herdr-cli.md §3.5-§3.6, issue 13 §6): `pane send-text` is raw keystrokes (into a
// TUI agent every newline is an Enter, so a multi-line text is submitted line by line), `agent prompt` is one
// bracketed paste plus Enter (one prompt), `pane run` is atomic; a new pane answers `agent_pane_busy` to its first
// N `agent start` calls while its shell starts (HERDR_SIM_SHELL_INIT or the scenario's `shell_init_starts`).
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";

function sim(extra: Record<string, string> = {}) {
  const dir = tempDir("herdr-sim-");
  const env = { HERDR_SIM_STATE: join(dir, "state.json"), HOME: dir, ...extra };
  return Object.assign((...argv: string[]) => runMain(["sim", "herdr", ...argv], { env }), { dir });
}

const BRIEF = "Brief marker: M\n\n- step one\n- step two\n\nBrief marker: M";

async function prompts(h: ReturnType<typeof sim>, target: string): Promise<{ pending: string; prompts: string[] }> {
  const r = await h("fake", "prompts", target);
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout);
  expect(doc.id).toBe("cli:fake:prompts");
  return { pending: doc.result.pending, prompts: doc.result.prompts };
}

describe("herdr simulator: how input reaches an agent", () => {
  test("agent prompt: a multi-line text is ONE prompt; the agent starts working; the answer is agent_prompted", async () => {
    const h = sim();
    await h("workspace", "create");
    await h("agent", "start", "a1", "--kind", "claude", "--pane", "w1:p1");
    const r = await h("agent", "prompt", "a1", BRIEF);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ id: "cli:agent:prompt", result: { type: "agent_prompted", agent: { name: "a1", pane_id: "w1:p1" } } });
    expect(await prompts(h, "a1")).toEqual({ pending: "", prompts: [BRIEF] });
    expect(JSON.parse((await h("agent", "get", "a1")).stdout).result.agent.agent_status).toBe("working");
    // The text is in the pane's output, so a landing read finds it.
    expect((await h("agent", "read", "a1", "--source", "recent-unwrapped")).stdout).toContain("- step two\n");
  });

  test("pane send-text is raw: into a TUI agent each newline submits a line of its own; Enter submits the rest", async () => {
    const h = sim();
    await h("workspace", "create");
    await h("agent", "start", "a1", "--kind", "claude", "--pane", "w1:p1");
    expect((await h("pane", "send-text", "w1:p1", BRIEF)).stdout).toBe("");
    expect(await prompts(h, "w1:p1")).toEqual({ pending: "Brief marker: M", prompts: ["Brief marker: M", "", "- step one", "- step two", ""].filter(Boolean) });
    await h("pane", "send-keys", "w1:p1", "enter");
    expect((await prompts(h, "w1:p1")).prompts).toHaveLength(4);
  });

  test("pane run is atomic (bracketed paste): one prompt; into a shell it is a command line", async () => {
    const h = sim();
    await h("workspace", "create");
    await h("pane", "split", "w1:p1", "--direction", "right");
    await h("agent", "start", "a1", "--kind", "claude", "--pane", "w1:p1");
    await h("pane", "run", "w1:p1", "two\nlines");
    expect((await prompts(h, "a1")).prompts).toEqual(["two\nlines"]);
    await h("pane", "run", "w1:p2", "ls");
    expect((await h("pane", "read", "w1:p2")).stdout).toBe("$ ls\n");
    // A shell has no agent: no prompts to show.
    expect(JSON.parse((await h("fake", "prompts", "w1:p2")).stderr).error.code).toBe("agent_not_found");
  });

  test("agent prompt refuses an unnamed (detected) agent, an empty text, and swallow loses it silently", async () => {
    const h = sim({ HERDR_SIM_FAULT: "agent prompt=swallow" });
    await h("workspace", "create");
    await h("pane", "report-agent", "w1:p1", "--source", "t", "--agent", "claude", "--state", "idle");
    expect(JSON.parse((await h("agent", "prompt", "w1:p1", "hi")).stderr).error.code).toBe("agent_not_ready");
    await h("pane", "split", "w1:p1", "--direction", "down");
    await h("agent", "start", "a2", "--kind", "claude", "--pane", "w1:p2");
    expect(JSON.parse((await h("agent", "prompt", "a2", " ")).stderr).error.code).toBe("empty_agent_prompt");
    expect((await h("agent", "prompt", "a2", "lost")).code).toBe(0);
    expect(await prompts(h, "a2")).toEqual({ pending: "", prompts: [] });
  });
});

describe("herdr simulator: a new pane's shell is still starting", () => {
  test("HERDR_SIM_SHELL_INIT=2: agent start on a new tab's pane is agent_pane_busy twice, then starts", async () => {
    const h = sim({ HERDR_SIM_SHELL_INIT: "2" });
    await h("workspace", "create");
    const tab = JSON.parse((await h("tab", "create", "--workspace", "w1", "--no-focus")).stdout).result.root_pane.pane_id;
    for (let i = 0; i < 2; i++) {
      const r = await h("agent", "start", "a1", "--kind", "claude", "--pane", tab);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stderr)).toEqual({ error: { code: "agent_pane_busy", message: `agent target pane ${tab} is not an available shell` }, id: "cli:agent:start" });
    }
    expect(JSON.parse((await h("agent", "start", "a1", "--kind", "claude", "--pane", tab)).stdout).result.type).toBe("agent_started");
  });

  test("a scenario's shell_init_starts applies to every pane made later (tab create, pane split), not to seeded panes", async () => {
    const dir = tempDir("herdr-scn-");
    const scenario = join(dir, "s.json");
    writeFileSync(scenario, JSON.stringify({ workspaces: [{ workspace_id: "w1" }], panes: [{ pane_id: "w1:p1" }], shell_init_starts: 1 }));
    const h = sim({ HERDR_SIM_SCENARIO: scenario });
    expect((await h("agent", "start", "a0", "--kind", "claude", "--pane", "w1:p1")).code).toBe(0);
    const tab = JSON.parse((await h("tab", "create", "--workspace", "w1")).stdout).result.root_pane.pane_id;
    const split = JSON.parse((await h("pane", "split", tab, "--direction", "right")).stdout).result.pane.pane_id;
    for (const p of [tab, split]) {
      expect(JSON.parse((await h("agent", "start", `a-${p.replace(":", "")}`.toLowerCase(), "--kind", "claude", "--pane", p)).stderr).error.code).toBe("agent_pane_busy");
      expect((await h("agent", "start", `a-${p.replace(":", "")}`.toLowerCase(), "--kind", "claude", "--pane", p)).code).toBe(0);
    }
  });
});
