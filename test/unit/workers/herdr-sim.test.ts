// The fake herdr, in process: 0.8.x output shapes (docs/herdr-cli.md §2-§3), ids, statuses, faults.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";
import { base32 } from "../../../src/developer/sim/herdr/ids.ts";

function sim(extra: Record<string, string> = {}) {
  const dir = tempDir("herdr-sim-");
  const env = { HERDR_SIM_STATE: join(dir, "state.json"), HOME: dir, ...extra };
  return (...argv: string[]) => runMain(["sim", "herdr", ...argv], { env });
}

describe("herdr simulator", () => {
  test("ids are bijective base-32 over herdr's alphabet", () => {
    expect([1, 9, 10, 16, 31, 32, 33, 38, 64].map(base32)).toEqual(["1", "9", "A", "G", "Z", "0", "11", "16", "10"]);
  });

  test("success is one compact JSON line with sorted keys and `type` inside result", async () => {
    const h = sim();
    const r = await h("workspace", "create", "--label", "workers", "--cwd", "/tmp");
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith("}\n")).toBe(true);
    expect(r.stdout.split("\n")).toHaveLength(2);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["id", "result"]);
    expect(doc.id).toBe("cli:workspace:create");
    expect(Object.keys(doc.result)).toEqual(["root_pane", "tab", "type", "workspace"]);
    expect(doc.result.root_pane).toMatchObject({ pane_id: "w1:p1", tab_id: "w1:t1", workspace_id: "w1", agent_status: "unknown" });
    expect(Object.keys(doc.result.root_pane)).toEqual([...Object.keys(doc.result.root_pane)].sort());
  });

  test("agent start: 0.8 syntax, name rule, taken name with candidates, busy pane, timeout range", async () => {
    const h = sim();
    await h("workspace", "create", "--cwd", "/repo");
    expect((await h("agent", "start", "fix-1", "--kind", "claude", "--pane", "w1:p1", "--", "--model", "opus")).stdout).toContain('"argv":["claude","--model","opus"],"type":"agent_started"');
    const taken = await h("agent", "start", "fix-1", "--kind", "claude", "--pane", "w1:p1");
    expect(taken.code).toBe(1);
    expect(taken.stdout).toBe("");
    expect(JSON.parse(taken.stderr)).toEqual({
      error: { code: "agent_name_taken", message: expect.stringMatching(/^agent name fix-1 is already used; candidates: terminal_id=term_\w+ pane_id=w1:p1 workspace_id=w1 tab_id=w1:t1 cwd=\/repo status=Idle$/) },
      id: "cli:agent:start",
    });
    expect(JSON.parse((await h("agent", "start", "Bad", "--kind", "claude", "--pane", "w1:p1")).stderr).error.code).toBe("invalid_agent_name");
    expect(JSON.parse((await h("agent", "start", "other", "--kind", "claude", "--pane", "w1:p1")).stderr).error.code).toBe("agent_pane_busy");
    expect(JSON.parse((await h("agent", "start", "other", "--kind", "claude", "--pane", "w9:p1")).stderr).error.code).toBe("agent_pane_not_found");
    const usage = await h("agent", "start", "other", "--kind", "nope", "--pane", "w1:p1");
    expect(usage).toMatchObject({ code: 2, stderr: "unsupported interactive agent kind: nope\n" });
    expect((await h("agent", "start", "other", "--pane", "w1:p1")).stderr).toBe("missing required --kind\n");
    expect((await h("agent", "start", "--cwd", "/x")).stderr).toBe("unknown option: --cwd\n");
  });

  test("done = idle not yet seen; focus marks it seen; reads never do", async () => {
    const h = sim();
    await h("workspace", "create");
    await h("agent", "start", "a1", "--kind", "codex", "--pane", "w1:p1");
    await h("pane", "send-text", "w1:p1", "do it");
    await h("pane", "send-keys", "w1:p1", "enter");
    expect(JSON.parse((await h("agent", "get", "a1")).stdout).result.agent.agent_status).toBe("working");
    await h("pane", "report-agent", "w1:p1", "--source", "t", "--agent", "codex", "--state", "idle");
    await h("agent", "read", "a1");
    expect(JSON.parse((await h("agent", "get", "a1")).stdout).result.agent.agent_status).toBe("done");
    await h("agent", "focus", "a1");
    expect(JSON.parse((await h("agent", "get", "a1")).stdout).result.agent.agent_status).toBe("idle");
  });

  test("reads print raw text; bad read source escapes as a Rust io::Error (exit 1)", async () => {
    const h = sim();
    await h("workspace", "create");
    await h("agent", "start", "a1", "--kind", "claude", "--pane", "w1:p1");
    await h("pane", "send-text", "w1:p1", "line one\nmarker-XYZ");
    const r = await h("agent", "read", "a1", "--source", "recent-unwrapped", "--lines", "2");
    expect(r).toMatchObject({ code: 0, stdout: "line one\nmarker-XYZ\n" });
    expect(await h("agent", "read", "a1", "--source", "foo")).toMatchObject({ code: 1, stderr: 'Error: Custom { kind: Other, error: "invalid read source: foo" }\n' });
    expect((await h("pane", "read", "w1:p1", "--source", "foo")).code).toBe(2);
    const w = await h("pane", "wait-output", "w1:p1", "--match", "marker-XYZ", "--timeout", "100");
    expect(JSON.parse(w.stdout).result).toMatchObject({ matched_line: "marker-XYZ", type: "output_matched" });
    const t = await h("pane", "wait-output", "w1:p1", "--match", "never", "--timeout", "60");
    expect(JSON.parse(t.stderr)).toEqual({ error: { code: "timeout", message: "timed out waiting for output match" }, id: "cli:pane:wait-output" });
    await h("pane", "report-agent", "w1:p1", "--source", "t", "--agent", "claude", "--state", "working");
    const aw = await h("agent", "wait", "a1", "--until", "idle", "--timeout", "60");
    expect(JSON.parse(aw.stderr)).toEqual({ error: { code: "timeout", message: "timed out waiting for agent status" }, id: "cli:agent:wait" });
    await h("pane", "report-agent", "w1:p1", "--source", "t", "--agent", "claude", "--state", "idle");
    // Not yet seen, so `done`: the default --until (idle, done, blocked) takes it.
    const ok = await h("agent", "wait", "a1", "--timeout", "60");
    expect(JSON.parse(ok.stdout).result).toMatchObject({ type: "agent_info", agent: { name: "a1", agent_status: "done" } });
  });

  test("pane close closes one pane; the last pane takes its tab and workspace; ids are never reused", async () => {
    const h = sim();
    await h("workspace", "create");
    await h("pane", "split", "w1:p1", "--direction", "right");
    expect(await h("pane", "close", "w1:p2")).toMatchObject({ code: 0, stdout: '{"id":"cli:pane:close","result":{"type":"ok"}}\n' });
    expect((await h("pane", "close", "a", "b")).stderr).toBe("usage: herdr pane close <pane_id>\n");
    expect(JSON.parse((await h("pane", "split", "w1:p1", "--direction", "down")).stdout).result.pane.pane_id).toBe("w1:p3");
    await h("pane", "close", "w1:p1");
    await h("pane", "close", "w1:p3");
    expect(JSON.parse((await h("workspace", "list")).stdout).result.workspaces).toEqual([]);
    expect(JSON.parse((await h("workspace", "create")).stdout).result.workspace.workspace_id).toBe("w2");
  });

  test("flapping, faults, no server, no `agent status`", async () => {
    const h = sim();
    await h("workspace", "create");
    await h("agent", "start", "a1", "--kind", "claude", "--pane", "w1:p1");
    await h("fake", "flap", "w1:p1", "idle,working");
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(JSON.parse((await h("pane", "get", "w1:p1")).stdout).result.pane.agent_status);
    expect(seen).toEqual(["idle", "working", "idle", "working"]);
    expect((await h("agent", "status", "a1")).code).toBe(2);
    const swallow = sim({ HERDR_SIM_FAULT: "pane send-text=swallow,pane list=error:internal_error,agent list=exit:7" });
    await swallow("workspace", "create");
    expect((await swallow("pane", "send-text", "w1:p1", "lost")).code).toBe(0);
    expect((await swallow("pane", "read", "w1:p1")).stdout).toBe("");
    expect((await swallow("pane", "list")).code).toBe(1);
    expect((await swallow("agent", "list")).code).toBe(7);
    expect((await sim({ HERDR_SIM_FAULT: "pane list=bogus" })("pane", "list")).stderr).toContain("unknown mode 'bogus'");
    const scenario = join(tempDir("herdr-scn-"), "s.json");
    writeFileSync(scenario, JSON.stringify({ faults: [{ command: "pane list", mode: "swallo" }] }));
    const typo = await sim({ HERDR_SIM_SCENARIO: scenario })("pane", "list");
    expect(typo.code).toBe(1);
    expect(JSON.parse(typo.stderr).error.message).toContain("scenario fault for 'pane list': unknown mode 'swallo'");
    // A typo is an error, never a silently different fault (exit:1:2 used to inject exit 1).
    expect((await sim({ HERDR_SIM_FAULT: "pane list=exit:1:2" })("pane", "list")).stderr).toContain("'pane list=exit:1:2' has more than one ':arg'");
    const off = await runMain(["sim", "herdr", "pane", "list"], { env: { HOME: "/h" } });
    expect(JSON.parse(off.stderr).error.code).toBe("server_not_running");
    expect(off.code).toBe(1);
  });
});
