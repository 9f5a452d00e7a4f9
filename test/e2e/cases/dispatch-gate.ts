/** End-to-end cases for the gate family: one row per command (keyed by the family's command names). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";

/** A MOGUI_HOME with a contract at <home>/c.md; the ledger defaults into it. */
function home(): Record<string, string> {
  const dir = tempDir("gate-e2e-");
  writeFileSync(join(dir, "c.md"), "do the thing\n");
  return e2eEnv({ MOGUI_HOME: dir });
}

const CHECK = ["--runtime", "codex", "--model", "gpt-5.6-luna", "--contract", "/dev/null", "--agents", "1", "--completion-channel", "orchestration", "--no-record"];

export const cases: FamilyCases = {
  "dispatch-gate": {
    argv: ["dispatch-gate", "--ledger", "/nonexistent-dir/ledger.jsonl", "report", "--json"],
    code: 0,
    stdout: /^\{"denials":\{\},"ledger":"\/nonexistent-dir\/ledger\.jsonl",.*"skipped_malformed":0,.*\}\n$/,
    env: home,
  },
  "dispatch-gate check": {
    argv: ["dispatch-gate", "check", ...CHECK],
    code: 0,
    stdout: /^\{"allow":true,"contract_sha":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","cost_proxy":0,"reason":"OK","warnings":\[\]\}\n$/,
    env: home,
  },
  "dispatch-gate register": {
    argv: ["dispatch-gate", "register", "--job-id", "ctx_1", "--probe-cmd", "echo ctx_1"],
    code: 2,
    stdout: /^\{"allow":false,"contract_sha":null,"cost_proxy":0,"message":"candidate_contract_shas=<none>","reason":"NO_MATCHING_TICKET","warnings":\[\]\}\n$/,
    env: home,
  },
  "dispatch-gate watch": {
    argv: ["dispatch-gate", "watch", "--log", "/nonexistent-dir/worker.log"],
    code: 2,
    stdout: /^\{"idle_seconds":null,"last_progress_at":null,"reason":"LOG_MISSING","status":"MISSING"\}\n$/,
  },
  "dispatch-gate report": {
    argv: ["dispatch-gate", "report"],
    code: 0,
    stdout: /^Dispatch gate report\nScope: all ledger entries\nSkipped malformed: 0\nTime span: none\nModels:\n {2}<none>\n[\s\S]*Registrations:\n {2}<none>\n$/,
    env: home,
  },
};
