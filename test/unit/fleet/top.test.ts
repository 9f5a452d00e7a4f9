/** mogui top's pure parts: state classification, grouping and order, column layout, the diffed screen, keys. */
import { describe, expect, test } from "bun:test";
import { classify, GROUPS, stateLabel, type Facts, type TopGroup, type TopState } from "../../../src/fleet/top/classify.ts";
import { refreshRunner } from "../../../src/fleet/top/collect.ts";
import { COLUMNS, displayWidth, fit, layout } from "../../../src/fleet/top/layout.ts";
import { initialView, ordered, renderOnce, renderScreen, visibleWidth } from "../../../src/fleet/top/render.ts";
import type { TopFrame, TopRow } from "../../../src/fleet/top/row.ts";
import { Screen } from "../../../src/fleet/top/screen.ts";
import { splitKeys } from "../../../src/fleet/top/tui.ts";
import { prng } from "../../helpers/prng.ts";

const base: Facts = { record: "job", open: true, status: "running", pane: "live", paneStatus: "working", report: false, verdict: null, idleSeconds: 5, ageSeconds: 600, reapSafe: false, drift: false };

function row(over: Partial<TopRow> = {}): TopRow {
  return {
    id: "job-1",
    source: "job",
    host: "herdr",
    pane: "w1:p1",
    agent: "claude",
    model: "claude-sonnet-5",
    model_claimed: "claude-sonnet-5",
    model_observed: "claude-sonnet-5",
    tier: "efficient",
    job_tier: "T2",
    state: "working",
    stuck: false,
    escalated: false,
    verdict_pending: false,
    group: "running",
    age_seconds: 600,
    idle_seconds: 4,
    tokens: 123_456,
    spend: null,
    burn_tokens_per_hour: 40_000,
    burn_spend_per_hour: null,
    pushed: null,
    claimed_sha: null,
    verdict: null,
    reap: { safe: false, reason: "bound to open job job-1 (status running)" },
    repo: "/src/app",
    worktree: "/src/wt-1",
    branch: "fix-1",
    brief: null,
    transcripts: [],
    binding_source: null,
    drift: null,
    ...over,
  };
}

function frame(rows: TopRow[]): TopFrame {
  const groups = Object.fromEntries(GROUPS.map((g) => [g, rows.filter((r) => r.group === g).length])) as TopFrame["totals"]["groups"];
  return { rows, totals: { rows: rows.length, groups, tokens: 0, spend: null, currency: null, burn_tokens_per_hour: 0, tiers: [{ tier: "top", agents: 2, cap: 4, spent_tokens: 1_000_000, spend_cap: 20_000_000 }], window_seconds: 86_400, warnings: [], at: 0 } };
}

describe("state classification", () => {
  const cases: [string, Partial<Facts>, TopState, TopGroup][] = [
    ["a working pane", {}, "working", "running"],
    ["a blocked pane needs you", { paneStatus: "blocked" }, "blocked", "needs_you"],
    ["idle without a report", { paneStatus: "idle" }, "idle", "running"],
    ["idle with a report: done, verdict pending", { paneStatus: "idle", report: true }, "done", "needs_you"],
    ["the agent exited without a report: dead", { paneStatus: "exited" }, "dead", "failed"],
    ["the pane is gone: dead", { pane: "gone", paneStatus: null }, "dead", "failed"],
    ["the host failed: unknown", { pane: "unmeasured", paneStatus: null }, "unknown", "running"],
    ["merged, safe to reap", { open: false, status: "merged", reapSafe: true }, "done", "reap_ready"],
    ["closed, not safe", { open: false, status: "closed" }, "done", "finished"],
    ["a failed dispatch", { record: "dispatch", open: false, status: "failed" }, "dead", "failed"],
    ["escalated", { open: false, status: "escalated" }, "done", "needs_you"],
    ["an orphan worktree with nothing in it", { record: null, open: false, status: null, pane: "none", paneStatus: null, reapSafe: true }, "idle", "reap_ready"],
    ["drift needs you", { drift: true }, "working", "needs_you"],
    ["a passing verdict waits for the decision", { paneStatus: "idle", report: true, verdict: "pass" }, "done", "needs_you"],
    ["rework: back to running", { verdict: "rework" }, "working", "running"],
  ];
  for (const [name, over, state, group] of cases) {
    test(name, () => {
      const j = classify({ ...base, ...over });
      expect([j.state, j.group]).toEqual([state, group]);
    });
  }
  test("stuck: a live worker with no transcript activity for 5 minutes", () => {
    expect(classify({ ...base, idleSeconds: 301 }).stuck).toBe(true);
    expect(classify({ ...base, idleSeconds: 299 }).stuck).toBe(false);
    expect(classify({ ...base, idleSeconds: 301, ageSeconds: 100 }).stuck).toBe(false);
    expect(classify({ ...base, idleSeconds: 301, open: false, status: "merged" }).stuck).toBe(false);
    const j = classify({ ...base, idleSeconds: 900 });
    expect([stateLabel(j), j.group]).toEqual(["working+stuck", "needs_you"]);
  });
});

describe("grouping and order", () => {
  test("groups come in the documented order, the sort applies within a group, the filter matches any column", () => {
    const rows = [row({ id: "b", group: "reap_ready", tokens: 5 }), row({ id: "a", group: "needs_you", state: "blocked" }), row({ id: "c", group: "running", tokens: 9 }), row({ id: "d", group: "running", tokens: 99 })];
    expect(ordered(rows, { filter: "", sort: "id" }).map((r) => r.id)).toEqual(["a", "c", "d", "b"]);
    expect(ordered(rows, { filter: "", sort: "tokens" }).map((r) => r.id)).toEqual(["a", "d", "c", "b"]);
    expect(ordered(rows, { filter: "BLOCK", sort: "id" }).map((r) => r.id)).toEqual(["a"]);
    expect(ordered(rows, { filter: "zzz", sort: "id" })).toEqual([]);
  });
});

describe("layout", () => {
  test("at 160 columns every column is shown; at 80 the low-priority ones drop, ID, STATE and REAP stay", () => {
    const rows = [row({ model_observed: "claude-opus-5" })];
    const wide = layout(rows, 160).map((l) => l.col.key);
    expect(wide).toEqual(COLUMNS.map((c) => c.key));
    const narrow = layout(rows, 80).map((l) => l.col.key);
    expect(narrow).toContain("id");
    expect(narrow).toContain("state");
    expect(narrow).toContain("reap");
    expect(narrow).not.toContain("burn");
    expect(narrow).not.toContain("agent");
    expect(narrow.length).toBeLessThan(wide.length);
  });

  test("claimed→observed when the models differ", () => {
    const out = renderOnce(frame([row({ model_claimed: "claude-opus-5", model_observed: "claude-sonnet-5" })]), 160, false).join("\n");
    expect(out).toContain("claude-opus-5→claude-sonnet-5");
  });

  test("fit cuts with … and pads to the exact width, wide characters counted twice, escapes neutralised", () => {
    expect(fit("abcdef", 4)).toBe("abc…");
    expect(fit("ab", 4, "right")).toBe("  ab");
    expect(displayWidth(fit("日本語のブランチ", 7))).toBe(7);
    expect(fit("a\x1b[2Jb", 6)).toBe("a?[2Jb");
  });

  const seed = Number(process.env.MOGUI_TOP_SEED ?? Date.now() % 100_000);
  const iterations = Number(process.env.MOGUI_TOP_ITERATIONS ?? 120);
  test(`no line is ever wider than the terminal (property, seed ${seed}, ${iterations} runs)`, () => {
    console.log(`top layout property seed=${seed} iterations=${iterations}`);
    const rnd = prng(seed).next;
    const words = ["job-1", "日本語", "\x1b[31mred", "claude-opus-5", "x".repeat(300), "", "✓", "emoji😀wide", "wt/with space"];
    const pick = () => words[Math.floor(rnd() * words.length)]!;
    for (let i = 0; i < iterations; i++) {
      const width = 10 + Math.floor(rnd() * 200);
      const height = 5 + Math.floor(rnd() * 60);
      const rows = Array.from({ length: Math.floor(rnd() * 30) }, (_, k) =>
        row({ id: `${pick()}${k}`, model_claimed: pick(), model_observed: pick(), reap: { safe: false, reason: pick() }, group: GROUPS[Math.floor(rnd() * GROUPS.length)]!, pane: pick(), branch: pick() }),
      );
      const view = initialView(false);
      view.selected = Math.floor(rnd() * Math.max(1, rows.length));
      for (const colour of [false, true]) {
        const lines = renderScreen(frame(rows), view, width, height, colour);
        expect(lines.length).toBe(height);
        for (const l of lines) expect({ width, l: visibleWidth(l) <= width ? "" : JSON.stringify(l) }).toEqual({ width, l: "" });
        for (const l of renderOnce(frame(rows), width, colour)) expect(visibleWidth(l) <= width).toBe(true);
      }
    }
  });
});

describe("screen", () => {
  test("an unchanged frame writes nothing; one changed line rewrites that line only; a resize redraws all", () => {
    const out: string[] = [];
    const s = new Screen({ write: (t) => void out.push(t) });
    s.draw(["a", "b", "c"], 10, 3);
    expect(out.join("")).toContain("\x1b[2J");
    out.length = 0;
    s.draw(["a", "b", "c"], 10, 3);
    expect(out).toEqual([]);
    s.draw(["a", "B", "c"], 10, 3);
    expect(out).toEqual(["\x1b[2;1HB\x1b[0m\x1b[K"]);
    out.length = 0;
    s.draw(["a", "B", "c"], 12, 3);
    expect(out.join("")).toContain("\x1b[2J");
    expect(out.join("")).toContain("\x1b[1;1Ha");
  });
});

describe("keys", () => {
  test("arrows, Enter, Esc, Backspace, Ctrl-C and characters; unknown escape sequences are dropped", () => {
    expect(splitKeys("j\x1b[A\x1b[B\r\x1b\x7f\x03q\x1b[5~/")).toEqual(["j", "up", "down", "enter", "esc", "backspace", "ctrl-c", "q", "/"]);
    expect(splitKeys("\x1bOB")).toEqual(["down"]);
  });
});

describe("one host query per refresh", () => {
  test("the same host list call within a refresh runs once; other calls go through", async () => {
    const calls: string[] = [];
    const inner = async (argv: readonly string[]) => {
      calls.push(argv.join(" "));
      return { argv: [...argv], code: 0, signal: null, stdout: "", stderr: "", timedOut: false, missing: false };
    };
    const r = refreshRunner(inner);
    await Promise.all([r(["herdr", "pane", "list"]), r(["herdr", "pane", "list"]), r(["orca", "terminal", "list", "--json"]), r(["orca", "terminal", "list", "--json"]), r(["git", "-C", "/x", "status"]), r(["git", "-C", "/x", "status"])]);
    expect(calls.sort()).toEqual(["git -C /x status", "git -C /x status", "herdr pane list", "orca terminal list --json"]);
    const r2 = refreshRunner(inner);
    await r2(["herdr", "pane", "list"]);
    expect(calls.filter((c) => c === "herdr pane list").length).toBe(2);
    // After quit nothing more is started.
    let stopped = false;
    const r3 = refreshRunner(inner, () => stopped);
    await r3(["git", "-C", "/y", "status"]);
    stopped = true;
    const late = await r3(["git", "-C", "/z", "status"]);
    expect(late.missing).toBe(true);
    expect(calls.filter((c) => c.includes("/z")).length).toBe(0);
  });
});

describe("publish and detail helpers", () => {
  test("the tokens herdr gets: measured spend (or tokens), verdict, pushed as yes/no/-", async () => {
    const { metadataArgs, tokensOf } = await import("../../../src/fleet/top/publish.ts");
    expect(tokensOf(row({ spend: 0.4213, pushed: true, verdict: "pass" }), "USD")).toEqual({ spend: "USD 0.42", verdict: "pass", pushed: "yes" });
    expect(tokensOf(row({ pushed: false }), null)).toEqual({ spend: "123k tok", verdict: "-", pushed: "no" });
    expect(tokensOf(row({ tokens: null }), null).spend).toBe("-");
    expect(metadataArgs("w1:p2", { spend: "1 tok", verdict: "-", pushed: "-" }, 10_000)).toEqual(["pane", "report-metadata", "w1:p2", "--source", "mogui", "--token", "spend=1 tok", "--token", "verdict=-", "--token", "pushed=-", "--ttl-ms", "10000"]);
  });

  test("a transcript line in the detail pane: its type, role and text (Claude Code and Codex shapes)", async () => {
    const { summariseLine } = await import("../../../src/fleet/top/detail.ts");
    expect(
      summariseLine(
        JSON.stringify({
          type: "assistant",
          message: {
            role: "assistant",
            content: [
              { type: "text", text: "done,\n pushed" },
              { type: "tool_use", name: "Bash" },
            ],
          },
        }),
      ),
    ).toBe("assistant/assistant: done, pushed Bash");
    expect(summariseLine(JSON.stringify({ type: "event_msg", payload: { type: "token_count" } }))).toBe("event_msg: token_count");
    expect(summariseLine("not json")).toBe("not json");
  });
});
