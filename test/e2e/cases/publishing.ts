/** End-to-end cases for the publish family: one row per command (keyed by the family's command names). */
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const T = (n: string) => join(ROOT, "fixtures", "transcripts", n);

export const cases: FamilyCases = {
  "model-identity-probe": { argv: ["model-identity-probe", "--transcript", T("claude-clean.jsonl"), "--expect", "claude-opus-4-1"], code: 0, stdout: /^MODEL-PROBE OK claude-opus-4-1 10\/10\n$/ },
  "model-drift-audit": { argv: ["model-drift-audit", "--transcript", T("codex-switch.jsonl")], code: 1, stdout: /^model-drift-audit: codex-switch\.jsonl\n[\s\S]*gpt-5-codex -> gpt-5\n$/ },
  "redaction-scan": { argv: ["redaction-scan", "-C", ROOT, "--paths", "fixtures/transcripts"], code: 0, stdout: /^redaction-scan: OK — 0 findings \(mode=paths, files=\d+, commit-messages=not-scanned, org-rules=0\)\n$/ },
  "redaction-inventory": { argv: ["redaction-inventory", "-C", ROOT], code: 2, stdout: /^$/, env: () => e2eEnv({ REDACTION_EXTRA_PATTERNS: "" }) },
  preflight: { argv: ["preflight", "--json"], code: 1, stdout: /^\{.*"verdict":"BLOCKED"\}\n$/, env: () => e2eEnv({ HOME: tempDir(), ORCA_AGENT_CLI: "" }) },
  "next-version": { argv: ["next-version", "-C", "/"], code: 2, stdout: /^$/ },
};
