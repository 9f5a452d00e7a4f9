/** End-to-end cases for the lifecycle family: one row per command (keyed by the family's command names). */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const FX = join(ROOT, "fixtures", "lifecycle");
const FOLDER = "id:folder:9b1e4c7d-2a5f-4e8b-b3c6-0d9e8f7a6b5c";
const simEnv = () => {
  const dir = tempDir("mogui-lc-");
  return e2eEnv({ ORCA_SIM_STATE: join(dir, "state.json"), ORCA_SIM_SCENARIO: "folder", ORCA_SIM_ROOT: dir, MOGUI_HOME: join(dir, "home") });
};
const homeEnv = () => e2eEnv({ MOGUI_HOME: tempDir("mogui-lc-home-") });
const tempLedger = () => {
  const p = join(tempDir("mogui-lc-lin-"), "MASTER-LINEAGE.md");
  return p;
};
const shownLedger = (() => {
  let p: string | undefined;
  return () => {
    if (!p) {
      p = join(tempDir("mogui-lc-show-"), "MASTER-LINEAGE.md");
      copyFileSync(join(FX, "lineage.md"), p);
    }
    return p;
  };
})();

export const cases: FamilyCases = {
  "master-succeed detect": { argv: ["master-succeed", "detect", "succession now", "--json"], code: 0, stdout: /^\{"message":"","reason":"explicit succession instruction","status":"IMMEDIATE"\}\n$/ },
  "master-succeed handoff": { argv: ["master-succeed", "handoff", "--spec", join(FX, "handoff-spec.json"), "--json"], code: 0, stdout: /^\{"handoff":"## Role State\\n\\n```\\nCurrent Role: Feature Implementation\\n/ },
  "master-succeed verify-successor": { argv: ["master-succeed", "verify-successor", "--report", join(FX, "recovery-report.json"), "--json"], code: 0, stdout: /"status":"PASS"/ },
  "master-succeed check-duplicates": { argv: ["master-succeed", "check-duplicates", "--self-handle", "term_x", "--marker", "notes shell", "--json"], code: 0, stdout: /^\{"duplicates":\[\{.*"title":"notes shell"/, env: simEnv },
  "master-succeed retire": { argv: ["master-succeed", "retire", "--self-handle", "term_me", "--expected", "notes shell", "--json"], code: 0, stdout: /"status":"DRY_RUN"/, env: simEnv },
  "master-succeed spawn": {
    argv: ["master-succeed", "spawn", "--workspace-selector", FOLDER, "--kickoff-text", "Boot", "--root", ".", "--title", "Gen 2", "--json"],
    code: 0,
    stdout: /"status":"CREATED","verification":\{.*"result":"MATCH"/,
    env: simEnv,
  },
  "master-succeed": { argv: ["master-succeed", "--json", "detect", "hello"], code: 0, stdout: /^\{"message":"","reason":"no succession trigger","status":"NONE"\}\n$/ },
  "master-bootstrap": {
    argv: ["master-bootstrap", "--charter", join(FX, "charter.md"), "--handoff", join(FX, "handoffs", "2026-02-01-gen2.md")],
    code: 0,
    stdout: /^role=Feature Implementation\nbudget_used=\d+\nwarnings=\n$/,
  },
  "master-bootstrap-live": {
    argv: ["master-bootstrap-live", "--handoff-dir", join(FX, "handoffs"), "--tracks-from", "bd"],
    code: 0,
    stdin: '{"source":"startup"}',
    stdout: /^\[MASTER-BOOTSTRAP v1\]\n## Role State\nCurrent Role: Feature Implementation\n[\s\S]*## Active tracks\nbd-1 \[P1\][\s\S]*\[BD-PRIME-AUDIT\] memories=2 \(L0=1, L1=1, untagged=0\)/,
    env: homeEnv,
  },
  "master-recover": {
    argv: ["master-recover", "--charter", join(FX, "charter.md"), "--handoff", join(FX, "handoffs", "2026-02-01-gen2.md")],
    code: 0,
    stdout: /^0 OK: charter exists; Role State restored: Feature Implementation\n1 OK: /,
    env: homeEnv,
  },
  "lineage append": { argv: ["lineage", "append", "--ledger", "@LEDGER", "--entry", join(FX, "lineage-entry.json"), "--json"], code: 0, stdout: /^\{"appended":true,"generation":2,/ },
  "lineage show": { argv: ["lineage", "show", "--ledger", "@SHOWN", "--json"], code: 0, stdout: /^\{"entries":\[\{.*"generation":1,/ },
  lineage: { argv: ["lineage", "--json", "show", "--ledger", "@SHOWN"], code: 0, stdout: /^\{"entries":\[/ },
  "tracks register": { argv: ["tracks", "register", "T-1", "--title", "Ship it", "--json"], code: 0, stdout: /^\{"closed_at":null,.*"status":"REGISTERED","title":"Ship it","track_id":"T-1",/, env: homeEnv },
  "tracks update": { argv: ["tracks", "update", "T-404", "--status", "BLOCKED"], code: 3, stdout: /^$/, env: homeEnv },
  "tracks close": { argv: ["tracks", "close", "T-404", "--resolution", "done"], code: 3, stdout: /^$/, env: homeEnv },
  "tracks list": { argv: ["tracks", "list", "--json"], code: 0, stdout: /^\{"ledger":".*work-ledger\.jsonl","tracks":\[\],"warnings":\[\]\}\n$/, env: homeEnv },
  tracks: { argv: ["tracks", "--json", "list"], code: 0, stdout: /"tracks":\[\]/, env: homeEnv },
};

// The two lineage rows need a fresh temp ledger per run: the case table is static, so resolve the placeholders here.
for (const c of Object.values(cases)) {
  c.argv = c.argv.map((a) => (a === "@LEDGER" ? tempLedger() : a === "@SHOWN" ? shownLedger() : a));
}
