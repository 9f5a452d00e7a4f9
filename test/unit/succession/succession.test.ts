import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { extractRoleState } from "../../../src/succession/bootstrap/role-state.ts";
import { SPAWN_FAILURES, SuccessionError } from "../../../src/succession/master/errors.ts";
import { buildHandoff, freezeRoles } from "../../../src/succession/master/handoff.ts";
import { listArgs, parseTerminalList } from "../../../src/succession/master/sessions.ts";
import { parseCreated, type SpawnParseError, titleMatches, worktreesMatch } from "../../../src/succession/master/spawn-match.ts";
import { defaultModel, shellQuote, startupCommand } from "../../../src/succession/master/startup.ts";
import { detectTrigger } from "../../../src/succession/master/trigger.ts";
import { verifySuccessor } from "../../../src/succession/master/verify.ts";
import { tempDir } from "../../helpers/paths.ts";

describe("detect (§5.2, D22)", () => {
  test("each of the five phrases is IMMEDIATE, case-insensitive and as a substring", () => {
    for (const p of ["Succession NOW please", "handoff to successor", "지금 승계해줘", "다음 마스터로 넘기자", "  승계 진행해  "]) {
      expect(detectTrigger(p)).toEqual({ status: "IMMEDIATE", reason: "explicit succession instruction", message: "" });
    }
  });
  test("ratio >= 0.60 or a milestone is only ADVISORY; otherwise NONE", () => {
    expect(detectTrigger("x", { contextRatio: 0.6 }).status).toBe("ADVISORY");
    expect(detectTrigger("x", { contextRatio: 0.6 }).reason).toBe("context ratio threshold reached");
    expect(detectTrigger("x", { contextRatio: 0.5999 }).status).toBe("NONE");
    expect(detectTrigger("x", { milestone: "v1" })).toEqual({
      status: "ADVISORY",
      reason: "natural milestone reached",
      message: "A natural milestone was reached. Auto-succession is not permitted; propose succession only.",
    });
    expect(detectTrigger("succession later")).toEqual({ status: "NONE", reason: "no succession trigger", message: "" });
  });
});

describe("handoff (§5.3, D24)", () => {
  test("one blank line between sections, one '- none' for empty tracks, ends with one newline", () => {
    const md = buildHandoff({ current_objective: "ship" });
    expect(md).not.toContain("\n\n\n");
    expect(md.endsWith("\n") && !md.endsWith("\n\n")).toBe(true);
    expect(md).toContain("## Active/Open Tracks\n\n- none\n\n## Accepted Artifacts");
    expect(md.match(/- none/g)!.length).toBe(4);
    expect(md).toContain("## Recommended Next Role\n\nReference Implementation\n\n## Observed Baseline\n\n(none)\n");
  });
  test("round-trips through the bootstrap Role State parser with the lock frozen ENABLED", () => {
    const md = buildHandoff({ role_state: { current_role: "Incident Response", lock: "DISABLED" }, active_tracks: ["a"], open_tracks: "b" });
    expect(extractRoleState(md)).toEqual({ role: "Incident Response", lock_enabled: true, frozen: "all other roles", unlock: "explicit user instruction only" });
    expect(md).toContain("## Active/Open Tracks\n\n- a\n- b\n");
  });
  test("a role the parser would reject is refused up front; a role_state without a role is an error", () => {
    expect(() => buildHandoff({ current_role: "Janitor" })).toThrow("Unknown role: Janitor");
    expect(() => freezeRoles({})).toThrow("role_state missing current role");
  });
});

describe("verify-successor (§5.4)", () => {
  const r = (...steps: [string, string][]) => ({ steps: steps.map(([step, status]) => ({ step, status })) });
  test("PASS, PARTIAL, FAILED and the MISS short-circuit", () => {
    expect(verifySuccessor(r(["6", "OK"], ["2-3", "OK"], ["5", "OK"]))).toEqual({ status: "PASS", checks: ["open tracks recited", "baseline matched", "monitors rearmed"], evidence: "checks=open tracks recited,baseline matched,monitors rearmed" });
    expect(verifySuccessor(r(["6", "OK"], ["2-3", "WARN"], ["5", "WARN"])).status).toBe("PARTIAL");
    expect(verifySuccessor(r(["2-3", "SKIP"])).status).toBe("FAILED");
    // An absent 2-3 counts as "baseline matched" (open question 15, kept).
    expect(verifySuccessor(r(["6", "OK"], ["5", "OK"])).status).toBe("PASS");
    expect(verifySuccessor(r(["6", "OK"], ["0", "MISS"]))).toEqual({ status: "FAILED", checks: ["fail-closed recovery miss"], evidence: "MISS in recovery steps" });
    expect(() => verifySuccessor([1])).toThrow(SuccessionError);
  });
});

describe("terminal list parsing (§5.5, D4)", () => {
  test("the error messages of the contract", () => {
    expect(() => parseTerminalList("nope")).toThrow("invalid orca JSON");
    expect(() => parseTerminalList("[]")).toThrow("orca JSON root must be an object");
    expect(() => parseTerminalList('{"ok":false,"error":{"code":"runtime_unavailable","message":"Orca is not running"}}')).toThrow("Orca is not running");
    expect(() => parseTerminalList('{"ok":true}')).toThrow("orca JSON missing result");
    expect(() => parseTerminalList('{"ok":true,"result":{}}')).toThrow("orca JSON missing result.terminals");
  });
  test("fields, alternative spellings, the legacy flat shape; items without a handle are skipped", () => {
    const s = parseTerminalList(JSON.stringify({ terminals: [{ handle: "h1", ptyID: "p", sessionID: "s", pid: "42", connected: 1 }, { title: "x" }, 7] }));
    expect(s).toEqual([{ handle: "h1", worktree_path: null, branch: null, title: null, connected: true, pty_id: "p", worktree_id: null, session_id: "s", process_id: 42 }]);
  });
  test("a bare folder: selector is listed as id:folder:", () => {
    expect(listArgs("folder:abc")).toEqual(["terminal", "list", "--worktree", "id:folder:abc", "--json"]);
    expect(listArgs("id:folder:abc")).toEqual(["terminal", "list", "--worktree", "id:folder:abc", "--json"]);
    expect(listArgs()).toEqual(["terminal", "list", "--json"]);
  });
});

describe("spawn building blocks (§5.8)", () => {
  test("shell quoting like shlex.quote and the per-agent startup commands", () => {
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a/b-c.d:e=1,2@%+")).toBe("a/b-c.d:e=1,2@%+");
    expect(shellQuote("it's here")).toBe(`'it'"'"'s here'`);
    expect(shellQuote("승계")).toBe("'승계'");
    expect(startupCommand("/w s", "m1", "go", "Claude")).toBe("cd '/w s' && exec claude --model m1 --dangerously-skip-permissions go");
    expect(startupCommand("/w", "m", "k", "grok-build")).toBe("cd /w && exec grok --model m --always-approve --cwd /w k");
    expect(startupCommand("/w", "m", "k", "codex")).toBe("cd /w && exec codex --model m k");
    expect(startupCommand("/w", "m", "k", "cursor")).toBe("cd /w && exec cursor-agent --model m --force --trust k");
    expect(startupCommand("/w", "m", "k", "agy")).toBe("cd /w && exec agy --model m --dangerously-skip-permissions k");
    expect(startupCommand("/w", "m", "k; rm -rf /", "my agent")).toBe("cd /w && exec 'my agent' --model m 'k; rm -rf /'");
    expect([defaultModel("claude"), defaultModel(" GROK "), defaultModel("codex"), defaultModel("cursor")]).toEqual(["claude-fable-5", "grok-4.5", "gpt-5.6-sol", undefined]);
  });
  test("worktree match: exact, id: stripped, path: by realpath, nothing else", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "real"));
    symlinkSync(join(dir, "real"), join(dir, "link"));
    expect(worktreesMatch("r::/a", "id:r::/a")).toBe(true);
    expect(worktreesMatch("folder:u", "id:folder:u")).toBe(true);
    expect(worktreesMatch(`r::${join(dir, "real")}`, `path:${join(dir, "link")}`)).toBe(true);
    expect(worktreesMatch("r::/nope/x/", "path:/nope/x")).toBe(true);
    expect(worktreesMatch("r::/a", "path:/b")).toBe(false);
    expect(worktreesMatch("r::/a", "branch:main")).toBe(false);
    expect(worktreesMatch("", "")).toBe(false);
    expect(worktreesMatch("r::/a\0", "path:/a\0")).toBe(true);
  });
  test("title match strips spinner glyphs and needs equality", () => {
    expect(titleMatches("✳ Gen 2", "Gen 2")).toBe(true);
    expect(titleMatches("⠂ Gen 2 ", " Gen 2")).toBe(true);
    expect(titleMatches("Gen 22", "Gen 2")).toBe(false);
    expect(titleMatches("Gen 2", "  ")).toBe(false);
    expect(titleMatches(null, "Gen 2")).toBe(false);
  });
  test("every accepted create reply shape, and each parse failure with its code and sniffed handle", () => {
    const t = { handle: "h", worktreeId: "w" };
    expect(parseCreated(JSON.stringify({ ok: true, result: { terminal: t } }))).toEqual({ handle: "h", worktreeId: "w" });
    expect(parseCreated(JSON.stringify({ ok: true, result: { terminals: [t] } }))).toEqual({ handle: "h", worktreeId: "w" });
    expect(parseCreated(JSON.stringify({ ok: true, result: { terminalHandle: "h", worktreeId: "w" } }))).toEqual({ handle: "h", worktreeId: "w" });
    expect(parseCreated(JSON.stringify({ terminal: "h", worktreeId: "w" }))).toEqual({ handle: "h", worktreeId: "w" });
    const fail = (raw: string) => {
      try {
        parseCreated(raw);
      } catch (e) {
        return [(e as SpawnParseError).message, SPAWN_FAILURES[(e as SpawnParseError).kind].code, (e as SpawnParseError).sniffedHandle];
      }
      return undefined;
    };
    expect(fail('{"handle": "hx", oops')).toEqual(["invalid spawn JSON", 21, "hx"]);
    expect(fail("[1]")).toEqual(["spawn JSON root must be an object", 21, null]);
    expect(fail('{"ok":false,"error":{"code":"selector_not_found","message":"no seat"}}')).toEqual(["spawn orca error: no seat", 20, null]);
    expect(fail('{"ok":true,"result":{"terminals":[{},{}]}}')).toEqual(["spawn JSON missing created terminal", 21, null]);
    expect(fail('{"ok":true,"result":{"terminal":{"worktreeId":"w"}}}')).toEqual(["spawn JSON missing handle", 21, null]);
    expect(fail('{"ok":true,"result":{"terminal":{"handle":"h9"}}}')).toEqual(["spawn JSON missing worktreeId", 21, "h9"]);
  });
});
