// Reference §4.5 pins these vectors (they are a minimum): the classifier looks only at the last 8 lines, tests
// whole lines, and the classes win in the order hook-trust > limit > prepared-prompt.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deliveryResult, lastLines, paneClassifyText, type PaneClass } from "../../../src/dispatch/pipeline/pane.ts";
import { ROOT } from "../../helpers/paths.ts";

const VECTORS: [string, PaneClass][] = [
  ["Do you trust the files in this folder?", "hook-trust"],
  ["I trust this folder", "hook-trust"],
  ["You've hit your limit. Try again after 2 hours.", "limit"],
  ["Rate limit reached", "limit"],
  ["codex> ", "prepared-prompt"],
  ["❯ ", "prepared-prompt"],
  ["worker emitted 128 bytes", "unknown"],
  ["ordinary output ➜", "unknown"],
  ["spec mentions provider rate limit", "unknown"],
  ['assert classify("Rate limit reached") == "limit"', "unknown"],
  ["context window 40% used\ncodex> ", "prepared-prompt"],
  ["workspace trust\nrate limit", "hook-trust"],
];

describe("paneClassifyText (reference vectors)", () => {
  for (const [pane, want] of VECTORS) {
    test(`${JSON.stringify(pane)} -> ${want}`, () => expect(paneClassifyText(pane)).toBe(want));
  }
});

describe("paneClassifyText (more)", () => {
  const more: [string, PaneClass][] = [
    ["  Welcome to Claude Code!", "hook-trust"],
    ["DO YOU TRUST THE FILES in this folder?", "hook-trust"],
    ["/login to continue", "hook-trust"],
    ["Press Enter to continue…", "hook-trust"],
    ["Antigravity CLI requires permission to read this folder", "hook-trust"],
    ["Sign in with ChatGPT", "hook-trust"],
    ["  usage limit reached for today", "limit"],
    ["You’ve hit your limit · resets 3pm", "limit"],
    ["Too Many Requests", "limit"],
    ["quota exceeded.", "limit"],
    ["out of credits", "limit"],
    ["you have reached your limit", "limit"],
    ["credits are exhausted", "limit"],
    ["rate-limit hit", "limit"],
    ["claude>", "prepared-prompt"],
    ["  gemini  >  ", "prepared-prompt"],
    ["grok>", "prepared-prompt"],
    ["›", "prepared-prompt"],
    ["➜   ", "prepared-prompt"],
    ["Codex> ", "unknown"], // the named prompt is case-sensitive
    ["codex> do the thing", "unknown"],
    ["> ", "unknown"],
    ["", "unknown"],
    ["codex> \n", "prepared-prompt"],
    ["codex> \r\n", "prepared-prompt"],
    ["rate limit\ncodex> ", "limit"],
    ["codex> \nDo you trust the files in this folder?", "hook-trust"],
    ["the workspace trust dialog", "unknown"],
  ];
  for (const [pane, want] of more) {
    test(`${JSON.stringify(pane)} -> ${want}`, () => expect(paneClassifyText(pane)).toBe(want));
  }

  test("only the last 8 lines count", () => {
    const old = ["Do you trust the files in this folder?", ...Array.from({ length: 8 }, (_, i) => `line ${i}`)].join("\n");
    expect(paneClassifyText(old)).toBe("unknown");
    const seven = ["Do you trust the files in this folder?", ...Array.from({ length: 7 }, (_, i) => `line ${i}`)].join("\n");
    expect(paneClassifyText(seven)).toBe("hook-trust");
    expect(lastLines("a\nb\nc\n", 2)).toEqual(["b", "c"]);
  });
});

describe("deliveryResult", () => {
  const trust = "Do you trust the files in this folder?";
  const cases: [string, string, string][] = [
    ["codex> ", "codex> ", "unknown"],
    ["codex> ", "working", "agent-started"],
    ["codex> ", trust, "hook-trust"],
    ["codex> ", "Rate limit reached", "limit"],
    ["unknown text", "working", "unknown"],
    [trust, "working", "unknown"],
    [trust, trust, "hook-trust"],
    ["Rate limit reached", "Rate limit reached", "limit"],
  ];
  for (const [pre, post, want] of cases) {
    test(`${JSON.stringify(pre)} -> ${JSON.stringify(post)} = ${want}`, () => {
      expect(deliveryResult(paneClassifyText(pre), paneClassifyText(post))).toBe(want as never);
    });
  }
  test("every pair of pane classes", () => {
    const classes: PaneClass[] = ["hook-trust", "limit", "prepared-prompt", "unknown"];
    for (const a of classes) {
      expect(deliveryResult(a, "hook-trust")).toBe("hook-trust");
      expect(deliveryResult(a, "limit")).toBe("limit");
      expect(deliveryResult(a, "prepared-prompt")).toBe("unknown");
      expect(deliveryResult(a, "unknown")).toBe(a === "prepared-prompt" ? "agent-started" : "unknown");
    }
  });
});

test("the source keeps the reference's marker names and never the retired pane_advanced heuristics", () => {
  const src = readFileSync(join(ROOT, "src", "dispatch", "pipeline", "pane.ts"), "utf8");
  for (const name of ["HOOK_TRUST_MARKERS", "LIMIT_MARKERS", "PREPARED_PROMPT_MARKERS", "PREPARED_UNICODE_PROMPT_MARKERS"]) expect(src).toContain(`const ${name} `);
  expect(src).not.toContain("pane_advanced");
  expect(src).not.toContain("pane_last_output");
});
