// `mogui hook secret-alert` in process: every exit, the documented PostToolUse output (masked), the alert ledger row,
// and any input at all ends in 0 or 2, never a crash (exit 1, which Claude Code ignores). Secrets are built at run time.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { tempDir } from "../../helpers/paths.ts";
import { checksumToken, leaks, rng } from "../../helpers/redaction-corpus.ts";

const GH = checksumToken("gh" + "p_", "Zx81Kq0Lm2Np3Rt4Vw5Yb6Cd7Ef8Gh");
const HF = "h" + "f_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh";

function setup() {
  const dir = tempDir("secret-alert-");
  const env = { HOME: dir, MOGUI_HOME: join(dir, "mogui"), PATH: "/usr/bin:/bin" };
  const run = (obj: unknown) => {
    const p = join(dir, `in-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(p, typeof obj === "string" ? obj : JSON.stringify(obj));
    return runMain(["hook", "secret-alert", "--input-file", p], { env, cwd: dir });
  };
  return { dir, env, run, ledger: join(dir, "mogui", "secret-alerts.jsonl") };
}

describe("hook secret-alert", () => {
  test("clean tool output: exit 0, no output, no alert row", async () => {
    const s = setup();
    const r = await s.run({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a.txt\nb.txt", stderr: "" } });
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(s.ledger)).toBe(false);
  });

  test("a secret in a Bash result: block + reason, additionalContext, systemMessage, masked output; a ledger row without the secret", async () => {
    const s = setup();
    const r = await s.run({ hook_event_name: "PostToolUse", session_id: "s-1", transcript_path: "/t/s-1.jsonl", tool_name: "Bash", tool_input: { command: "cat .env" }, tool_response: { stdout: `GITHUB_TOKEN=${GH}\nHF=${HF}\n`, stderr: "" } });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.decision).toBe("block");
    expect(out.reason).toContain("secret-alert: 2 secret(s) in the Bash call (github_token, huggingface_token)");
    expect(out.systemMessage).toContain("rotate");
    expect(out.hookSpecificOutput.hookEventName).toBe("PostToolUse");
    expect(out.hookSpecificOutput.additionalContext).toContain("[github_token]");
    expect(out.hookSpecificOutput.updatedMCPToolOutput).toBeUndefined();
    expect(JSON.parse(out.hookSpecificOutput.updatedToolOutput).stdout).toContain("GITHUB_TOKEN=gh?_********");
    const rows = readFileSync(s.ledger, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ hook: "secret-alert", session_id: "s-1", tool_name: "Bash", transcript_path: "/t/s-1.jsonl" });
    expect(rows[0].alerts.map((a: { rule: string }) => a.rule)).toEqual(["github_token", "huggingface_token"]);
    const everything = r.stdout + r.stderr + readFileSync(s.ledger, "utf8");
    expect(leaks(GH.slice(4), everything)).toEqual([]);
    expect(leaks(HF.slice(3), everything)).toEqual([]);
  });

  test("an MCP tool gets updatedMCPToolOutput: the same shape, its strings masked", async () => {
    const s = setup();
    const resp = { content: [{ type: "text", text: `token ${GH}` }], isError: false };
    const r = await s.run({ hook_event_name: "PostToolUse", tool_name: "mcp__vault__read", tool_input: {}, tool_response: resp });
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.updatedMCPToolOutput).toEqual({ content: [{ type: "text", text: "token gh?_********" }], isError: false });
  });

  test("a secret in the tool input is reported too (no output to replace)", async () => {
    const s = setup();
    const r = await s.run({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: `curl -H 'Authorization: token ${GH}' https://api.acme.dev` }, tool_response: { stdout: "{}" } });
    const out = JSON.parse(r.stdout);
    expect(out.reason).toContain("tool_input:1 [github_token]");
    expect(out.hookSpecificOutput.updatedToolOutput).toBeUndefined();
  });

  test("unreadable or malformed input: exit 2 with one line on stderr; empty input: exit 0", async () => {
    const s = setup();
    for (const bad of ["not json", "[1,2]", '"x"']) {
      const r = await s.run(bad);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^secret-alert: hook input is not .*; nothing was scanned\n$/);
    }
    expect((await s.run("")).code).toBe(0);
    const missing = await runMain(["hook", "secret-alert", "--input-file", join(s.dir, "nope.json")], { env: s.env, cwd: s.dir });
    expect(missing.code).toBe(2);
  });

  const SEED = Number(process.env.SECRET_ALERT_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const N = Number(process.env.SECRET_ALERT_ITERATIONS ?? 40);
  test(`any input ends in exit 0 or 2, never a crash (property, seed ${SEED}, SECRET_ALERT_SEED, ${N} cases)`, async () => {
    const s = setup();
    const r = rng(SEED);
    const atoms: unknown[] = [null, true, 0, -1.5, "", "x", GH, `a\\n${HF}`, [], {}, { tool_response: null }, "\u0000\uffff", "%3D%2F", "=".repeat(50)];
    const gen = (depth: number): unknown => {
      const k = Math.floor(r() * (depth > 3 ? 1 : 4));
      if (k === 0) return atoms[Math.floor(r() * atoms.length)];
      if (k === 1) return Array.from({ length: Math.floor(r() * 4) }, () => gen(depth + 1));
      const o: Record<string, unknown> = {};
      for (const key of ["tool_name", "tool_response", "tool_input", "tool_output", "cwd", "session_id"].filter(() => r() < 0.5)) o[key] = gen(depth + 1);
      return o;
    };
    for (let i = 0; i < N; i++) {
      const v = gen(0);
      const text = r() < 0.2 ? JSON.stringify(v).slice(0, Math.floor(r() * 40)) : JSON.stringify(v);
      const out = await s.run(text ?? "");
      expect([0, 2]).toContain(out.code);
      expect(out.stderr).not.toContain("    at ");
    }
  });
});
