// Briefs land whole on herdr (issue 13 §6), through the compiled binary and the herdr simulator: a spawned agent
// gets its multi-line brief as ONE `agent prompt` (raw `pane send-text` would submit it line by line), an
// `agent_pane_busy` right after `tab create` is retried with a bounded backoff, and the landing evidence names the
// source actually read (recent output, or the visible screen of a working alternate-screen agent).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnArgs, spawnOk, world } from "../cases/workers.ts";

function calls(log: string): string[][] {
  return readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).argv as string[]);
}

test("herdr: the brief reaches the agent as one `agent prompt`, whole; the evidence names the recent output", async () => {
  const w = await world("herdr");
  const s = await spawnOk(w, { name: "whole-brief" });
  const r = await w.run(["sim", "herdr", "fake", "prompts", s.pane_id]);
  const brief = readFileSync(join(s.inbox, "brief.md"), "utf8");
  expect(brief.split("\n").length).toBeGreaterThan(10);
  // Exactly one prompt, byte for byte the brief (newlines inside it), nothing left pending.
  expect(JSON.parse(r.stdout).result).toEqual({ pending: "", prompts: [brief], type: "fake_prompts" });
  expect(s.landing).toMatchObject({ landed: true, attempts: 1, evidence: `marker ${s.marker} in the pane's recent output (herdr agent read --source recent-unwrapped)` });
});

test("herdr: no `pane send-text` to an agent pane; the call log shows agent get + agent prompt", async () => {
  const w = await world("herdr");
  const log = join(w.dir, "herdr-calls.jsonl");
  const r = await w.run(spawnArgs(w, { name: "logged" }), { HERDR_SIM_CALL_LOG: log });
  expect(r.code).toBe(0);
  const paths = calls(log).map((a) => a.slice(0, 2).join(" "));
  expect(paths).toContain("agent prompt");
  expect(paths).not.toContain("pane send-text");
  expect(paths).not.toContain("pane send-keys");
  const prompt = calls(log).find((a) => a[0] === "agent" && a[1] === "prompt")!;
  expect(prompt).toHaveLength(4);
  expect(prompt[3]).toContain("\n");
});

test("herdr: agent_pane_busy twice after tab create is retried and the agent starts; past the bound the spawn fails cleanly", async () => {
  const w = await world("herdr");
  const log = join(w.dir, "herdr-calls.jsonl");
  const ok = await w.run(spawnArgs(w, { name: "busy-twice" }), { HERDR_SIM_SHELL_INIT: "2", HERDR_SIM_CALL_LOG: log });
  expect(ok.code).toBe(0);
  expect(JSON.parse(ok.stdout).landing.landed).toBe(true);
  expect(calls(log).filter((a) => a[0] === "agent" && a[1] === "start")).toHaveLength(3);

  const fail = await w.run(spawnArgs(w, { name: "busy-always", issue: "other" }), { HERDR_SIM_SHELL_INIT: "50" });
  expect(fail.code).toBe(1);
  expect(fail.stderr).toMatch(/^worker spawn: herdr could not start the agent: .*agent_pane_busy.* \(worktree removed\)\n$/);
  // The pane it made is closed: only the workspace's root pane and the first worker remain.
  const panes = JSON.parse((await w.herdr("pane", "list")).stdout).result.panes.map((p: { pane_id: string }) => p.pane_id);
  expect(panes).toHaveLength(2);
});

test("herdr: a working alternate-screen agent refuses the history read; the evidence names the visible screen", async () => {
  const w = await world("herdr", { HERDR_SIM_ALT_SCREEN: "claude" });
  const s = await spawnOk(w, { name: "alt-screen" });
  expect(s.landing).toMatchObject({ landed: true, evidence: `marker ${s.marker} in the pane's visible screen (herdr agent read --source visible: the working agent refused a history read)` });
});
