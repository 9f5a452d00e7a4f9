// `mogui redaction-scan --transcripts` through the binary: a temp HOME with a Claude Code store
// (~/.claude/projects/<project>/<session>.jsonl) and a Codex store (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl);
// --agent picks the stores; findings name the session file and line; --baseline, SARIF and --json as in any scan; the
// organisation rules file at ~/.config/redaction-extra.txt is loaded without $REDACTION_EXTRA_PATTERNS (issue 25 §3).
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";
import { checksumToken, leaks } from "../../helpers/redaction-corpus.ts";

const GH = checksumToken("gh" + "p_", "Zx81Kq0Lm2Np3Rt4Vw5Yb6Cd7Ef8Gh");
const SK = "sk-" + "ant-api03-" + "Qw3rTy8UiOp2AsDfGhJkLzXcVbNm4Qw3rTy8UiOp2AsDfGhJkLzXcVbNm";

function store(): string {
  const home = tempDir("mogui-transcripts-");
  const claude = join(home, ".claude", "projects", "-work-app");
  mkdirSync(claude, { recursive: true });
  const row = { type: "user", message: { role: "user", content: [{ type: "tool_result", content: `$ env\nGITHUB_TOKEN=${GH}\n` }] } };
  writeFileSync(join(claude, "0d3c.jsonl"), `{"type":"summary"}\n${JSON.stringify(row)}\n`);
  writeFileSync(join(claude, "notes.txt"), `not a transcript ${GH}\n`);
  const codex = join(home, ".codex", "sessions", "2025", "01", "02");
  mkdirSync(codex, { recursive: true });
  const out = JSON.stringify({ output: `export ANTHROPIC_API_KEY=${SK}\n` });
  writeFileSync(join(codex, "rollout-2025-01-02T00-00-00-abc.jsonl"), `{"type":"session_meta"}\n{"type":"x"}\n${JSON.stringify({ type: "response_item", payload: { type: "function_call_output", output: out } })}\n`);
  return home;
}

const scan = (home: string, args: string[], extra: Record<string, string> = {}) => runBinary(["redaction-scan", "--transcripts", ...args], { env: e2eEnv({ HOME: home, ...extra }), cwd: home });

test("both stores scanned; the report names the session file and line; --agent narrows; nothing printed unmasked", async () => {
  const home = store();
  const all = await scan(home, []);
  expect(all.code).toBe(1);
  expect(all.stderr).toContain("  .claude/projects/-work-app/0d3c.jsonl:2  [github_token]");
  expect(all.stderr).toContain("  .codex/sessions/2025/01/02/rollout-2025-01-02T00-00-00-abc.jsonl:3  [anthropic_key]");
  expect(all.stderr).not.toContain("notes.txt");
  const claude = await scan(home, ["--agent", "claude", "--json"]);
  expect(claude.code).toBe(1);
  const doc = JSON.parse(claude.stdout);
  expect(doc.findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual([".claude/projects/-work-app/0d3c.jsonl:2"]);
  const codex = await scan(home, ["--agent", "codex", "--report-format", "sarif"]);
  expect(JSON.parse(codex.stdout).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(".codex/sessions/2025/01/02/rollout-2025-01-02T00-00-00-abc.jsonl");
  const everything = [all, claude, codex].map((r) => r.stdout + r.stderr).join("\n");
  expect(leaks(GH.slice(4), everything)).toEqual([]);
  expect(leaks(SK.slice(7), everything)).toEqual([]);
}, 60_000);

test("a baseline of an earlier sweep leaves only what is new; no store at all is a clean exit 0; --agent without --transcripts is a usage error", async () => {
  const home = store();
  const base = join(home, "base.json");
  expect((await scan(home, ["--report-format", "json", "--report-path", base])).code).toBe(1);
  expect((await scan(home, ["--baseline", base])).code).toBe(0);
  const empty = tempDir("mogui-transcripts-empty-");
  const none = await scan(empty, []);
  expect(none.code).toBe(0);
  expect(none.stderr).toContain("redaction-scan: OK — no transcript store found (looked in ");
  const bad = await runBinary(["redaction-scan", "--agent", "codex"], { env: e2eEnv({ HOME: empty }), cwd: empty });
  expect(bad.code).toBe(2);
  expect((await runBinary(["redaction-scan", "--transcripts", "--paths", "."], { env: e2eEnv({ HOME: empty }), cwd: empty })).code).toBe(2);
}, 60_000);

test("the organisation rules file is found at ~/.config/redaction-extra.txt by the scan as by preflight", async () => {
  const home = store();
  mkdirSync(join(home, ".config"), { recursive: true });
  writeFileSync(join(home, ".config", "redaction-extra.txt"), "acme_codename|Acme project codename|\\bbluefalcon\\b\n");
  writeFileSync(join(home, ".claude", "projects", "-work-app", "1a2b.jsonl"), `{"type":"user","message":{"content":"ship bluefalcon today"}}\n`);
  const r = await scan(home, ["--agent", "claude", "-v"], { REDACTION_EXTRA_PATTERNS: "" });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("org-rules=1");
  expect(r.stderr).toContain(".claude/projects/-work-app/1a2b.jsonl:1  [acme_codename]");
  expect(r.stderr).not.toContain("organization-specific rules not loaded");
}, 60_000);
